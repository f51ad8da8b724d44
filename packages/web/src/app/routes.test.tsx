import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SESSION_QUERY_KEY } from "../auth/session.ts";
import { ALICE, fakeApi, renderApp, SIGNED_OUT, sessionRoute, signedIn } from "../test/harness.tsx";
import { COLLECTION, CREATOR, itemFixture } from "../test/items.ts";

describe("route table", () => {
  it("shows the not-found page with a 'Back to Homepage' link for an unknown path", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/this/path/does/not/exist" });
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    const link = screen.getByRole("link", { name: "Back to Homepage" });
    expect(link.getAttribute("href")).toBe("/");
  });

  it.each([
    ["/0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc/42", "Field Notes"],
    ["/0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc/Studio%20Works/42", "Harbour at Dawn"],
    // Two-part URLs that name no item (the API answers 404) are not found, like any unknown page.
    ["/foo/bar", "Page not found"],
    ["/artist/my-collection/42", "Page not found"],
    // The API answers 404 for every call here: the collection page says so.
    ["/collection/abc", "Collection not found"],
    ["/TermsOfServices", "Terms of Service"],
  ])("routes %s to the %s page", async (path, title) => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/nft": (_init, url) => {
        if (url.searchParams.get("creator") !== CREATOR || url.searchParams.get("tokenId") !== "42")
          return undefined;
        const collection = url.searchParams.get("collection");
        if (collection === "Studio Works") return { body: { data: itemFixture() } };
        if (collection === null)
          return {
            body: {
              data: itemFixture(
                { name: "Field Notes", category: "" },
                {
                  nftCollection: {
                    name: "Easel",
                    contract_address: COLLECTION,
                    kind: "default",
                    slug: COLLECTION,
                    logo: null,
                  },
                },
              ),
            },
          };
        return undefined;
      },
    });
    await renderApp({ path });
    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeTruthy();
  });

  it.each([
    [`/FixedPrice/set/${CREATOR}/Studio%20Works/42`, "Set a Fixed Price"],
    [`/FixedPrice/buy/${CREATOR}/Studio%20Works/42`, "Buy Now"],
    [`/FixedPrice/manage/${CREATOR}/Studio%20Works/42`, "Manage your listing"],
    [`/offer/${CREATOR}/Studio%20Works/42`, "Make an Offer"],
    [`/acceptOffer/${CREATOR}/Studio%20Works/42`, "Accept Offer"],
    [`/lazyMint/buy/${CREATOR}/Studio%20Works/42`, "Lazy Mint and Buy"],
    [`/lazyMint/changePrice/${CREATOR}/Studio%20Works/42`, "Edit Minting Price"],
    // Items the API does not know are not found.
    ["/FixedPrice/buy/artist/1", "Page not found"],
    ["/lazyMint/changePrice/artist/col/abc", "Page not found"],
    [`/Auction/select/${CREATOR}/Studio%20Works/42`, "Select the Auction Type"],
    [`/Auction/setStandard/${CREATOR}/Studio%20Works/42`, "Set Standard Auction"],
    [`/Auction/setReserved/${CREATOR}/Studio%20Works/42`, "Set Reserved Auction"],
    [`/Auction/placeBid/${CREATOR}/Studio%20Works/42`, "Place a Bid"],
    [`/Auction/placeBidReservedAuction/${CREATOR}/Studio%20Works/42`, "Place a Bid in a Reserved Auction"],
    [`/Auction/manage/${CREATOR}/Studio%20Works/42`, "Manage Standard Auction"],
    [`/Auction/manageReserved/${CREATOR}/Studio%20Works/42`, "Manage Reserved Auction"],
    [`/Auction/settle/${CREATOR}/Studio%20Works/42`, "Settle auction"],
    // The spec's unfinished stub is the bid page.
    [`/auction/buyStandard/${CREATOR}/Studio%20Works/42`, "Place a Bid"],
  ])("routes the trading page %s (signed in)", async (path, title) => {
    fakeApi({
      ...sessionRoute({ current: signedIn() }),
      "GET /api/nft": (_init, url) =>
        url.searchParams.get("creator") === CREATOR ? { body: { data: itemFixture() } } : undefined,
    });
    await renderApp({ path });
    expect(await screen.findByRole("heading", { level: 1, name: title })).toBeTruthy();
  });

  it("leads /buyInAuction to the marketplace filtered to live auctions, not to the not-found page", async () => {
    const api = fakeApi(sessionRoute({ current: SIGNED_OUT }));
    const { router } = await renderApp({ path: "/buyInAuction" });
    expect(await screen.findByRole("heading", { level: 1, name: "Marketplace" })).toBeTruthy();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      "/ExploreNFTs?status=liveAuction",
    );
    expect(screen.queryByRole("heading", { name: "Page not found" })).toBeNull();
    // The marketplace asks the API for live auctions only.
    await waitFor(() =>
      expect(
        api.fetchMock.mock.calls.some(([url]) => /\/api\/explore\?.*status=liveAuction/.test(String(url))),
      ).toBe(true),
    );
  });

  it("hides the header on edit pages", async () => {
    fakeApi(sessionRoute({ current: signedIn() }));
    await renderApp({ path: "/profile/edit/alice" });
    expect(await screen.findByRole("heading", { level: 1, name: "Edit Profile" })).toBeTruthy();
    expect(screen.queryByRole("banner")).toBeNull();
  });

  it("asks a signed-out visitor to connect on a signed-in-only route", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/mint" });
    expect(await screen.findByRole("heading", { name: "Connect your wallet" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Create NFT" })).toBeNull();
  });

  it("shows /banned to suspended accounts only; others are sent home", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(undefined, {}, false) }),
      "GET /api/profile/open-orders": () => ({ body: { data: { listings: [], auctions: [], offers: [] } } }),
    });
    await renderApp({ path: "/banned" });
    expect(
      await screen.findByRole("heading", { level: 1, name: "Your account has been disabled" }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Cancel listing & offers" }));
    expect(await screen.findByRole("heading", { name: "Your Offers" })).toBeTruthy();
    expect(screen.getByText("You have no live offers.")).toBeTruthy();
    expect(screen.getByText("You have no active listings or auctions without bids.")).toBeTruthy();

    fakeApi(sessionRoute({ current: signedIn() }));
    const { router } = await renderApp({ path: "/banned" });
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("asks a visitor on /banned to connect their wallet, and shows the notice once a suspended member signs in", async () => {
    const state = { current: SIGNED_OUT };
    fakeApi({
      ...sessionRoute(state),
      "GET /api/profile/open-orders": () => ({ body: { data: { listings: [], auctions: [], offers: [] } } }),
    });
    const { router, queryClient } = await renderApp({ path: "/banned" });
    expect(await screen.findByRole("heading", { level: 1, name: "Connect your wallet" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Connect your wallet" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/banned");

    state.current = signedIn(undefined, {}, false);
    await queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    expect(
      await screen.findByRole("heading", { level: 1, name: "Your account has been disabled" }),
    ).toBeTruthy();
  });

  it("sends a suspended member from a member's page or a trading page to the banned notice, without 'you are not registered!'", async () => {
    for (const path of ["/mint", `/offer/${ALICE}/Studio%20Works/42`, `/Auction/placeBid/${ALICE}/7`]) {
      fakeApi({
        ...sessionRoute({ current: signedIn(undefined, {}, false) }),
        "GET /api/profile/open-orders": () => ({
          body: { data: { listings: [], auctions: [], offers: [] } },
        }),
      });
      const { router, unmount } = await renderApp({ path });
      expect(
        await screen.findByRole("heading", { level: 1, name: "Your account has been disabled" }),
      ).toBeTruthy();
      expect(router.state.location.pathname).toBe("/banned");
      expect(screen.queryByText("you are not registered!")).toBeNull();
      unmount();
    }
  });

  it("redirects a session without a profile to / with 'you are not registered!'", async () => {
    fakeApi(sessionRoute({ current: signedIn(undefined, { profile: null }) }));
    const { router } = await renderApp({ path: "/mint" });
    expect(await screen.findByText("you are not registered!")).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("lets an active profile reach /mint", async () => {
    fakeApi(sessionRoute({ current: signedIn() }));
    await renderApp({ path: "/mint" });
    expect(await screen.findByRole("heading", { level: 1, name: "Create NFT" })).toBeTruthy();
  });

  it("has the footer's links, four social links and the copyright", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/" });
    const footer = await screen.findByRole("contentinfo");
    for (const name of ["FAQs", "Contact", "Help Center", "About", "Privacy", "Terms of Service"]) {
      expect(within(footer).getByRole("link", { name })).toBeTruthy();
    }
    const social = within(footer).getByRole("list", { name: "Easel on social networks" });
    expect(within(social).getAllByRole("link")).toHaveLength(4);
    expect(
      within(footer).getByText(`© ${new Date().getFullYear()} Easel. All rights reserved.`),
    ).toBeTruthy();
    // Help Center and FAQs are two pages.
    expect(within(footer).getByRole("link", { name: "Help Center" }).getAttribute("href")).toBe("/help");
    expect(within(footer).getByRole("link", { name: "FAQs" }).getAttribute("href")).toBe("/FAQ");
  });

  it("has the header's search box, Marketplace and Collection links and Connect Wallet", async () => {
    fakeApi(sessionRoute({ current: SIGNED_OUT }));
    await renderApp({ path: "/" });
    const header = await screen.findByRole("banner");
    expect(within(header).getByPlaceholderText("Search items, collections and profiles")).toBeTruthy();
    expect(within(header).getByRole("link", { name: "Marketplace" }).getAttribute("href")).toBe(
      "/ExploreNFTs",
    );
    expect(within(header).getByRole("link", { name: "Collection" }).getAttribute("href")).toBe(
      "/ExploreCollection",
    );
    expect(within(header).getByRole("button", { name: "Connect Wallet" })).toBeTruthy();
    expect(within(header).queryByRole("link", { name: "Create" })).toBeNull();
  });
});
