import type { WatchedItem } from "@easel/common";
import { fireEvent, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderApp, SIGNED_OUT, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { EMPTY_WATCHLIST } from "./WatchlistPanel.tsx";

const BOB = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const HARBOUR = "0x5fbdb2315678afecb367f032d93f642f64180aa3";

function watched(tokenId: string, overrides: Partial<WatchedItem> = {}): WatchedItem {
  return {
    _id: `${HARBOUR}:${tokenId}`,
    collection: { address: HARBOUR, name: "Harbour Lights", kind: "standard" },
    tokenId,
    name: `Harbour Lights #${tokenId}`,
    creator: BOB,
    owner: BOB,
    status: "minted",
    image_cid: null,
    category: null,
    royaltyBps: 1000,
    collaborators: [],
    price: null,
    priceWei: null,
    lastPriceWei: null,
    creatorData: null,
    collaboratorsData: [],
    auctionKind: null,
    endTime: null,
    offerWei: null,
    favorites: 1,
    views: 0,
    isFavorite: true,
    blocked: false,
    favoritedAt: "2026-11-20T10:00:00.000Z",
    soldAt: null,
    topBidWei: null,
    ...overrides,
  };
}

function profileBody(isOwner: boolean) {
  return {
    data: {
      user: {
        _id: "b1",
        address: BOB,
        name: "Bob Ross",
        username: "bob",
        ens: null,
        bio: null,
        avatar: null,
        banner: null,
        email: null,
        social: {},
        active: true,
        time_update: "2023-03-01T00:00:00.000Z",
      },
      isOwner,
      isFollowing: false,
      verifiedArtist: false,
      profileOwner: { _id: "b1", address: BOB, username: "bob", name: "Bob Ross", avatar: null },
      followers: [],
      following: [],
      followersCount: 0,
      followingCount: 0,
      created: [],
      collection: [],
      collected: [],
      split: [],
    },
  };
}

/** A stand-in EventSource: the test reads which stream the page opened and feeds it. */
class FakeSource {
  static last: FakeSource | null = null;
  listeners = new Map<string, ((event: Event) => void)[]>();
  constructor(readonly url: string) {
    FakeSource.last = this;
  }
  addEventListener(type: string, listener: (event: Event) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  dispatch(type: string, data?: unknown) {
    const event = Object.assign(new Event(type), data === undefined ? {} : { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  close() {}
}

describe("the Favourites tab", () => {
  beforeEach(() => vi.stubGlobal("EventSource", FakeSource));
  afterEach(() => vi.unstubAllGlobals());

  it("lists the owner's favourited items with where each stands, and refreshes on their account's batches", async () => {
    let answers = 0;
    fakeApi({
      ...sessionRoute({ current: signedIn(BOB) }),
      "GET /api/profile": () => ({ body: profileBody(true) }),
      "GET /api/watchlist": () => {
        answers += 1;
        const items = [
          watched("1", { status: "fix", price: "0.8", priceWei: "800000000000000000" }),
          watched("2", {
            status: "auction",
            auctionKind: "standard",
            price: "1.2",
            priceWei: "1200000000000000000",
            endTime: new Date(Date.now() + 30 * 60_000).toISOString(),
            topBidWei: answers > 1 ? "1500000000000000000" : "1200000000000000000",
          }),
          watched("3", { soldAt: "2026-11-21T12:00:00.000Z", lastPriceWei: "500000000000000000" }),
          watched("4"),
        ];
        return { body: { data: { items, total: items.length, nextCursor: null } } };
      },
    });
    await renderApp({ path: "/profile" });
    const tab = await screen.findByRole("tab", { name: /Favourites 4/ });
    fireEvent.click(tab);
    const list = await screen.findByRole("list", { name: "Favourited items" });
    const states = within(list)
      .getAllByTestId("watch-state")
      .map((s) => s.textContent);
    expect(states).toEqual([
      "For sale at 0.8 ETH",
      "At auction · top bid 1.2 ETH",
      "Sold 11/21/2026 for 0.5 ETH",
      "Not for sale",
    ]);
    expect(within(list).getByText(/^Ends in 0d 0h 2\dm/)).toBeTruthy();
    // A batch that alerted this member names their account: the list refreshes.
    const stream = FakeSource.last as FakeSource;
    expect(stream.url).toContain(`account=${BOB}`);
    stream.dispatch("chain", { from: "9", to: "9", accounts: [BOB] });
    expect(await screen.findByText("At auction · top bid 1.5 ETH")).toBeTruthy();
  });

  it("invites an owner without favourites to explore", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(BOB) }),
      "GET /api/profile": () => ({ body: profileBody(true) }),
      "GET /api/watchlist": () => ({ body: { data: { items: [], total: 0, nextCursor: null } } }),
    });
    await renderApp({ path: "/profile" });
    fireEvent.click(await screen.findByRole("tab", { name: /Favourites 0/ }));
    expect(await screen.findByText(EMPTY_WATCHLIST)).toBeTruthy();
  });

  it("is the owner's alone", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/profile": () => ({ body: profileBody(false) }),
    });
    await renderApp({ path: "/profile/bob" });
    await screen.findByRole("tab", { name: /Created/ });
    expect(screen.queryByRole("tab", { name: /Favourites/ })).toBeNull();
  });
});
