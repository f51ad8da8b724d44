import type { ItemResponse } from "@easel/common";
import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { SIGNED_OUT } from "../../../auth/session.ts";
import { fakeApi, renderApp, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { COLLECTION, CREATOR, itemFixture, listedFixture } from "../../../test/items.ts";
import { ITEM_ACTION_TEXT } from "./ItemActions.tsx";
import { ITEM_TX_TEXT } from "./ItemTransactions.tsx";

const STRANGER = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";
const PATH = `/${CREATOR}/Studio%20Works/42`;

async function openItem(data: ItemResponse["data"], viewer: string | null) {
  const api = fakeApi({
    ...sessionRoute({ current: viewer ? signedIn(viewer) : SIGNED_OUT }),
    "GET /api/nft": () => ({ body: { data } }),
    "POST /api/nft/view": () => ({ body: { data: { counted: true, views: 1 } } }),
  });
  await renderApp({ path: PATH });
  await screen.findByRole("heading", { level: 1, name: data.nft.name });
  return api;
}

async function menuEntries(): Promise<string[]> {
  fireEvent.keyDown(screen.getByRole("button", { name: "More" }), { key: "Enter" });
  const menu = await screen.findByRole("menu");
  return within(menu)
    .getAllByRole("menuitem")
    .map((item) => item.textContent ?? "");
}

const link = (name: string) => screen.getByRole("link", { name }).getAttribute("href");

describe("the item page", () => {
  it("draws the description, price history and activity after the rest, and counts one view once drawn", async () => {
    const api = await openItem(itemFixture(), STRANGER);
    expect(await screen.findByRole("heading", { level: 2, name: "Description" })).toBeTruthy();
    expect(screen.getByText("Oil on canvas.")).toBeTruthy();
    expect(screen.getByRole("heading", { level: 2, name: "Price history" })).toBeTruthy();
    expect(screen.getByRole("heading", { level: 2, name: "Activity" })).toBeTruthy();
    await vi.waitFor(() =>
      expect(api.calls.filter((call) => call.path === "/api/nft/view").map((call) => call.method)).toEqual([
        "POST",
      ]),
    );
  });

  it("counts no view of a lazy item: it is not on chain yet", async () => {
    const api = await openItem(
      itemFixture({ status: "lazy", lazy: true, owner: null, priceWei: "250000000000000000" }),
      STRANGER,
    );
    expect(await screen.findByRole("heading", { level: 2, name: "Description" })).toBeTruthy();
    // An idle moment has passed (the count waits for one).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.calls.some((call) => call.path === "/api/nft/view")).toBe(false);
  });

  it("offers a minted item's owner Transfer, Report and Burn, and the ways to sell it", async () => {
    await openItem(itemFixture(), CREATOR);
    expect(await menuEntries()).toEqual(["Transfer", "Report", "Burn"]);
    expect(link("Set a Fixed Price")).toBe(`/FixedPrice/set/${CREATOR}/Studio%20Works/42`);
    expect(link("Start an Auction")).toBe(`/Auction/select/${CREATOR}/Studio%20Works/42`);
  });

  it("offers others Report only, and an offer", async () => {
    await openItem(itemFixture(), STRANGER);
    expect(await menuEntries()).toEqual(["Report"]);
    expect(link("Make an Offer")).toBe(`/offer/${CREATOR}/Studio%20Works/42`);
  });

  it("offers a lazy item's creator Report only and the price edit", async () => {
    const lazy = itemFixture({ status: "lazy", lazy: true, owner: null, priceWei: "250000000000000000" });
    await openItem(lazy, CREATOR);
    expect(link("Edit Minting Price")).toBe(`/lazyMint/changePrice/${CREATOR}/Studio%20Works/42`);
    expect(await menuEntries()).toEqual(["Report"]);
    fireEvent.click(screen.getByRole("menuitem", { name: "Report" }));
    expect(await screen.findByRole("dialog", { name: "Report an Issue" })).toBeTruthy();
  });

  it("shows a lazy item's price, the mint for buyers, and why it cannot be transferred yet", async () => {
    await openItem(
      itemFixture({ status: "lazy", lazy: true, owner: null, priceWei: "250000000000000000" }),
      STRANGER,
    );
    expect(screen.getByText("0.25 ETH")).toBeTruthy();
    expect(link("Mint and Buy")).toBe(`/lazyMint/buy/${CREATOR}/Studio%20Works/42`);
    expect(await menuEntries()).toEqual(["Transfer", "Report"]);
    fireEvent.click(screen.getByRole("menuitem", { name: "Transfer" }));
    expect(await screen.findByText(ITEM_TX_TEXT.notMinted)).toBeTruthy();
  });

  it("shows a banned seller's listing as not for sale, with no price and the reason in words", async () => {
    const listing = {
      kind: "chain" as const,
      signedId: null,
      priceWei: "500000000000000000",
      seller: CREATOR,
      expiresAt: "2036-03-01T00:00:00.000Z",
    };
    const listed = { status: "fix", priceWei: listing.priceWei, listing };
    await openItem(itemFixture({ ...listed, sellerBanned: true }), STRANGER);
    const sale = screen.getByRole("region", { name: "Not for sale" });
    expect(within(sale).getByText(ITEM_ACTION_TEXT.sellerBanned)).toBeTruthy();
    expect(screen.queryByText("0.5 ETH")).toBeNull();
    expect(screen.queryByRole("link", { name: "Buy Now" })).toBeNull();
    expect(screen.queryByRole("link", { name: "Make an Offer" })).toBeNull();
  });

  it("shows the same listing with its price and Buy Now when its seller is not banned", async () => {
    const listing = {
      kind: "chain" as const,
      signedId: null,
      priceWei: "500000000000000000",
      seller: CREATOR,
      expiresAt: "2036-03-01T00:00:00.000Z",
    };
    await openItem(
      itemFixture({ status: "fix", priceWei: listing.priceWei, listing, sellerBanned: false }),
      STRANGER,
    );
    expect(screen.getByText("0.5 ETH")).toBeTruthy();
    expect(link("Buy Now")).toBe(`/FixedPrice/buy/${CREATOR}/Studio%20Works/42`);
    expect(screen.queryByText(ITEM_ACTION_TEXT.sellerBanned)).toBeNull();
  });

  it("shows an auction's actions on the chain's clock, loaded beside the page", async () => {
    const end = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const inAuction = itemFixture({
      status: "auction",
      priceWei: "1000000000000000000",
      auction: {
        kind: "standard",
        seller: CREATOR,
        basePriceWei: "1000000000000000000",
        topBidWei: null,
        topBidder: null,
        topBidderPerson: null,
        startTime: new Date(Date.now() - 60_000).toISOString(),
        endTime: end,
        minBidWei: "1000000000000000000",
      },
    });
    await openItem(inAuction, STRANGER);
    expect(await screen.findByRole("link", { name: "Place a Bid" })).toBeTruthy();
    expect(screen.getByText(/^Ends in 2d 23h/)).toBeTruthy();
  });

  describe("an item in an auction, which stays in its owner's wallet, locked", () => {
    const OFFERER = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
    const auctioned = (details = true) =>
      itemFixture({
        status: "auction",
        priceWei: "1000000000000000000",
        auction: details
          ? {
              kind: "standard",
              seller: CREATOR,
              basePriceWei: "1000000000000000000",
              topBidWei: null,
              topBidder: null,
              topBidderPerson: null,
              startTime: new Date(Date.now() - 60_000).toISOString(),
              endTime: new Date(Date.now() + 3 * 86_400_000).toISOString(),
              minBidWei: "1000000000000000000",
            }
          : null,
        // Made before the auction: it stays, but cannot be accepted meanwhile.
        offers: [
          {
            address: OFFERER,
            person: { address: OFFERER, name: null, username: null, ens: null },
            priceWei: "300000000000000000",
            status: "active",
            time: "2026-11-20T00:00:00.000Z",
            expiresAt: new Date(Date.now() + 5 * 86_400_000).toISOString(),
          },
        ],
      });
    // A collection offer the work would otherwise show, with Accept for its owner.
    const bestOffer = {
      data: {
        offer: {
          offerId: `0x${"1".repeat(64)}`,
          terms: {
            buyer: OFFERER,
            collection: COLLECTION,
            tokenRoot: `0x${"0".repeat(64)}`,
            price: "200000000000000000",
            expiresAt: String(Math.floor(Date.now() / 1000) + 3 * 86_400),
          },
          buyerPerson: { address: OFFERER, name: null, username: null, ens: null },
          collectionName: "Studio Works",
          trait: null,
          quantity: 1,
          remaining: 1,
          status: "active",
          createdAt: "2026-11-20T00:00:00.000Z",
        },
        proof: [],
      },
    };

    it("offers its owner neither Transfer nor Burn, and says why where they would be", async () => {
      await openItem(auctioned(), CREATOR);
      expect(await menuEntries()).toEqual(["Transfer", "Report", "Burn"]);
      const menu = screen.getByRole("menu");
      expect(within(menu).getByText(ITEM_ACTION_TEXT.inAuction)).toBeTruthy();
      const entry = (name: string) => within(menu).getByRole("menuitem", { name });
      expect(entry("Transfer").getAttribute("aria-disabled")).toBe("true");
      expect(entry("Burn").getAttribute("aria-disabled")).toBe("true");
      expect(entry("Report").getAttribute("aria-disabled")).toBeNull();
      fireEvent.click(entry("Transfer"));
      expect(screen.queryByRole("dialog", { name: "Transfer" })).toBeNull();
    });

    it("offers its owner the auction's management only: no listing, no new auction, no offer to accept", async () => {
      const api = await openItem(auctioned(), CREATOR);
      expect(await screen.findByRole("link", { name: "Manage auction" })).toBeTruthy();
      for (const name of ["Set a Fixed Price", "Start an Auction", "Accept Offer", "Accept offer"])
        expect(screen.queryByRole("link", { name })).toBeNull();
      // The offer made before the auction is listed, with why it cannot be accepted now.
      expect(within(screen.getByRole("list", { name: "Offer" })).getByText("0.3 ETH")).toBeTruthy();
      expect(screen.getByText(ITEM_ACTION_TEXT.inAuctionOffers)).toBeTruthy();
      // Nor a collection offer: the page does not even ask for the best one.
      expect(screen.queryByRole("region", { name: "Best collection offer" })).toBeNull();
      expect(screen.queryByRole("button", { name: "Accept offer" })).toBeNull();
      expect(api.calls.some((call) => call.path === "/api/collection-offers/best")).toBe(false);
    });

    it("offers nothing to sell it while only its status says it is in an auction", async () => {
      await openItem(auctioned(false), CREATOR);
      expect(await screen.findByText(ITEM_ACTION_TEXT.inAuction)).toBeTruthy();
      for (const name of ["Set a Fixed Price", "Start an Auction", "Accept Offer"])
        expect(screen.queryByRole("link", { name })).toBeNull();
      expect(screen.getByText(ITEM_ACTION_TEXT.inAuctionOffers)).toBeTruthy();
    });

    it("leaves its owner Transfer, Burn, the ways to sell it and the collection offer once it is free", async () => {
      const api = fakeApi({
        ...sessionRoute({ current: signedIn(CREATOR) }),
        "GET /api/nft": () => ({
          body: { data: { ...auctioned(), nft: { ...auctioned().nft, status: "minted", auction: null } } },
        }),
        "POST /api/nft/view": () => ({ body: { data: { counted: true, views: 1 } } }),
        "GET /api/collection-offers/best": () => ({ body: bestOffer }),
      });
      await renderApp({ path: PATH });
      expect(await screen.findByRole("region", { name: "Best collection offer" })).toBeTruthy();
      expect(link("Set a Fixed Price")).toBe(`/FixedPrice/set/${CREATOR}/Studio%20Works/42`);
      expect(link("Accept Offer")).toBe(`/acceptOffer/${CREATOR}/Studio%20Works/42`);
      expect(screen.queryByText(ITEM_ACTION_TEXT.inAuctionOffers)).toBeNull();
      expect(await menuEntries()).toEqual(["Transfer", "Report", "Burn"]);
      expect(screen.queryByText(ITEM_ACTION_TEXT.inAuction)).toBeNull();
      for (const item of within(screen.getByRole("menu")).getAllByRole("menuitem"))
        expect(item.getAttribute("aria-disabled")).toBeNull();
      expect(api.calls.some((call) => call.path === "/api/collection-offers/best")).toBe(true);
    });
  });

  describe("an auction past its end that nobody has settled", () => {
    const BIDDER = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
    const ended = (bid: boolean) =>
      itemFixture({
        status: "auction",
        priceWei: "1200000000000000000",
        auction: {
          kind: "standard",
          seller: CREATOR,
          basePriceWei: "1000000000000000000",
          topBidWei: bid ? "1200000000000000000" : null,
          topBidder: bid ? BIDDER : null,
          topBidderPerson: bid ? { address: BIDDER, name: null, username: null, ens: null } : null,
          startTime: new Date(Date.now() - 2 * 86_400_000).toISOString(),
          // One second ago: no countdown at zero.
          endTime: new Date(Date.now() - 1_000).toISOString(),
          minBidWei: "1300000000000000000",
        },
      });
    const settleLink = `/Auction/settle/${CREATOR}/Studio%20Works/42`;

    it("says it has ended and awaits settlement, that anyone can settle, and offers Settle to anyone", async () => {
      await openItem(ended(true), STRANGER);
      expect(await screen.findByRole("link", { name: "Settle auction" })).toBeTruthy();
      expect(link("Settle auction")).toBe(settleLink);
      expect(screen.getByText("Auction ended")).toBeTruthy();
      expect(
        screen.getByText(
          "The auction has ended and awaits settlement. Anyone can settle it: the item goes to the winner (0x15…6a65) and the payment to the seller.",
        ),
      ).toBeTruthy();
      expect(screen.getByText("Winning bid")).toBeTruthy();
      expect(screen.queryByText(/Ends in/)).toBeNull();
      expect(screen.queryByRole("link", { name: "Place a Bid" })).toBeNull();
    });

    it("tells the winner and the seller it is theirs to settle too", async () => {
      await openItem(ended(true), BIDDER);
      expect(await screen.findByRole("link", { name: "Settle auction" })).toBeTruthy();
      expect(
        screen.getByText(/the item goes to the winner \(you\) and the payment to the seller\.$/),
      ).toBeTruthy();
    });

    it("offers the seller Settle, not the management of an auction that has a winner", async () => {
      await openItem(ended(true), CREATOR);
      expect(await screen.findByRole("link", { name: "Settle auction" })).toBeTruthy();
      expect(screen.getByText(/and the payment to you\.$/)).toBeTruthy();
      expect(screen.queryByRole("link", { name: "Manage auction" })).toBeNull();
    });

    it("asks a signed-out visitor to connect a wallet to act", async () => {
      await openItem(ended(true), null);
      expect(await screen.findByText(/awaits settlement/)).toBeTruthy();
      expect(screen.getByRole("button", { name: "Connect Wallet to settle" })).toBeTruthy();
    });

    it("says an auction that ended without a bid has nothing to settle; its seller may cancel it", async () => {
      await openItem(ended(false), STRANGER);
      expect(await screen.findByText("The auction ended without a bid.")).toBeTruthy();
      expect(screen.queryByRole("link", { name: "Settle auction" })).toBeNull();
      expect(screen.queryByRole("link", { name: "Place a Bid" })).toBeNull();
      expect(screen.queryByText(/Ends in/)).toBeNull();
    });

    it("lets the seller of an auction that ended without a bid cancel it", async () => {
      await openItem(ended(false), CREATOR);
      expect(await screen.findByRole("link", { name: "Manage auction" })).toBeTruthy();
      expect(
        screen.getByText("The auction ended without a bid: you can cancel it to free the item."),
      ).toBeTruthy();
    });
  });

  describe("its offers", () => {
    const OFFERER = "0x15d34aaf54267db7d7c367839aaf71a00a2c6a65";
    const withOffer = (expiresAt: string | null, status = "active") =>
      itemFixture({
        offers: [
          {
            address: OFFERER,
            person: { address: OFFERER, name: null, username: null, ens: null },
            priceWei: "300000000000000000",
            status,
            time: "2026-11-20T00:00:00.000Z",
            expiresAt,
          },
        ],
      });
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000 + 60_000).toISOString();
    const expired = () => new Date(Date.now() - 60_000).toISOString();
    const offers = () => screen.getByRole("list", { name: "Offer" });

    it("shows when a live offer expires, and the owner may accept it", async () => {
      await openItem(withOffer(inDays(3)), CREATOR);
      expect(await screen.findByText("Expires in 3d 0h")).toBeTruthy();
      expect(within(offers()).getByText("0.3 ETH")).toBeTruthy();
      expect(within(offers()).queryByText(ITEM_ACTION_TEXT.expired)).toBeNull();
      expect(link("Accept Offer")).toBe(`/acceptOffer/${CREATOR}/Studio%20Works/42`);
    });

    it("marks an expired offer Expired; the owner cannot accept it and is told why", async () => {
      await openItem(withOffer(expired()), CREATOR);
      expect(await within(offers()).findByText(ITEM_ACTION_TEXT.expired)).toBeTruthy();
      expect(screen.getByText(ITEM_ACTION_TEXT.expiredForOwner)).toBeTruthy();
      expect(screen.queryByRole("link", { name: "Accept Offer" })).toBeNull();
      expect(screen.queryByText(/Expires in/)).toBeNull();
    });

    it("tells the offerer of an expired offer to withdraw or renew it from Manage Offer", async () => {
      await openItem(withOffer(expired()), OFFERER);
      expect(await within(offers()).findByText(ITEM_ACTION_TEXT.expired)).toBeTruthy();
      expect(screen.getByText(ITEM_ACTION_TEXT.expiredForOfferer)).toBeTruthy();
      expect(link("Manage Offer")).toBe(`/offer/${CREATOR}/Studio%20Works/42`);
    });

    it("lists an offer the API calls expired as Expired, still the offerer's to manage", async () => {
      await openItem(withOffer(expired(), "expired"), OFFERER);
      expect(await within(offers()).findByText(ITEM_ACTION_TEXT.expired)).toBeTruthy();
      expect(link("Manage Offer")).toBe(`/offer/${CREATOR}/Studio%20Works/42`);
    });

    it("shows an offer made before offers expired as live, without an expiry", async () => {
      await openItem(withOffer(null), CREATOR);
      expect(within(offers()).getByText("0.3 ETH")).toBeTruthy();
      expect(screen.queryByText(/Expires in|Expired/)).toBeNull();
      expect(link("Accept Offer")).toBe(`/acceptOffer/${CREATOR}/Studio%20Works/42`);
    });
  });

  it("links a listed item to Buy Now for others", async () => {
    await openItem(listedFixture(), STRANGER);
    expect(link("Buy Now")).toBe(`/FixedPrice/buy/${CREATOR}/Studio%20Works/42`);
  });

  it("shares with Copy Link and six targets saying 'Check out this item'", async () => {
    await openItem(itemFixture(), null);
    fireEvent.keyDown(screen.getByRole("button", { name: "Share" }), { key: "Enter" });
    const menu = await screen.findByRole("menu");
    const entries = within(menu).getAllByRole("menuitem");
    expect(entries.map((e) => e.textContent)).toEqual([
      "Copy Link",
      "Share by email",
      "Share on Facebook",
      "Share on Twitter",
      "Share on LinkedIn",
      "Share on Telegram",
      "Share on WhatsApp",
    ]);
    for (const entry of entries.slice(1)) {
      expect(decodeURIComponent(entry.getAttribute("href") ?? "")).toContain(`/${CREATOR}/Studio%20Works/42`);
    }
    expect(decodeURIComponent(entries[1]?.getAttribute("href") ?? "")).toContain("Check out this item");
  });

  it("shows the creator's collaborators with their shares", async () => {
    const person = (address: string, username: string | null) => ({
      address,
      username,
      name: null,
      avatar: null,
    });
    await openItem(
      itemFixture({
        collaborators: [
          { ...person(CREATOR, "painter"), share: 70 },
          { ...person(STRANGER, "framer"), share: 30 },
        ],
      }),
      null,
    );
    const list = screen.getByRole("list", { name: "Collaborators" });
    expect(within(list).getByText("70%")).toBeTruthy();
    expect(within(list).getByText("30%")).toBeTruthy();
  });
});
