import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { CREATOR, itemFixture, listedFixture } from "../../../test/items.ts";
import { AUCTION_TEXT } from "./auctionText.ts";

describe("Set Reserved Auction", () => {
  it("has the spec's 'Set Auction' button and success line", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/nft": () => ({ body: { data: itemFixture() } }),
    });
    await renderApp({ path: `/Auction/setReserved/${CREATOR}/Studio%20Works/42` });
    await screen.findByRole("heading", { level: 1, name: "Set Reserved Auction" });
    expect(screen.getByRole("button", { name: "Set Auction" })).toBeTruthy();
    expect(AUCTION_TEXT.reserveSet).toBe("Reserved auction was set.");
  });
  it("refuses a listed item with the reason, not an owner's refusal, and offers no form", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/nft": () => ({ body: { data: listedFixture() } }),
    });
    await renderApp({ path: `/Auction/setReserved/${CREATOR}/Studio%20Works/42` });
    expect(await screen.findByText(new RegExp(AUCTION_TEXT.listed))).toBeTruthy();
    expect(screen.queryByText(AUCTION_TEXT.notOwner)).toBeNull();
    expect(screen.queryByRole("button", { name: "Set Auction" })).toBeNull();
  });
});
