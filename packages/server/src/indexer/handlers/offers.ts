import type { Batch } from "../batch.ts";
import type { ChainEvent } from "../decode.ts";
import { blockText, timeText, ZERO } from "../keys.ts";
import { eth, type Handlers } from "./shared.ts";

/** Writes an offer's row (one per token and offerer) as the event leaves it. */
function setOffer(
  b: Batch,
  e: ChainEvent,
  offer: { collection: string; tokenId: string; buyer: unknown; amount: unknown; status: string },
): void {
  b.offers.set({
    collection: offer.collection,
    token_id: offer.tokenId,
    buyer: String(offer.buyer),
    amount: String(offer.amount),
    status: offer.status,
    updated_block: blockText(e.blockNumber),
    updated_tx: e.txHash,
    updated_at: timeText(e.blockTime),
  });
  // The market holds one current offer per token: the token row shows it until it is outbid, cancelled or
  // accepted.
  b.copyToToken(offer.collection, offer.tokenId, {
    offer: offer.status === "active" ? String(offer.amount) : null,
  });
}

/** The market's offers (Offers). */
export const offerHandlers = {
  OfferMade(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const previous = a.previousBuyer === ZERO ? null : String(a.previousBuyer);
    if (previous) {
      setOffer(b, e, { collection, tokenId, buyer: previous, amount: a.previousAmount, status: "outbid" });
      b.notify(
        e,
        previous,
        "offer_outbid",
        "bidActivity",
        (item, buyer) => `Your offer on ${item} was outbid by ${buyer}; it was refunded.`,
        {
          collection,
          tokenId,
        },
        a.buyer,
      );
    }
    setOffer(b, e, { collection, tokenId, buyer: a.buyer, amount: a.amount, status: "active" });
    b.activityRow(e, 0, "offer", collection, tokenId, a.buyer, null, a.amount);
    const owner = b.token(collection, tokenId)?.owner;
    b.notify(e, owner, "offer", "bidActivity", (item) => `New offer of ${eth(a.amount)} on your ${item}.`, {
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
    setOffer(b, e, { collection, tokenId, buyer: a.buyer, amount: a.amount, status: "cancelled" });
    b.activityRow(e, 0, "offer_cancelled", collection, tokenId, a.buyer, null, a.amount);
    b.touch(collection, tokenId, a.buyer);
  },

  OfferAccepted(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    setOffer(b, e, { collection, tokenId, buyer: a.buyer, amount: a.amount, status: "accepted" });
    b.activityRow(e, 0, "offer_accepted", collection, tokenId, a.seller, a.buyer, a.amount);
    b.notify(
      e,
      a.buyer,
      "offer_accepted",
      "successfulPurchase",
      (item) => `Your offer of ${eth(a.amount)} on ${item} was accepted.`,
      {
        collection,
        tokenId,
        amount: a.amount,
      },
    );
    b.touch(collection, tokenId, a.seller, a.buyer);
  },
} satisfies Handlers;
