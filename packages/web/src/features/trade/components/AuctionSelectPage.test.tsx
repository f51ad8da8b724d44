import type { ItemResponse } from "@easel/common";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { CREATOR, itemFixture, listedFixture } from "../../../test/items.ts";
import { AUCTION_TEXT } from "./auctionText.ts";

const STRANGER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const PATH = `/Auction/select/${CREATOR}/Studio%20Works/42`;

async function openChooser(data: ItemResponse["data"], viewer: string) {
  fakeApi({
    ...sessionRoute({ current: signedIn(viewer) }),
    "GET /api/nft": () => ({ body: { data } }),
  });
  await renderApp({ path: PATH });
  await screen.findByRole("heading", { level: 1, name: "Select the Auction Type" });
}

const link = (name: string) => screen.queryByRole("link", { name: new RegExp(`^${name}`) });

describe("Select the Auction Type", () => {
  it("offers the owner both kinds when the item allows both, and the way to read about them", async () => {
    await openChooser(itemFixture(), CREATOR);
    expect(link("Standard Auction")?.getAttribute("href")).toBe(
      `/Auction/setStandard/${CREATOR}/Studio%20Works/42`,
    );
    expect(link("Reserved Auction")?.getAttribute("href")).toBe(
      `/Auction/setReserved/${CREATOR}/Studio%20Works/42`,
    );
    expect(
      screen.getByText("You set the starting price, starting time, and ending time of the auction."),
    ).toBeTruthy();
    expect(link("Read more about auction types")?.getAttribute("href")).toBe("/FAQ#faq-practical");
  });

  it("offers only the kinds the item's permission flags allow", async () => {
    await openChooser(itemFixture({}, { permisionNft: { auction: false, reserve: true } }), CREATOR);
    expect(link("Reserved Auction")).toBeTruthy();
    expect(link("Standard Auction")).toBeNull();
  });

  it("says so when the item allows no auction at all", async () => {
    await openChooser(itemFixture({}, { permisionNft: { auction: false, reserve: false } }), CREATOR);
    expect(screen.getByText(AUCTION_TEXT.noAuctionKind)).toBeTruthy();
    expect(link("Reserved Auction")).toBeNull();
  });

  it("offers its owner no second auction of an item already in one, and says so", async () => {
    await openChooser(itemFixture({ status: "auction" }), CREATOR);
    expect(screen.getByText(AUCTION_TEXT.alreadyInAuction)).toBeTruthy();
    expect(link("Standard Auction")).toBeNull();
    expect(link("Reserved Auction")).toBeNull();
  });

  it("tells the owner of a listed item to unlist it first, with the way to, and offers no kind", async () => {
    await openChooser(listedFixture(), CREATOR);
    expect(screen.getByText(new RegExp(AUCTION_TEXT.listed))).toBeTruthy();
    expect(screen.queryByText(AUCTION_TEXT.notOwner)).toBeNull();
    expect(link("Manage listing")?.getAttribute("href")).toBe(
      `/FixedPrice/manage/${CREATOR}/Studio%20Works/42`,
    );
    expect(link("Standard Auction")).toBeNull();
    expect(link("Reserved Auction")).toBeNull();
  });

  it("offers nothing to someone who does not own the item", async () => {
    await openChooser(itemFixture(), STRANGER);
    expect(screen.getByText(AUCTION_TEXT.notOwner)).toBeTruthy();
    expect(link("Standard Auction")).toBeNull();
  });
});
