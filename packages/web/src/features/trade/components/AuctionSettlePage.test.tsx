import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { parseEther } from "viem";
import { describe, expect, it } from "vitest";
import { AppConfigProvider } from "../../../api/appConfig.tsx";
import { fakeApi, LOCAL_CONFIG, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { CREATOR, itemFixture } from "../../../test/items.ts";
import { TradeProgress, VISIT_TEXT } from "./TradeScreen.tsx";

const MARKET = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512";
const WINNER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const COLLECTOR = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
const CO_CREATOR = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc";

/** The settle page of an ended auction won by WINNER, sold by `seller`, its royalty shared by two creators. */
async function openSettle(seller: string) {
  const person = (address: string) => ({ address, username: null, name: null, avatar: null });
  fakeApi({
    ...sessionRoute({ current: signedIn(COLLECTOR) }),
    "GET /api/nft": () => ({
      body: {
        data: itemFixture({
          status: "auction",
          owner: person(seller),
          collaborators: [
            { ...person(CREATOR), share: 50 },
            { ...person(CO_CREATOR), share: 50 },
          ],
          auction: {
            kind: "standard",
            seller,
            basePriceWei: parseEther("1").toString(),
            topBidWei: parseEther("2").toString(),
            topBidder: WINNER,
            topBidderPerson: { address: WINNER, name: null, username: null, ens: null },
            startTime: "2026-01-01T00:00:00.000Z",
            endTime: "2026-01-02T00:00:00.000Z",
            minBidWei: parseEther("2.2").toString(),
          },
        }),
      },
    }),
  });
  await renderApp({
    path: `/Auction/settle/${CREATOR}/Studio%20Works/42`,
    config: { ...LOCAL_CONFIG, contracts: { market: MARKET } },
  });
  await screen.findByRole("button", { name: "Settle" });
}

describe("Settle auction", () => {
  it("shows no royalty line on a primary sale (the creator sells: no royalty is owed)", async () => {
    await openSettle(CREATOR);
    expect(screen.getByText("Seller receives")).toBeTruthy();
    expect(screen.queryByText(/^Royalty to/)).toBeNull();
  });

  it("shows each creator's royalty on a resale", async () => {
    await openSettle(COLLECTOR);
    const lines = screen.getAllByText(/^Royalty to/);
    expect(lines.map((line) => line.textContent?.endsWith("(50%)"))).toEqual([true, true]);
    // 10% of 2 ETH, half each.
    expect(lines.map((line) => line.nextElementSibling?.textContent)).toEqual(["0.1 ETH", "0.1 ETH"]);
  });
});

describe("the success under a trading screen's steps", () => {
  const item = itemFixture();
  const show = (props: Partial<Parameters<typeof TradeProgress>[0]>) => {
    const router = createMemoryRouter([
      {
        path: "/",
        element: <TradeProgress steps={[]} label="Steps" success="Done." item={item} {...props} />,
      },
    ]);
    render(
      <AppConfigProvider config={LOCAL_CONFIG}>
        <RouterProvider router={router} />
      </AppConfigProvider>,
    );
  };

  it("says 'Congratulations!' before the line when the spec gives it, and 'Visit Your NFT'", () => {
    show({ successHeading: "Congratulations!", success: "Now you are the owner of item Harbour at Dawn" });
    const status = screen.getByRole("status");
    expect(status.textContent).toMatch(/Congratulations!Now you are the owner of item Harbour at Dawn/);
    expect(screen.getByRole("link", { name: VISIT_TEXT.yours }).getAttribute("href")).toBe(
      `/${CREATOR}/Studio%20Works/42`,
    );
  });

  it("links someone whose NFT it is not (who settled another's auction) to the item, not to 'Your NFT'", () => {
    show({ yours: false });
    expect(screen.queryByRole("link", { name: "Visit Your NFT" })).toBeNull();
    expect(screen.getByRole("link", { name: VISIT_TEXT.item }).getAttribute("href")).toBe(
      `/${CREATOR}/Studio%20Works/42`,
    );
  });
});
