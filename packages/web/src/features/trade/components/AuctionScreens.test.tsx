import type { ItemResponse } from "@easel/common";
import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { CREATOR, itemFixture } from "../../../test/items.ts";
import { AUCTION_TEXT, standardAuctionTimes } from "./AuctionScreens.tsx";

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

  it("offers nothing to someone who does not own the item", async () => {
    await openChooser(itemFixture(), STRANGER);
    expect(screen.getByText(AUCTION_TEXT.notOwner)).toBeTruthy();
    expect(link("Standard Auction")).toBeNull();
  });
});

describe("Set Standard Auction", () => {
  it("shows each picked time as month/day/year with 12-hour time", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/nft": () => ({ body: { data: itemFixture() } }),
    });
    await renderApp({ path: `/Auction/setStandard/${CREATOR}/Studio%20Works/42` });
    await screen.findByRole("heading", { level: 1, name: "Set Standard Auction" });
    fireEvent.change(screen.getByLabelText("Ending time"), { target: { value: "2026-12-24T15:30" } });
    expect(screen.getByText("12/24/2026, 3:30 PM, your time")).toBeTruthy();
  });
});

describe("a standard auction's start and end", () => {
  const opened = new Date(2026, 10, 24, 13, 16, 59).getTime();
  const times = (start: string, end: string, secondsLater: number) =>
    standardAuctionTimes({
      start,
      end,
      openedAt: "2026-11-24T13:16",
      now: opened + secondsLater * 1000,
      minDuration: 900,
    });

  it("takes the start the form opened with as now, however long the seller takes", () => {
    for (const later of [0, 1, 61, 3_600]) {
      const t = times("2026-11-24T13:16", "2026-12-01T13:16", later);
      expect([t.start, t.end, t.startsNow], `${later} s later`).toEqual([null, null, true]);
      expect(t.from).toBe(opened + later * 1000);
    }
  });

  it("refuses a start before the form opened, or more than 7 days ahead", () => {
    expect(times("2026-11-24T13:15", "2026-12-01T13:16", 0).start).toBe(AUCTION_TEXT.startRange);
    expect(times("2026-12-01T13:17", "2026-12-02T13:16", 0).start).toBe(AUCTION_TEXT.startRange);
    expect(times("2026-12-01T13:16", "2026-12-02T13:16", 0)).toMatchObject({ start: null, startsNow: false });
  });

  it("measures the length from the start, or from now once the start has passed", () => {
    expect(times("2026-11-24T13:30", "2026-11-24T13:44", 0).end).toBe(
      "The auction must last at least 15 minutes.",
    );
    expect(times("2026-11-24T13:30", "2026-11-24T13:45", 0).end).toBeNull();
    // Opened at 13:16:59 with an end at 13:32: 15 minutes only while the form was just opened.
    expect(times("2026-11-24T13:16", "2026-11-24T13:32", 0).end).toBeNull();
    expect(times("2026-11-24T13:16", "2026-11-24T13:32", 60).end).toBe(
      "The auction must last at least 15 minutes.",
    );
    expect(times("2026-11-24T13:16", "2026-12-08T13:17", 0).end).toBe(AUCTION_TEXT.endRange);
  });
});
