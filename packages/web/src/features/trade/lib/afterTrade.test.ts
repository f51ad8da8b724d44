import { describe, expect, it } from "vitest";
import { CREATOR, itemFixture } from "../../../test/items.ts";
import { afterTrade } from "./afterTrade.ts";

const BUYER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const OTHER = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const named = (address: string) => ({ address, name: null, username: null, ens: null });
const listed = itemFixture({
  status: "fix",
  priceWei: "500000000000000000",
  listing: {
    kind: "chain",
    signedId: null,
    priceWei: "500000000000000000",
    seller: CREATOR,
    expiresAt: "2027-03-01T00:00:00.000Z",
  },
}).nft;

describe("the item right after a mined trade", () => {
  it("a purchase: the buyer owns it, nothing is for sale, the price paid is the last price", () => {
    const nft = afterTrade.bought(BUYER)(listed);
    expect(nft.owner?.address).toBe(BUYER);
    expect(nft.listing).toBeNull();
    expect(nft.priceWei).toBeNull();
    expect(nft.lastPriceWei).toBe("500000000000000000");
  });

  it("a raised offer replaces the offerer's own and outbids the rest", () => {
    const withOffers = {
      ...listed,
      offers: [
        {
          address: BUYER,
          person: named(BUYER),
          priceWei: "100",
          status: "outbid",
          time: "",
          expiresAt: null,
        },
        {
          address: OTHER,
          person: named(OTHER),
          priceWei: "200",
          status: "active",
          time: "",
          expiresAt: null,
        },
      ],
    };
    const expiry = new Date("2026-12-01T00:00:00.000Z");
    const nft = afterTrade.offered(BUYER, 300n, expiry)(withOffers);
    expect(nft.offers[0]?.expiresAt).toBe("2026-12-01T00:00:00.000Z");
    expect(nft.offers.map((o) => [o.address, o.priceWei, o.status])).toEqual([
      [BUYER, "300", "active"],
      [BUYER, "100", "outbid"],
      [OTHER, "200", "outbid"],
    ]);
    const raised = afterTrade.offered(BUYER, 400n)(nft);
    expect(raised.offers.filter((o) => o.status === "active")).toEqual([
      expect.objectContaining({ address: BUYER, priceWei: "400" }),
    ]);
  });

  it("a bid leads and sets the next minimum 10% higher; settlement hands the item to the winner", () => {
    const auctioned = afterTrade.auctionSet(CREATOR, "standard", 1_000n, null)(itemFixture().nft);
    const bid = afterTrade.bid(BUYER, 2_000n)(auctioned);
    expect(bid.auction?.topBidder).toBe(BUYER);
    expect(bid.auction?.minBidWei).toBe("2200");
    const settled = afterTrade.settled()(bid);
    expect(settled.owner?.address).toBe(BUYER);
    expect(settled.auction).toBeNull();
    expect(settled.lastPriceWei).toBe("2000");
  });
});
