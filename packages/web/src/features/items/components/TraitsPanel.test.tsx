import type { ItemResponse, ItemTrait } from "@easel/common";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SIGNED_OUT } from "../../../auth/session.ts";
import { fakeApi, renderApp, sessionRoute } from "../../../test/harness.tsx";
import { COLLECTION, CREATOR, itemFixture } from "../../../test/items.ts";
import { rarityText } from "./TraitsPanel.tsx";

async function openItem(data: ItemResponse["data"], traits: ItemTrait[]) {
  const api = fakeApi({
    ...sessionRoute({ current: SIGNED_OUT }),
    "GET /api/nft": () => ({ body: { data } }),
    "GET /api/nft/traits": () => ({ body: { data: { traits } } }),
    "POST /api/nft/view": () => ({ body: { data: { counted: true, views: 1 } } }),
  });
  await renderApp({ path: `/${CREATOR}/Studio%20Works/42` });
  await screen.findByRole("heading", { level: 1, name: data.nft.name });
  return api;
}

describe("the item page's properties", () => {
  it("shows each name and value with how many of the collection have it, each a link to the filtered collection", async () => {
    const api = await openItem(itemFixture(), [
      { trait_type: "Mood", value: "Calm", count: 3, total: 25 },
      { trait_type: "Palette", value: "Warm & bright", count: 25, total: 25 },
    ]);
    const list = await screen.findByRole("list", { name: "Properties" });
    expect(screen.getByRole("heading", { level: 2, name: "Properties" })).toBeTruthy();
    const [mood, palette] = within(list).getAllByRole("listitem");
    expect(mood?.textContent).toBe("MoodCalm12% have this");
    expect(palette?.textContent).toBe("PaletteWarm & bright100% have this");
    expect(
      within(mood as HTMLElement)
        .getByRole("link")
        .getAttribute("href"),
    ).toBe("/collection/Studio%20Works?traitType=Mood&traitValue=Calm");
    expect(
      within(palette as HTMLElement)
        .getByRole("link")
        .getAttribute("href"),
    ).toBe("/collection/Studio%20Works?traitType=Palette&traitValue=Warm+%26+bright");
    const asked = api.fetchMock.mock.calls
      .map(([input]) => new URL(String(input), "http://localhost"))
      .find((url) => url.pathname === "/api/nft/traits");
    expect(Object.fromEntries(asked?.searchParams ?? [])).toEqual({ collection: COLLECTION, tokenId: "42" });
  });

  it("draws nothing for an item without properties", async () => {
    await openItem(itemFixture(), []);
    expect(await screen.findByRole("heading", { level: 2, name: "Description" })).toBeTruthy();
    expect(screen.queryByRole("heading", { level: 2, name: "Properties" })).toBeNull();
  });

  it("never rounds a rare value down to 0%", () => {
    expect(rarityText({ count: 1, total: 500 })).toBe("Under 1% have this");
    expect(rarityText({ count: 1, total: 3 })).toBe("33% have this");
    expect(rarityText({ count: 0, total: 0 })).toBe("");
  });
});
