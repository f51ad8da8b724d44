import { eth, type Handlers, ZERO } from "./shared.ts";

/** The market's offers (Offers). */
export const offerHandlers = {
  OfferMade(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const row = (buyer: string, amount: unknown, status: string) =>
      b.offers.set({
        collection,
        token_id: tokenId,
        buyer,
        amount: String(amount),
        status,
        updated_block: String(e.blockNumber),
        updated_tx: e.txHash,
        updated_at: e.blockTime.toISOString(),
      });
    const previous = a.previousBuyer === ZERO ? null : String(a.previousBuyer);
    if (previous) {
      row(previous, a.previousAmount, "outbid");
      b.notify(
        e,
        previous,
        "offer_outbid",
        "bidActivity",
        `Your offer on NFT #${tokenId} was outbid; it was refunded.`,
        {
          collection,
          tokenId,
        },
      );
    }
    row(String(a.buyer), a.amount, "active");
    b.activityRow(e, 0, "offer", collection, tokenId, a.buyer, null, a.amount);
    const owner = b.token(collection, tokenId)?.owner;
    b.notify(e, owner, "offer", "bidActivity", `New offer of ${eth(a.amount)} on your NFT #${tokenId}.`, {
      collection,
      tokenId,
      amount: a.amount,
    });
    b.touch(collection, tokenId, a.buyer, previous, owner);
  },

  OfferCancelled(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    b.offers.set({
      collection,
      token_id: tokenId,
      buyer: a.buyer,
      amount: a.amount,
      status: "cancelled",
      updated_block: String(e.blockNumber),
      updated_tx: e.txHash,
      updated_at: e.blockTime.toISOString(),
    });
    b.activityRow(e, 0, "offer_cancelled", collection, tokenId, a.buyer, null, a.amount);
    b.touch(collection, tokenId, a.buyer);
  },

  OfferAccepted(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    b.offers.set({
      collection,
      token_id: tokenId,
      buyer: a.buyer,
      amount: a.amount,
      status: "accepted",
      updated_block: String(e.blockNumber),
      updated_tx: e.txHash,
      updated_at: e.blockTime.toISOString(),
    });
    b.activityRow(e, 0, "offer_accepted", collection, tokenId, a.seller, a.buyer, a.amount);
    b.notify(
      e,
      a.buyer,
      "offer_accepted",
      "successfulPurchase",
      `Your offer of ${eth(a.amount)} on NFT #${tokenId} was accepted.`,
      {
        collection,
        tokenId,
        amount: a.amount,
      },
    );
    b.touch(collection, tokenId, a.seller, a.buyer);
  },
} satisfies Handlers;
