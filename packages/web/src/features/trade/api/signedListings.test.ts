import { describe, expect, it } from "vitest";
import { fillCall, orderArgs } from "./signedListings.ts";

const order = {
  collection: "0x9a676e781a523b5d0c0e43731313a708cb607508",
  tokenId: "42",
  price: "700000000000000000",
  seller: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
  transferCount: "1",
  counter: "0",
  expiresAt: "1900000000",
  maxFeeBps: 1000,
};
const signature = `0x${"11".repeat(65)}`;
const proof = [`0x${"22".repeat(32)}`, `0x${"33".repeat(32)}`];

describe("fillCall", () => {
  it("fills a single signed listing with fillSignedListing", () => {
    expect(fillCall({ id: "1", order, signature, bulk: null })).toEqual({
      functionName: "fillSignedListing",
      args: [orderArgs(order), signature],
    });
  });

  it("fills an order of a bulk signature with fillBulkSignedListing, its leaf packed before the signature", () => {
    expect(fillCall({ id: "1", order, signature, bulk: { index: "3", proof } })).toEqual({
      functionName: "fillBulkSignedListing",
      // Height 2 in one byte, index 3 in two, the two hashes, then the signature.
      args: [orderArgs(order), `0x020003${"22".repeat(32)}${"33".repeat(32)}${"11".repeat(65)}`],
    });
  });
});
