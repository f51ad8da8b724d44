import { SALE_MECHANISM } from "@easel/contracts";
import { blockText, timeText, tokenKey } from "../keys.ts";
import {
  endAuction,
  eth,
  type Handlers,
  kindName,
  notifyPurchase,
  setAccount,
  setTokenStatus,
} from "./shared.ts";

/** The market core: sales and their payouts, moderation and settings (MarketCore). */
export const marketHandlers = {
  Sale(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const mechanism = kindName(SALE_MECHANISM, a.mechanism);
    // The sale's own transfer, logged just before it in the same transaction.
    const saleTransferKey = `${e.txHash}:${collection}:${tokenId}`;
    // The event does not log the proceeds (the seller's, or the collaborators' when the creator sells): they
    // are what the fee and the royalty leave of the price.
    const proceeds = String(BigInt(String(a.price)) - BigInt(String(a.fee)) - BigInt(String(a.royalty)));
    b.sales.push({
      block_number: blockText(e.blockNumber),
      log_index: e.logIndex,
      collection,
      token_id: tokenId,
      seller: a.seller,
      buyer: a.buyer,
      mechanism,
      price: a.price,
      fee: a.fee,
      royalty: a.royalty,
      proceeds,
      primary: a.primary,
      tx_hash: e.txHash,
      block_time: timeText(e.blockTime),
    });
    if (mechanism === "auction") {
      // An auction's settlement has no event of its own: its Sale names the seller, the winner and the price.
      endAuction(b, e, collection, tokenId, "completed", String(a.buyer));
    }
    if (mechanism === "buy-now") {
      // The sale's transfer, logged before the Sale, already ended the listing as void: it was sold.
      const voided = b.transferVoided.get(saleTransferKey);
      if (voided) {
        voided.status = "sold";
        b.sellOrders.touch(voided);
      } else b.endListing(e, collection, tokenId, "sold");
    }
    if (mechanism === "signed-listing")
      b.bookChange(e, {
        kind: "fill",
        collection,
        tokenId,
        seller: String(a.seller),
        price: String(a.price),
      });
    const token = b.token(collection, tokenId);
    if (token) {
      token.last_price = a.price;
      token.sold_at = timeText(e.blockTime);
      setTokenStatus(b, e, token, "minted", null);
    }
    // The sale's own transfer is shown as the sale, not as a separate transfer (nor notified as one).
    const transferRow = b.transferActivity.get(saleTransferKey);
    if (transferRow) transferRow.skip = true;
    const transferNote = b.transferNotes.get(saleTransferKey);
    if (transferNote) transferNote.skip = true;
    b.activityRow(e, 0, "sale", collection, tokenId, a.seller, a.buyer, a.price);
    const data = { collection, tokenId, price: a.price, mechanism };
    b.notify(
      e,
      a.seller,
      "sale",
      "itemSold",
      (item) => `Your ${item} sold for ${eth(a.price)}; you receive ${eth(proceeds)}.`,
      data,
    );
    // A signed listing's fill (mechanism 4) is a fixed-price purchase like buy-now; its own transfer voids any
    // on-chain listing of the token.
    if (mechanism === "buy-now" || mechanism === "signed-listing") {
      notifyPurchase(b, e, { buyer: a.buyer, price: a.price, data });
    } else if (mechanism === "collection-offer") {
      // The offerer bought a token through their collection offer (mechanism 5): told as an accepted offer.
      b.notify(
        e,
        a.buyer,
        "offer_accepted",
        "successfulPurchase",
        (item) => `Your collection offer of ${eth(a.price)} was accepted: you bought ${item}.`,
        { collection, tokenId, amount: a.price },
      );
    } else if (mechanism === "auction") {
      b.notify(
        e,
        a.buyer,
        "auction_won",
        "auction",
        (item) => `You won the auction of ${item} for ${eth(a.price)}.`,
        {
          collection,
          tokenId,
          price: a.price,
        },
      );
    }
    b.touch(collection, tokenId, a.seller, a.buyer);
  },

  UserBanned(b, e) {
    setAccount(b, e, { banned: e.args.banned === true });
  },
  ArtistVerified(b, e) {
    setAccount(b, e, { verified_artist: e.args.verified === true });
  },
  CollectionBlocked(b, e) {
    const collection = String(e.args.collection);
    if (e.args.blocked === true)
      b.blockedCollections.set({ collection, block_number: blockText(e.blockNumber) });
    else b.blockedCollections.delete(collection);
    const row = b.collections.get(collection);
    if (row) {
      row.blocked = e.args.blocked === true;
      b.collections.touch(row);
    }
    b.touch(collection);
  },
  TokenBlocked(b, e) {
    const collection = String(e.args.collection);
    const tokenId = String(e.args.tokenId);
    if (e.args.blocked === true)
      b.blockedTokens.set({ collection, token_id: tokenId, block_number: blockText(e.blockNumber) });
    else b.blockedTokens.delete(tokenKey(collection, tokenId));
    const token = b.token(collection, tokenId);
    if (token) {
      token.blocked = e.args.blocked === true;
      token.updated_block = blockText(e.blockNumber);
      b.tokens.touch(token);
    }
    b.touch(collection, tokenId);
  },
} satisfies Handlers;
