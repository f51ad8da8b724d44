import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { describe, expect, it } from "vitest";
import { fakeApi } from "../../../test/harness.tsx";
import { AuctionsPanels, OffersPanels } from "./HistoryPanels.tsx";

function renderWithin(element: React.ReactNode) {
  const router = createMemoryRouter([{ path: "/", element }]);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const ROW = {
  _id: "0xc0:7:0xb0",
  collection: "0x00000000000000000000000000000000000000c0",
  collectionName: "Night Studies",
  tokenId: "7",
  name: "Study #7",
  path: "/0x00000000000000000000000000000000000000a0/Night%20Studies/7",
  price: "0.25",
  priceWei: "250000000000000000",
  status: "active",
  counterparty: "0x00000000000000000000000000000000000000b0",
  kind: null,
  endTime: null,
  updatedAt: null,
};

describe("offers and auctions panels", () => {
  it("show the user's offers from the API, and the spec's empty text where there are none", async () => {
    fakeApi({ "GET /api/profile/offers": () => ({ body: { data: { made: [ROW], received: [] } } }) });
    renderWithin(<OffersPanels />);
    const made = await screen.findByRole("region", { name: "Offers you made" });
    expect(made.textContent).toContain("Study #7");
    expect(made.textContent).toContain("0.25 ETH");
    expect(made.textContent).toContain("Night Studies");
    // Each row leads to its item and to the screen that manages it.
    const item = within(made).getByRole("link", { name: "Study #7" });
    expect(item.getAttribute("href")).toBe(ROW.path);
    expect(within(made).getByRole("link", { name: "Manage Offer" }).getAttribute("href")).toBe(
      `/offer${ROW.path}`,
    );
    const received = screen.getByRole("region", { name: "Offers on your item" });
    expect(received.textContent).toContain("There is no data history");
  });

  it("show both auction panels empty when the user has none", async () => {
    fakeApi({ "GET /api/profile/auctions": () => ({ body: { data: { held: [], bidOn: [] } } }) });
    renderWithin(<AuctionsPanels />);
    expect((await screen.findByRole("region", { name: "The auctions you have held" })).textContent).toContain(
      "There is no data history",
    );
    expect(screen.getByRole("region", { name: "Auctions that you place a bid" }).textContent).toContain(
      "There is no data history",
    );
  });

  it("show the server's message when the list cannot be loaded", async () => {
    fakeApi({
      "GET /api/profile/offers": () => ({
        status: 401,
        body: { error: { code: "unauthenticated", message: "Please connect your wallet and sign in." } },
      }),
    });
    renderWithin(<OffersPanels />);
    expect(await screen.findByText("Please connect your wallet and sign in.")).toBeTruthy();
  });
});
