import type { Batch } from "../batch.ts";
import type { ChainEvent } from "../decode.ts";
import { blockText, timeText, tokenKey, ZERO } from "../keys.ts";
import { eth, type Handlers } from "./shared.ts";

/**
 * A time in its stored text form, from Unix seconds (an event's `expiresAt`); null when the event has none (an
 * `OfferMade` stored before offers expired).
 */
export const unixTimeText = (seconds: unknown): string | null =>
  seconds == null ? null : new Date(Number(seconds) * 1000).toISOString();

/** Whether a stored time (a loaded row's Date, or a handler's ISO text) is at or before `time`. */
export function passedBy(value: unknown, time: Date): boolean {
  if (value == null) return false;
  const ms = value instanceof Date ? value.getTime() : new Date(String(value)).getTime();
  return ms <= time.getTime();
}

/**
 * The expiry of the token's current offer, as its row holds it (`offer_expires_at`, copied by `setOffer`), or for
 * an id not minted yet as `unmintedOffers` does: the token row is always loaded, the offer rows only when the batch
 * records undo, so the offer the market holds is known from the token. Null for an offer made before offers
 * expired.
 */
function currentExpiry(b: Batch, collection: string, tokenId: string): string | null {
  const token = b.token(collection, tokenId);
  const value = token
    ? token.offer_expires_at
    : b.unmintedOffers.get(tokenKey(collection, tokenId))?.offer_expires_at;
  if (value == null) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}

/** Writes an offer's row (one per token and offerer) as the event leaves it. */
function setOffer(
  b: Batch,
  e: ChainEvent,
  offer: {
    collection: string;
    tokenId: string;
    buyer: unknown;
    amount: unknown;
    status: string;
    expiresAt: string | null;
  },
): void {
  b.offers.set({
    collection: offer.collection,
    token_id: offer.tokenId,
    buyer: String(offer.buyer),
    amount: String(offer.amount),
    status: offer.status,
    expires_at: offer.expiresAt,
    updated_block: blockText(e.blockNumber),
    updated_tx: e.txHash,
    updated_at: timeText(e.blockTime),
  });
  // The market holds one current offer per token: the token row shows it (and its expiry, after which readers
  // ignore it) until it is outbid, cancelled or accepted.
  const active = offer.status === "active";
  if (!b.token(offer.collection, offer.tokenId)) {
    // An id not minted yet: its mint's row will show the offer still current then.
    const key = tokenKey(offer.collection, offer.tokenId);
    // Only the token's current offer changes status (outbid, cancelled, withdrawn), and an outbid one is ended
    // before the offer that beat it is set.
    if (active) b.unmintedOffers.set(key, { offer: String(offer.amount), offer_expires_at: offer.expiresAt });
    else b.unmintedOffers.delete(key);
    return;
  }
  b.copyToToken(offer.collection, offer.tokenId, {
    offer: active ? String(offer.amount) : null,
    offer_expires_at: active ? offer.expiresAt : null,
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
      // The offer replaced is the token's current one: a live one was beaten, an expired one (which need not
      // be beaten) was only returned to its offerer.
      const previousExpiry = currentExpiry(b, collection, tokenId);
      const lapsed = passedBy(previousExpiry, e.blockTime);
      setOffer(b, e, {
        collection,
        tokenId,
        buyer: previous,
        amount: a.previousAmount,
        status: "outbid",
        expiresAt: previousExpiry,
      });
      b.notify(
        e,
        previous,
        "offer_outbid",
        "bidActivity",
        lapsed
          ? (item, buyer) => `Your expired offer on ${item} was replaced by ${buyer}'s; it was refunded.`
          : (item, buyer) => `Your offer on ${item} was outbid by ${buyer}; it was refunded.`,
        {
          collection,
          tokenId,
        },
        a.buyer,
      );
    }
    setOffer(b, e, {
      collection,
      tokenId,
      buyer: a.buyer,
      amount: a.amount,
      status: "active",
      expiresAt: unixTimeText(a.expiresAt),
    });
    b.activityRow(e, 0, "offer", collection, tokenId, a.buyer, null, a.amount);
    const owner = b.token(collection, tokenId)?.owner;
    // The market does not read the token when an offer is made: an owner's offer on their own token (which the
    // app never sends) is not news to them.
    if (owner !== a.buyer)
      b.notify(e, owner, "offer", "bidActivity", (item) => `New offer of ${eth(a.amount)} on your ${item}.`, {
        collection,
        tokenId,
        amount: a.amount,
      });
    b.touch(collection, tokenId, a.buyer, previous, owner);
  },

  /** Its offerer's cancellation, or anyone's once it expired: `buyer` is the offerer either way. */
  OfferCancelled(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    setOffer(b, e, {
      collection,
      tokenId,
      buyer: a.buyer,
      amount: a.amount,
      status: "cancelled",
      expiresAt: currentExpiry(b, collection, tokenId),
    });
    b.activityRow(e, 0, "offer_cancelled", collection, tokenId, a.buyer, null, a.amount);
    b.touch(collection, tokenId, a.buyer);
  },

  OfferAccepted(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    setOffer(b, e, {
      collection,
      tokenId,
      buyer: a.buyer,
      amount: a.amount,
      status: "accepted",
      expiresAt: currentExpiry(b, collection, tokenId),
    });
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
