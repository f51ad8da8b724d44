import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { PRICE_MESSAGES } from "../../../lib/eth.ts";
import {
  GWEI,
  OFFER_AMOUNT_TEXT,
  offerAmountError,
  offerExpiry,
  offerTerms,
  tooManyDecimals,
} from "./offer.ts";

const ME = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const OTHER = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const MIN = parseEther("0.1");
const NOW = 1_800_000_000n;

describe("offer amounts", () => {
  it("counts decimals: 9 places are whole gwei, 10 are not", () => {
    expect(tooManyDecimals("0.123456789")).toBe(false);
    expect(tooManyDecimals("1")).toBe(false);
    expect(tooManyDecimals("0.1234567891")).toBe(true);
    expect(tooManyDecimals(".0000000001")).toBe(true);
    expect(tooManyDecimals(" 2.0000000000 ")).toBe(true);
  });

  it("says the decimals rule before the others, and keeps the spec's price words", () => {
    const none = offerTerms(null, ME, NOW);
    expect(offerAmountError("0.0000000001", MIN, none, null)).toBe(OFFER_AMOUNT_TEXT.decimals);
    expect(offerAmountError("0.1234567891", MIN, none, null)).toBe("Use at most 9 decimal places.");
    expect(offerAmountError("", MIN, none, null)).toBe(PRICE_MESSAGES.required);
    expect(offerAmountError("0.05", MIN, none, null)).toBe(PRICE_MESSAGES.min(MIN));
    expect(offerAmountError("0.123456789", MIN, none, null)).toBeNull();
  });

  it("must beat a live offer by a gwei, not an expired one; the offerer may renew their expired one", () => {
    const amount = parseEther("0.5");
    const live = offerTerms({ buyer: OTHER, amount, expiresAt: NOW + 1n }, ME, NOW);
    expect(live).toEqual({ live: true, mine: false, floor: amount + GWEI, held: 0n });
    expect(offerAmountError("0.5", MIN, live, amount)).toBe(OFFER_AMOUNT_TEXT.beat(amount));
    expect(offerAmountError("0.500000001", MIN, live, amount)).toBeNull();

    // Expired at the block time itself (acceptOffer refuses from expiresAt on).
    const expired = offerTerms({ buyer: OTHER, amount, expiresAt: NOW }, ME, NOW);
    expect(expired).toEqual({ live: false, mine: false, floor: 0n, held: 0n });
    expect(offerAmountError("0.2", MIN, expired, amount)).toBeNull();

    const ownExpired = offerTerms({ buyer: ME, amount, expiresAt: NOW - 1n }, ME, NOW);
    expect(ownExpired).toEqual({ live: false, mine: true, floor: amount, held: amount });
    expect(offerAmountError("0.5", MIN, ownExpired, amount)).toBeNull();
    expect(offerAmountError("0.4", MIN, ownExpired, amount)).toBe(OFFER_AMOUNT_TEXT.belowOwn(amount));

    const ownLive = offerTerms({ buyer: ME, amount, expiresAt: NOW + 60n }, ME, NOW);
    expect(ownLive).toEqual({ live: true, mine: true, floor: amount + GWEI, held: amount });
  });

  it("counts the expiry in days from the chain's time", () => {
    expect(offerExpiry(NOW, 1)).toBe(NOW + 86_400n);
    expect(offerExpiry(NOW, 30)).toBe(NOW + 30n * 86_400n);
  });
});
