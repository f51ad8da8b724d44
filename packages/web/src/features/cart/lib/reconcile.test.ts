import type { CartQuoteLine } from "@easel/common";
import { describe, expect, it } from "vitest";
import type { CartWork } from "./cartStore.ts";
import { reconcile } from "./reconcile.ts";

const work = (tokenId: string): CartWork => ({
  collection: "0xc0",
  tokenId,
  name: `Low tide #${tokenId}`,
  image: null,
  path: `/0xc0/${tokenId}`,
  priceWei: "1000",
});
const line = (tokenId: string, more: Partial<CartQuoteLine>): CartQuoteLine => ({
  collection: "0xc0",
  tokenId,
  name: `Low tide #${tokenId}`,
  path: null,
  image: null,
  seller: null,
  priceWei: null,
  unavailable: null,
  message: null,
  soldTo: null,
  listed: null,
  signed: null,
  ...more,
});

describe("a quote applied to the cart", () => {
  it("removes works sold, unlisted, gone or now the buyer's, and says why in words; keeps the rest", () => {
    const works = ["1", "2", "3", "4", "5"].map(work);
    const { remove, notices } = reconcile(works, {
      totalWei: "1000",
      lines: [
        line("1", { unavailable: "sold", message: "Sold to 0x3c…93bc" }),
        line("2", { unavailable: "unlisted", message: "No longer for sale" }),
        line("3", { priceWei: "1000", listed: { collection: "0xc0", tokenId: "3", price: "1000" } }),
        line("4", { unavailable: "refused", message: "The market is locked: trading is paused for now." }),
        line("5", { unavailable: "own", message: "This is your own work" }),
      ],
    });
    expect(remove).toEqual(["0xc0:1", "0xc0:2", "0xc0:5"]);
    expect(notices).toEqual([
      "Low tide #1: Sold to 0x3c…93bc while in your cart",
      "Low tide #2: Unlisted while in your cart",
      "Low tide #5: This is your own work, so it left your cart",
    ]);
  });
});
