import { formatEther } from "viem";
import { PRICE_MESSAGES, parseEthAmount, priceError } from "../../../lib/eth.ts";

/** The market takes offers in whole gwei: 9 decimals of ETH at most. */
export const GWEI = 1_000_000_000n;
const DAY_SECONDS = 86_400n;

/** How long an offer may last: the market refuses more than 100 days. */
export const MAX_OFFER_DAYS = 100;

/** The expiry choices of the offer form ("Offer expires in"), the default first among equals: 7 days. */
export const OFFER_EXPIRY_CHOICES = [
  { days: 1, label: "1 day" },
  { days: 3, label: "3 days" },
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
] as const;
export type OfferExpiryDays = (typeof OFFER_EXPIRY_CHOICES)[number]["days"];
export const DEFAULT_OFFER_DAYS: OfferExpiryDays = 7;

export const OFFER_AMOUNT_TEXT = {
  decimals: "Use at most 9 decimal places.",
  beat: (current: bigint) => `Your offer must be more than the current offer of ${formatEther(current)} ETH`,
  belowOwn: (current: bigint) =>
    `Your offer cannot be less than your current offer of ${formatEther(current)} ETH`,
} as const;

/** The market's current offer on a token, as `getOffer` answers it; null when there is none. */
export type ChainOffer = { buyer: string; amount: bigint; expiresAt: bigint };

/** `getOffer`'s answer as the form reads it: none when nobody holds an offer. */
export function chainOfferOf(view: { buyer: string; amount: bigint; expiresAt: bigint }): ChainOffer | null {
  if (view.amount === 0n || /^0x0{40}$/i.test(view.buyer)) return null;
  return { buyer: view.buyer.toLowerCase(), amount: view.amount, expiresAt: view.expiresAt };
}

/**
 * What a new offer by `me` must reach, as the market decides it at `nowSeconds` (chain time): a live offer
 * must be beaten (by at least 1 gwei); an expired one need not be, except that its own offerer renewing it
 * may not go below it (its escrow counts towards the new total, so the offerer sends only the difference).
 */
export function offerTerms(current: ChainOffer | null, me: string, nowSeconds: bigint) {
  const live = !!current && nowSeconds < current.expiresAt;
  const mine = !!current && current.buyer === me.toLowerCase();
  const floor = !current ? 0n : live ? current.amount + GWEI : mine ? current.amount : 0n;
  return { live, mine, floor, held: mine && current ? current.amount : 0n };
}

/** True when a typed amount has more than 9 decimals (not a whole number of gwei). */
export function tooManyDecimals(text: string): boolean {
  const match = /^\d*\.(\d+)$/.exec(text.trim());
  return !!match && (match[1] ?? "").length > 9;
}

/**
 * The typed offer's problem in words, or null: the spec's price rules (required, a number above zero, the
 * market's minimum), at most 9 decimals, and the current offer's floor (`offerTerms`).
 */
export function offerAmountError(
  text: string,
  minimum: bigint,
  terms: { live: boolean; mine: boolean; floor: bigint },
  current: bigint | null,
): string | null {
  if (text.trim() !== "" && tooManyDecimals(text)) return OFFER_AMOUNT_TEXT.decimals;
  const problem = priceError(text, minimum);
  if (problem) return problem;
  const amount = parseEthAmount(text);
  if (amount === null) return PRICE_MESSAGES.invalid;
  if (amount < terms.floor && current !== null)
    return terms.live ? OFFER_AMOUNT_TEXT.beat(current) : OFFER_AMOUNT_TEXT.belowOwn(current);
  return null;
}

/** The offer's `expiresAt`: `days` after the chain's latest block time, in unix seconds. */
export const offerExpiry = (nowSeconds: bigint, days: number) => nowSeconds + BigInt(days) * DAY_SECONDS;
