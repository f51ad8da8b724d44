import { fireEvent, screen } from "@testing-library/react";
import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { fakeApi, LOCAL_CONFIG, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { CREATOR, itemFixture } from "../../../test/items.ts";

const BIDDER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const MARKET = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";

/** A reserve auction at 1 ETH with no bid yet, opened by someone who may bid. */
async function openBidForm() {
  const reserve = parseEther("1").toString();
  fakeApi({
    ...sessionRoute({ current: signedIn(BIDDER) }),
    "GET /api/nft": () => ({
      body: {
        data: itemFixture({
          status: "auction",
          auction: {
            kind: "reserve",
            seller: CREATOR,
            basePriceWei: reserve,
            topBidWei: null,
            topBidder: null,
            topBidderPerson: null,
            startTime: null,
            endTime: null,
            minBidWei: reserve,
          },
        }),
      },
    }),
  });
  await renderApp({
    path: `/Auction/placeBidReservedAuction/${CREATOR}/Studio%20Works/42`,
    config: { ...LOCAL_CONFIG, contracts: { market: MARKET } },
  });
  await screen.findByRole("heading", { level: 1, name: "Place a Bid in a Reserved Auction" });
}

describe("Place a Bid", () => {
  it("says the minimum bid in the spec's words", async () => {
    await openBidForm();
    expect(screen.getAllByText("You must bid at least 1.000 ETH")).toHaveLength(1);
  });

  it("says the minimum once when it refuses a bid below it: as the error, not again as the hint", async () => {
    await openBidForm();
    fireEvent.change(screen.getByLabelText("Your bid"), { target: { value: "0.5" } });
    fireEvent.click(screen.getByRole("button", { name: "Place a Bid" }));
    const error = await screen.findByText("You must bid at least 1.000 ETH");
    expect(error.id).toMatch(/-error$/);
    expect(screen.getAllByText("You must bid at least 1.000 ETH")).toHaveLength(1);
    expect(screen.getByLabelText("Your bid").getAttribute("aria-invalid")).toBe("true");
  });

  it("keeps the minimum as the hint when the bid is refused for another reason", async () => {
    await openBidForm();
    fireEvent.change(screen.getByLabelText("Your bid"), { target: { value: "abc" } });
    fireEvent.click(screen.getByRole("button", { name: "Place a Bid" }));
    expect(await screen.findByText("You must bid at least 1.000 ETH")).toBeTruthy();
    expect(screen.getByLabelText("Your bid").getAttribute("aria-invalid")).toBe("true");
  });
});
