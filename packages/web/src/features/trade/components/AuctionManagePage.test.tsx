import { fireEvent, screen, within } from "@testing-library/react";
import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { fakeApi, LOCAL_CONFIG, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { CREATOR, itemFixture } from "../../../test/items.ts";
import { AUCTION_TEXT } from "./auctionText.ts";

const MARKET = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";

/** The seller's manage page of an auction without a bid yet. */
async function openManage(kind: "reserve" | "standard") {
  const base = parseEther("1").toString();
  fakeApi({
    ...sessionRoute({ current: signedIn(CREATOR) }),
    "GET /api/nft": () => ({
      body: {
        data: itemFixture({
          status: "auction",
          auction: {
            kind,
            seller: CREATOR,
            basePriceWei: base,
            topBidWei: null,
            topBidder: null,
            topBidderPerson: null,
            startTime: kind === "reserve" ? null : "2026-11-01T00:00:00.000Z",
            endTime: kind === "reserve" ? null : "2036-11-01T00:00:00.000Z",
            minBidWei: base,
          },
        }),
      },
    }),
  });
  await renderApp({
    path: `/Auction/${kind === "reserve" ? "manageReserved" : "manage"}/${CREATOR}/Studio%20Works/42`,
    config: { ...LOCAL_CONFIG, contracts: { market: MARKET } },
  });
}

describe("Manage an auction: the question before cancelling", () => {
  it.each([
    ["reserve", "Manage Reserved Auction", "Cancel Auction"],
    ["standard", "Manage Standard Auction", "Cancel auction"],
  ] as const)(
    "a %s auction asks 'Are you going to cancel your auction?' with Yes / 'Keep it in market'",
    async (kind, title, button) => {
      await openManage(kind);
      await screen.findByRole("heading", { level: 1, name: title });
      fireEvent.click(screen.getByRole("button", { name: button }));
      // Nothing is sent on the first press: the question takes the button's place.
      const question = screen.getByRole("alertdialog", { name: button });
      expect(within(question).getByText(AUCTION_TEXT.cancelQuestion)).toBeTruthy();
      expect(AUCTION_TEXT.cancelQuestion).toBe("Are you going to cancel your auction?");
      expect(within(question).getByRole("button", { name: "Yes" })).toBeTruthy();
      expect(screen.queryByRole("button", { name: button })).toBeNull();
      fireEvent.click(within(question).getByRole("button", { name: "Keep it in market" }));
      expect(screen.queryByRole("alertdialog")).toBeNull();
      expect(screen.getByRole("button", { name: button })).toBeTruthy();
      expect(screen.queryByText(AUCTION_TEXT.cancelled)).toBeNull();
    },
  );
});
