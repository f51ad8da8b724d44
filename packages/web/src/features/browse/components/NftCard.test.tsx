import type { NftCard as NftCardData } from "@easel/common";
import { cleanup, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp } from "../../../test/harness.tsx";
import { NftCard } from "./NftCard.tsx";

const CREATOR = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

function card(endTime: string): NftCardData {
  return {
    _id: `0xc0:7`,
    collection: { address: "0xc0", name: "Studio Works", kind: "standard" },
    tokenId: "7",
    name: "Low tide",
    creator: CREATOR,
    owner: CREATOR,
    status: "auction",
    image_cid: null,
    category: "Painting",
    royaltyBps: 1000,
    collaborators: [],
    price: "1",
    priceWei: "1000000000000000000",
    lastPriceWei: null,
    creatorData: null,
    collaboratorsData: [],
    auctionKind: "standard",
    endTime,
    offerWei: null,
    favorites: 0,
    views: 0,
    isFavorite: false,
    blocked: false,
  };
}

async function show(nft: NftCardData) {
  fakeApi({});
  await renderApp({ routes: [{ path: "/", element: <NftCard nft={nft} /> }] });
  await screen.findByText("Low tide");
}

describe("an auction's card", () => {
  it("counts down to the end", async () => {
    await show(card(new Date(Date.now() + 86_400_000 + 60_000).toISOString()));
    expect(screen.getByText(/^Ends in 1d 0h 0m/)).toBeTruthy();
  });

  it("says the auction ended once its end has passed, not 'Ends in 0d 0h 0m 0s'", async () => {
    await show(card(new Date(Date.now() - 1_000).toISOString()));
    expect(screen.getByText("Auction ended")).toBeTruthy();
    expect(screen.queryByText(/Ends in/)).toBeNull();
  });
});

describe("a card's picture", () => {
  const picture = () => screen.getByAltText("Low tide") as HTMLImageElement;

  it("keeps pixel art's pixels crisp, and leaves other types to smooth scaling", async () => {
    const base = { ...card(new Date(Date.now() + 60_000).toISOString()), image_cid: "bafkreipixel" };
    await show({ ...base, category: "Pixel Art" });
    expect(picture().style.imageRendering).toBe("pixelated");
    cleanup();
    await show({ ...base, category: "Painting" });
    expect(picture().style.imageRendering).toBe("");
    cleanup();
    await show({ ...base, category: null });
    expect(picture().style.imageRendering).toBe("");
  });
});
