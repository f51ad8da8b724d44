import { blockText, timeText } from "../keys.ts";
import { eth, type Handlers, setTokenStatus } from "./shared.ts";

/** The market's fixed-price listings (SellOrders). */
export const sellOrderHandlers = {
  SellOrderSet(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const expiresAt = new Date(Number(a.expiresAt) * 1000).toISOString();
    b.sellOrders.set({
      collection,
      token_id: tokenId,
      seller: a.seller,
      price: a.price,
      expires_at: expiresAt,
      status: "active",
      listed_block: blockText(e.blockNumber),
      listed_tx: e.txHash,
      listed_at: timeText(e.blockTime),
      updated_block: blockText(e.blockNumber),
    });
    b.copyToToken(collection, tokenId, { listing_expires_at: expiresAt });
    const token = b.token(collection, tokenId);
    // Listed already (the same seller setting a new price): the watchers hear of a new price.
    const repriced = token?.status === "fix";
    if (token) setTokenStatus(b, e, token, "fix", a.price);
    b.activityRow(e, 0, "list", collection, tokenId, a.seller, null, a.price);
    b.notifyWatchers(
      e,
      repriced ? "watch_price" : "watch_listed",
      repriced
        ? (item) => `The price of ${item}, which you favourited, is now ${eth(a.price)}.`
        : (item) => `${item}, which you favourited, was listed for ${eth(a.price)}.`,
      { collection, tokenId, price: a.price },
      [a.seller],
    );
    b.touch(collection, tokenId, a.seller);
    // The on-chain listing is the one shown; signed ones are hidden (still valid on chain until cancelled).
    b.bookChange(e, { kind: "listed", collection, tokenId });
    if (token && token.creator === a.seller) {
      b.notifications.push({
        key: `chain:${e.blockNumber}:${e.logIndex}:listing:followers`,
        address: String(a.seller),
        kind: "listing",
        flag: "newNftListing",
        message: (item, seller) => `${seller} listed ${item} for ${eth(a.price)}.`,
        person: String(a.seller),
        item: b.namedItem(collection, tokenId),
        data: { block: blockText(e.blockNumber), tx: e.txHash, collection, tokenId, price: a.price },
        time: e.blockTime,
        followersOf: true,
      });
    }
  },

  SellOrderCancelled(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    b.endListing(e, collection, tokenId, "cancelled");
    const token = b.token(collection, tokenId);
    if (token && token.status === "fix") setTokenStatus(b, e, token, "minted", null);
    b.activityRow(e, 0, "unlist", collection, tokenId, a.seller, null, null);
    b.touch(collection, tokenId, a.seller);
  },

  /**
   * The owner voided every listing of the token (`cancelSignedListing`): the collection counted one transfer
   * without moving it, so an on-chain listing is void too, and so is every signed order naming a lower count.
   */
  SignedListingCancelled(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    b.endListing(e, collection, tokenId, "void");
    const token = b.token(collection, tokenId);
    if (token && token.status === "fix") setTokenStatus(b, e, token, "minted", null);
    b.bookChange(e, { kind: "cancel", collection, tokenId, transferCount: String(a.transferCount) });
    b.touch(collection, tokenId, a.seller);
  },

  /** The seller voided every signed order they made so far (those naming a lower counter). */
  ListingCounterIncremented(b, e) {
    b.bookChange(e, { kind: "bump", seller: String(e.args.seller), counter: String(e.args.counter) });
    b.touched.accounts.add(String(e.args.seller));
  },
} satisfies Handlers;
