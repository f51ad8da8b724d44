import type { NftCard } from "@easel/common";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SIGNED_OUT } from "../../../auth/session.ts";
import { fakeApi, renderApp, sessionRoute } from "../../../test/harness.tsx";

const OWNER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const ADDRESS = "0x00000000000000000000000000000000000c0113";

const card = (tokenId: string, name: string): NftCard => ({
  _id: `${ADDRESS}:${tokenId}`,
  collection: { address: ADDRESS, name: "Harbour Lights", kind: "standard" },
  tokenId,
  name,
  creator: OWNER,
  owner: OWNER,
  status: "minted",
  image_cid: null,
  category: "Painting",
  royaltyBps: 500,
  collaborators: [],
  price: null,
  priceWei: null,
  lastPriceWei: null,
  creatorData: null,
  collaboratorsData: [],
  auctionKind: null,
  endTime: null,
  offerWei: null,
  favorites: 0,
  views: 0,
  isFavorite: false,
  blocked: false,
});
const CARDS = [card("1", "Still Water"), card("2", "Low Tide"), card("3", "Gale")];
const CALM = new Set(["1", "2"]);

function page(url: URL) {
  const calm = url.searchParams.get("traitType") === "Mood" && url.searchParams.get("traitValue") === "Calm";
  return {
    data: {
      collection: {
        _id: ADDRESS,
        contract_address: ADDRESS,
        name: "Harbour Lights",
        slug: "Harbour Lights",
        symbol: "HRB",
        collectionType: "standard",
        logo: null,
        banner: null,
        description: null,
        category: { _id: 1, title: "Painting" },
        owner: { address: OWNER, username: "bob", name: null, avatar: null },
        time_created: "2026-01-01T00:00:00.000Z",
        blocked: false,
        favorites: 0,
        stats: {
          artworks: 3,
          owners: 1,
          floorPriceWei: null,
          highestSaleWei: null,
          totalSales: 0,
          volumeWei: "0",
        },
        social: {},
      },
      nfts: calm ? CARDS.filter((c) => CALM.has(c.tokenId)) : CARDS,
      nextCursor: null,
      isOwner: false,
      isFavorite: false,
    },
  };
}

const TRAITS = {
  data: {
    total: 3,
    traits: [
      {
        trait_type: "Mood",
        values: [
          { value: "Calm", count: 2 },
          { value: "Stormy", count: 1 },
        ],
      },
      { trait_type: "Palette", values: [{ value: "Warm", count: 1 }] },
    ],
  },
};

describe("the collection page's property filter", () => {
  it("lists trait types, then their values with counts, and narrows the grid to the value chosen", async () => {
    const api = fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/collection": (_init, url) => ({ body: page(url as URL) }),
      "GET /api/collection/traits": () => ({ body: TRAITS }),
    });
    const { router } = await renderApp({ path: "/collection/Harbour%20Lights" });
    await screen.findByText("Gale");
    const property = (await screen.findByLabelText("Property")) as HTMLSelectElement;
    expect([...property.options].map((o) => o.text)).toEqual(["All", "Mood", "Palette"]);
    expect(screen.queryByLabelText("Value")).toBeNull();

    fireEvent.change(property, { target: { value: "Mood" } });
    const value = (await screen.findByLabelText("Value")) as HTMLSelectElement;
    expect([...value.options].map((o) => o.text)).toEqual(["Choose a value", "Calm (2)", "Stormy (1)"]);
    fireEvent.change(value, { target: { value: "Calm" } });

    await waitFor(() => expect(screen.queryByText("Gale")).toBeNull());
    expect(screen.getByText("Still Water")).toBeTruthy();
    expect(screen.getByText("Low Tide")).toBeTruthy();
    expect(router.state.location.search).toBe("?traitType=Mood&traitValue=Calm");
    const asked = api.fetchMock.mock.calls
      .map(([input]) => new URL(String(input), "http://localhost"))
      .filter((url) => url.pathname === "/api/collection")
      .map((url) => url.searchParams.get("traitValue"));
    // The type alone filtered nothing; the grid was read again only with both.
    expect(asked).toEqual([null, "Calm"]);

    fireEvent.click(screen.getByRole("button", { name: "Clear property filter" }));
    expect(await screen.findByText("Gale")).toBeTruthy();
    expect(router.state.location.search).toBe("");
  });

  it("is not drawn for a collection whose items have no properties", async () => {
    const api = fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/collection": (_init, url) => ({ body: page(url as URL) }),
      "GET /api/collection/traits": () => ({ body: { data: { total: 3, traits: [] } } }),
    });
    await renderApp({ path: "/collection/Harbour%20Lights" });
    await screen.findByText("Gale");
    await waitFor(() => expect(api.calls.some((c) => c.path === "/api/collection/traits")).toBe(true));
    expect(screen.queryByLabelText("Property")).toBeNull();
  });
});
