import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, LOCAL_CONFIG, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { COLLECTION, CREATOR, itemFixture } from "../../../test/items.ts";
import { FIXED_PRICE_TEXT } from "./FixedPriceScreens.tsx";
import { PAUSED_CONDITION, SIGNED_LISTING_TEXT, signedListingState } from "./SignedListingsPanel.tsx";

const MARKET = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const WITH_MARKET = { ...LOCAL_CONFIG, contracts: { market: MARKET } };
const ITEM_PATH = `${CREATOR}/Studio%20Works/42`;

const order = (tokenId: string, price: string) => ({
  collection: COLLECTION,
  tokenId,
  price,
  seller: CREATOR,
  transferCount: "1",
  counter: "0",
  expiresAt: "1900000000",
});

describe("a paused signed listing on Manage", () => {
  it("says in words when the chain can still fill it, and offers its on-chain cancel", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(CREATOR) }),
      "GET /api/nft": () => ({ body: { data: itemFixture() } }),
      "GET /api/signed-listings/mine": () => ({
        body: {
          counter: "0",
          data: [
            {
              id: "9",
              status: "paused",
              pausedReason: "notApproved",
              createdAt: "2026-11-20T00:00:00.000Z",
              name: "Harbour at Dawn",
              path: `/${CREATOR}/Studio Works/42`,
              order: order("42", "700000000000000000"),
            },
          ],
        },
      }),
    });
    await renderApp({ path: `/FixedPrice/manage/${ITEM_PATH}`, config: WITH_MARKET });
    // The item shows no listing (the order is off the book), yet Manage keeps it in view.
    expect(await screen.findByText(FIXED_PRICE_TEXT.notListed)).toBeTruthy();
    const panel = await screen.findByRole("region", { name: SIGNED_LISTING_TEXT.hiddenTitle });
    expect(
      within(panel).getByText(
        "0.7 ETH · Not shown on Easel while the market refuses it, but it can still be filled on chain if you approve the market again for this collection; cancel on chain to end it",
      ),
    ).toBeTruthy();
    const cancel = within(panel).getByRole("button", { name: "Cancel on chain: Harbour at Dawn" });
    expect((cancel as HTMLButtonElement).disabled).toBe(false);
    // The spec's question comes first (C38): keeping it sends nothing and brings the button back.
    fireEvent.click(cancel);
    const question = within(panel).getByRole("alertdialog", { name: "Cancel on chain: Harbour at Dawn" });
    expect(within(question).getByText(SIGNED_LISTING_TEXT.cancelOneQuestion)).toBeTruthy();
    fireEvent.click(within(question).getByRole("button", { name: "Keep it in market" }));
    expect(within(panel).queryByRole("alertdialog")).toBeNull();
    expect(within(panel).getByRole("button", { name: "Cancel on chain: Harbour at Dawn" })).toBeTruthy();
  });

  it("names the condition of every reason, and keeps shown and hidden orders' words", () => {
    for (const [reason, condition] of Object.entries(PAUSED_CONDITION)) {
      const text = signedListingState({ status: "paused", pausedReason: reason as never });
      expect(text).toContain(`can still be filled on chain ${condition}; cancel on chain to end it`);
    }
    expect(signedListingState({ status: "active", pausedReason: null })).toBe(SIGNED_LISTING_TEXT.shown);
    expect(signedListingState({ status: "hidden", pausedReason: null })).toBe(SIGNED_LISTING_TEXT.hidden);
  });
});
