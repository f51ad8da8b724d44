import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { CREATOR, itemFixture, listedFixture } from "../../../test/items.ts";
import { standardAuctionTimes } from "./AuctionSetStandardPage.tsx";
import { AUCTION_TEXT } from "./auctionText.ts";

describe("Set Standard Auction", () => {
  it("has the spec's 'List Your NFT' button and shows each picked time as month/day/year with 12-hour time", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/nft": () => ({ body: { data: itemFixture() } }),
    });
    await renderApp({ path: `/Auction/setStandard/${CREATOR}/Studio%20Works/42` });
    await screen.findByRole("heading", { level: 1, name: "Set Standard Auction" });
    expect(screen.getByRole("button", { name: "List Your NFT" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Ending time"), { target: { value: "2026-12-24T15:30" } });
    expect(screen.getByText("12/24/2026, 3:30 PM, your time")).toBeTruthy();
  });

  it("refuses a listed item with the reason, not an owner's refusal, and offers no form", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/nft": () => ({ body: { data: listedFixture() } }),
    });
    await renderApp({ path: `/Auction/setStandard/${CREATOR}/Studio%20Works/42` });
    expect(await screen.findByText(new RegExp(AUCTION_TEXT.listed))).toBeTruthy();
    expect(screen.queryByText(AUCTION_TEXT.notOwner)).toBeNull();
    expect(screen.queryByRole("button", { name: "List Your NFT" })).toBeNull();
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
