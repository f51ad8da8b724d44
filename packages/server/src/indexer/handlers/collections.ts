import { COLLECTION_KIND } from "@easel/contracts";
import type { Batch } from "../batch.ts";
import type { EaselEvent } from "../decode.ts";
import { blockText, timeText, tokenKey, ZERO } from "../keys.ts";
import type { Row } from "../store.ts";
import { eth, type Handlers, kindName, notifyPurchase, setMintDetails, setTokenStatus } from "./shared.ts";

/** A push that failed and was credited, or a withdrawal of credits. */
const credit = (b: Batch, e: EaselEvent<"PaymentCredited"> | EaselEvent<"Withdrawal">) => {
  const a = e.args;
  b.credits.push({
    block_number: blockText(e.blockNumber),
    log_index: e.logIndex,
    contract: e.address,
    account: a.account,
    kind: e.name === "PaymentCredited" ? "credit" : "withdrawal",
    amount: a.amount,
    to: "to" in a ? a.to : null,
    tx_hash: e.txHash,
  });
  b.touched.accounts.add(String(a.account));
};

/** The factory's and the collections' events: collections, tokens, mints, lazy mints, credits. */
export const collectionHandlers = {
  CollectionCreated(b, e) {
    const a = e.args;
    const address = String(a.collection);
    b.collections.set({
      address,
      kind: kindName(COLLECTION_KIND, a.kind),
      owner: a.owner,
      name: a.name,
      symbol: a.symbol,
      category: a.category,
      max_supply: a.maxSupply,
      blocked: b.blockedCollections.get(address) !== undefined,
      created_block: blockText(e.blockNumber),
      created_tx: e.txHash,
      created_at: timeText(e.blockTime),
      floor_price: null,
      highest_sale: null,
      volume: "0",
      sales_count: 0,
      owners_count: 0,
      tokens_count: 0,
    });
    b.touch(address, undefined, a.owner);
    b.createdCollections.add(address);
  },

  Transfer(b, e) {
    const collection = e.address;
    const { from, to } = e.args as { from: string; to: string };
    const tokenId = String(e.args.id);
    b.transfers.push({
      block_number: blockText(e.blockNumber),
      log_index: e.logIndex,
      collection,
      token_id: tokenId,
      from,
      to,
      tx_hash: e.txHash,
      block_time: timeText(e.blockTime),
    });
    b.touch(collection, tokenId, from, to);
    if (from === ZERO) {
      // The Minted (or LazyMinted) event that follows in the same transaction fills in creator, CID and royalty.
      const offer = b.unmintedOffers.get(tokenKey(collection, tokenId));
      b.tokens.set({
        collection,
        token_id: tokenId,
        creator: null,
        owner: to,
        holder: to,
        cid: null,
        royalty_bps: null,
        collaborators: null,
        status: "minted",
        lazy: false,
        price: null,
        last_price: null,
        listed_at: null,
        sold_at: null,
        listing_expires_at: null,
        auction_kind: null,
        auction_end: null,
        offer: offer?.offer ?? null,
        offer_expires_at: offer?.offer_expires_at ?? null,
        blocked: b.blockedTokens.get(tokenKey(collection, tokenId)) !== undefined,
        minted_block: blockText(e.blockNumber),
        minted_at: timeText(e.blockTime),
        mint_tx: e.txHash,
        updated_block: blockText(e.blockNumber),
      });
      return;
    }
    const token = b.token(collection, tokenId);
    // A buy-now's own transfer comes before its Sale, which marks this listing sold instead (`handlers/market.ts`).
    const voided = b.endListing(e, collection, tokenId, "void");
    if (voided) b.transferVoided.set(`${e.txHash}:${collection}:${tokenId}`, voided);
    // Every signed order names the token's transfer count: any transfer voids them.
    b.bookChange(e, { kind: "transfer", collection, tokenId });
    if (!token) return;
    token.holder = to;
    token.updated_block = blockText(e.blockNumber);
    if (to === ZERO) {
      token.status = "burned";
      token.price = null;
      b.activityRow(e, 0, "burn", collection, tokenId, from, null, null);
    } else {
      if (token.status === "fix") {
        token.status = "minted";
        token.price = null;
      }
      // An auction leaves the token with its seller (its collection locks it): the market holds a token only
      // when it was sent there by hand (a plain transferFrom, which the market cannot refuse), until an
      // operator's `rescueToken` sends it on to its rightful owner. Meanwhile its sender stays the owner
      // shown and `holder` says the market has it (a collection offer's notices leave it out). The rescue's
      // own transfer (from the market) names the owner as any transfer does.
      if (to !== b.market) token.owner = to;
      // A sale's own transfer (buy-now, signed fill, offer, collection offer, the settlement of an auction: the
      // seller to the buyer) is shown as its Sale, which follows in the same transaction and drops these.
      const key = `${e.txHash}:${collection}:${tokenId}`;
      b.activityRow(e, 0, "transfer", collection, tokenId, from, to, null);
      b.transferActivity.set(key, b.activity[b.activity.length - 1] as Row);
      const notes = b.notifications.length;
      // Nobody is told of a token sent to the market (`notify` skips the market).
      b.notify(
        e,
        to,
        "transfer",
        "ownedItemUpdate",
        (item, sender) => `You received ${item} from ${sender}.`,
        {
          collection,
          tokenId,
        },
        from,
      );
      const note = b.notifications[b.notifications.length - 1];
      if (b.notifications.length > notes && note?.kind === "transfer") b.transferNotes.set(key, note);
    }
    b.tokens.touch(token);
  },

  Minted(b, e) {
    const collection = e.address;
    const a = e.args;
    const tokenId = String(a.tokenId);
    const token = b.token(collection, tokenId);
    if (!token) return;
    setMintDetails(token, a);
    b.tokens.touch(token);
    b.activityRow(e, 0, "mint", collection, tokenId, a.creator, a.to, null);
    b.touch(collection, tokenId, a.creator);
  },

  /** A lazy mint is a mint and the token's primary sale in one event. */
  LazyMinted(b, e) {
    const collection = e.address;
    const a = e.args;
    const tokenId = String(a.tokenId);
    const token = b.token(collection, tokenId);
    const seller = String(a.creator);
    if (token) {
      setMintDetails(token, a);
      token.lazy = true;
      token.last_price = a.price;
      token.sold_at = timeText(e.blockTime);
      setTokenStatus(b, e, token, "lazy-sold", null);
    }
    b.sales.push({
      block_number: blockText(e.blockNumber),
      log_index: e.logIndex,
      collection,
      token_id: tokenId,
      seller,
      buyer: a.buyer,
      mechanism: "lazy-mint",
      price: a.price,
      fee: a.fee,
      royalty: "0",
      proceeds: String(BigInt(String(a.price)) - BigInt(String(a.fee))),
      primary: true,
      tx_hash: e.txHash,
      block_time: timeText(e.blockTime),
    });
    b.activityRow(e, 0, "mint", collection, tokenId, seller, a.buyer, null);
    b.activityRow(e, 1, "sale", collection, tokenId, seller, a.buyer, a.price);
    b.touch(collection, tokenId, seller, a.buyer);
    const data = { collection, tokenId, price: a.price };
    b.notify(e, seller, "sale", "itemSold", (item) => `Your ${item} was bought for ${eth(a.price)}.`, data);
    notifyPurchase(b, e, { buyer: a.buyer, price: a.price, data });
  },

  PaymentCredited: credit,
  Withdrawal: credit,
} satisfies Handlers;
