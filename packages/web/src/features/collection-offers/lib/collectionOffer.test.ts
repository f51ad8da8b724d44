import type { CollectionOffer } from "@easel/common";
import { describe, expect, it } from "vitest";
import {
  ANY_TOKEN_ROOT,
  COLLECTION_OFFER_TEXT,
  chainTerms,
  filledOf,
  offerAction,
  offerSummary,
  offerTotal,
  quantityOf,
} from "./collectionOffer.ts";

const offer = (overrides: Partial<CollectionOffer> = {}): CollectionOffer => ({
  offerId: `0x${"1".repeat(64)}`,
  terms: {
    buyer: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
    collection: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
    tokenRoot: ANY_TOKEN_ROOT,
    price: "200000000000000000",
    expiresAt: "2000000000",
  },
  buyerPerson: {
    address: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
    name: null,
    username: null,
    ens: null,
  },
  collectionName: "Tidal",
  trait: null,
  quantity: 3,
  remaining: 2,
  status: "active",
  createdAt: "2033-01-01T00:00:00.000Z",
  ...overrides,
});

describe("quantityOf", () => {
  it("takes a whole number from 1 to 10,000 and words the rest", () => {
    expect(quantityOf(" 2 ")).toEqual({ quantity: 2n });
    expect(quantityOf("10000")).toEqual({ quantity: 10_000n });
    expect(quantityOf("")).toEqual({ error: COLLECTION_OFFER_TEXT.quantityRequired });
    for (const bad of ["0", "10001", "1.5", "-1", "two"])
      expect(quantityOf(bad)).toEqual({ error: "Enter a whole number from 1 to 10,000" });
  });
});

describe("offerTotal", () => {
  it("is the price of each work times how many, exactly", () => {
    expect(offerTotal("0.2", "3")).toBe(600_000_000_000_000_000n);
    expect(offerTotal("0.000000000000000001", "7")).toBe(7n);
    expect(offerTotal("", "3")).toBeNull();
    expect(offerTotal("0.2", "0")).toBeNull();
  });
});

describe("an offer in the offerer's list", () => {
  it("counts what was filled, and offers cancel while live, withdraw once expired, nothing when done", () => {
    const before = 1_999_999_999_000;
    expect(filledOf(offer())).toBe(1);
    expect(filledOf(offer({ status: "cancelled", remaining: 0 }))).toBeNull();
    expect(offerAction(offer(), before)).toBe("cancel");
    expect(offerAction(offer(), 2_000_000_000_000)).toBe("withdraw");
    expect(offerAction(offer({ status: "expired" }), before)).toBe("withdraw");
    expect(offerAction(offer({ status: "filled", remaining: 0 }), before)).toBeNull();
    expect(offerAction(offer({ status: "cancelled", remaining: 0 }), before)).toBeNull();
  });

  it("reads its price and what it covers in one line", () => {
    expect(offerSummary(offer())).toBe("0.2 ETH each · any work");
    expect(offerSummary(offer({ trait: { traitType: "Mood", traitValue: "Calm" } }))).toBe(
      "0.2 ETH each · Mood: Calm",
    );
  });

  it("goes back to the market as the contract's struct", () => {
    expect(chainTerms(offer().terms)).toEqual({
      buyer: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
      collection: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      tokenRoot: ANY_TOKEN_ROOT,
      price: 200_000_000_000_000_000n,
      expiresAt: 2_000_000_000n,
    });
  });
});
