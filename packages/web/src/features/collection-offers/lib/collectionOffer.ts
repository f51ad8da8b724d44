import type { CollectionOffer, CollectionOfferTerms } from "@easel/common";
import { groupDigits } from "../../../lib/dates.ts";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";

/** The most works one offer buys: the market's `MAX_OFFER_QUANTITY` (more reverts `QuantityOutOfRange`). */
export const MAX_COLLECTION_OFFER_QUANTITY = 10_000;

/** An offer on any work of a collection names no token root: 32 zero bytes. */
export const ANY_TOKEN_ROOT = `0x${"0".repeat(64)}` as const;

export const COLLECTION_OFFER_TEXT = {
  make: "Make collection offer",
  traitButton: "Offer on every work with this trait",
  title: (collection: string) => `Collection offer on ${collection}`,
  traitTitle: (type: string, value: string) => `Offer on every work with ${type}: ${value}`,
  anyWork: (collection: string) => `Any work of ${collection} can be sold to this offer, one at a time.`,
  covers: (count: number) =>
    count === 1
      ? "It covers 1 work: only its owner can accept it."
      : `It covers ${count} works: any of their owners can accept it.`,
  findingWorks: "Finding the works with this trait...",
  priceLabel: "Price for each work",
  quantityLabel: "How many works",
  quantityHint: (max: number) =>
    `You buy at most this many; the offer stays open until they are bought, it expires or you cancel it (1 to ${groupDigits(String(max))}).`,
  quantityRequired: "Enter how many works you want",
  quantityInvalid: (max: number) => `Enter a whole number from 1 to ${groupDigits(String(max))}`,
  total: "You send",
  totalHint:
    "Held by the market: each accepted work is paid from it, and what is left comes back when you cancel or it expires.",
  send: "Make Offer",
  confirming: "Confirming...",
  made: "Your collection offer is live.",
  accepting: "Accepting the offer...",
  approving: "Approving the market...",
  accepted: "You sold this work to the collection offer.",
  cancelling: "Cancelling...",
  cancelled: "Your collection offer has been cancelled and the rest refunded.",
  withdrawn: "Your expired collection offer has been withdrawn and refunded.",
  bestHeading: "Best collection offer",
  accept: "Accept offer",
  profileHeading: "Collection offers",
  filled: (filled: number, quantity: number) => `${filled} of ${quantity} filled`,
  cancel: "Cancel the rest",
  withdraw: "Withdraw",
} as const;

/** How many works the typed quantity asks for, or its problem in words. */
export function quantityOf(
  text: string,
  max = MAX_COLLECTION_OFFER_QUANTITY,
): { quantity: bigint } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { error: COLLECTION_OFFER_TEXT.quantityRequired };
  if (!/^\d+$/.test(trimmed)) return { error: COLLECTION_OFFER_TEXT.quantityInvalid(max) };
  const quantity = BigInt(trimmed);
  if (quantity < 1n || quantity > BigInt(max)) return { error: COLLECTION_OFFER_TEXT.quantityInvalid(max) };
  return { quantity };
}

/** The typed price's problem in the spec's words (required, a number above zero, the market's minimum), or null. */
export const collectionOfferPriceError = (text: string, minimum: bigint): string | null =>
  priceError(text, minimum);

/** What the offerer sends: the price of each work times how many. */
export function offerTotal(priceText: string, quantityText: string): bigint | null {
  const price = parseEthAmount(priceText);
  const quantity = quantityOf(quantityText);
  if (price === null || "error" in quantity) return null;
  return price * quantity.quantity;
}

/** The terms as the market takes them (`CollectionOffer`). */
export function chainTerms(terms: CollectionOfferTerms) {
  return {
    buyer: terms.buyer as `0x${string}`,
    collection: terms.collection as `0x${string}`,
    tokenRoot: terms.tokenRoot as `0x${string}`,
    price: BigInt(terms.price),
    expiresAt: BigInt(terms.expiresAt),
  };
}

/** How many works an offer bought so far. */
export const filledOf = (offer: Pick<CollectionOffer, "quantity" | "remaining" | "status">) =>
  // A cancelled offer keeps none: what it bought is what was not refunded, which the list does not know.
  offer.status === "cancelled" ? null : offer.quantity - offer.remaining;

/**
 * What its buyer can still do with an offer at `nowMs` (chain time): cancel what is left of a live one, withdraw
 * an expired one's escrow, or nothing (filled, cancelled).
 */
export function offerAction(offer: CollectionOffer, nowMs: number): "cancel" | "withdraw" | null {
  if (offer.remaining <= 0 || offer.status === "cancelled" || offer.status === "filled") return null;
  const expired = offer.status === "expired" || Number(offer.terms.expiresAt) * 1000 <= nowMs;
  return expired ? "withdraw" : "cancel";
}

/** An offer's one line: "0.2 ETH each · Mood: Calm" or "0.2 ETH each · any work". */
export const offerSummary = (offer: CollectionOffer) =>
  `${ethText(offer.terms.price)} each · ${offer.trait ? `${offer.trait.traitType}: ${offer.trait.traitValue}` : "any work"}`;
