import type { CollectionOffer } from "@easel/common";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fakeApi, renderApp, SIGNED_OUT, sessionRoute, signedIn } from "../../../test/harness.tsx";
import { ANY_TOKEN_ROOT } from "../lib/collectionOffer.ts";
import { BestCollectionOffer } from "./BestCollectionOffer.tsx";
import { BuyerCollectionOffers } from "./BuyerCollectionOffers.tsx";

const BOB = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const TIDAL = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const FUTURE = String(Math.floor(Date.now() / 1000) + 3 * 86_400);

const offer = (overrides: Partial<CollectionOffer> = {}): CollectionOffer => ({
  offerId: `0x${"1".repeat(64)}`,
  terms: {
    buyer: BOB,
    collection: TIDAL,
    tokenRoot: `0x${"ab".repeat(32)}`,
    price: "200000000000000000",
    expiresAt: FUTURE,
  },
  buyerPerson: { address: BOB, name: "Bob Ross", username: "bob", ens: null },
  collectionName: "Tidal",
  trait: { traitType: "Mood", traitValue: "Calm" },
  quantity: 2,
  remaining: 1,
  status: "active",
  createdAt: "2033-01-01T00:00:00.000Z",
  ...overrides,
});

describe("a buyer's collection offers on their profile", () => {
  const offers = [
    offer(),
    offer({
      offerId: `0x${"2".repeat(64)}`,
      trait: null,
      terms: { ...offer().terms, tokenRoot: ANY_TOKEN_ROOT },
      status: "expired",
      quantity: 3,
      remaining: 3,
    }),
    offer({ offerId: `0x${"3".repeat(64)}`, status: "filled", remaining: 0 }),
  ];
  const routes = (isOwner: boolean) => [
    { path: "/", element: <BuyerCollectionOffers address={BOB} isOwner={isOwner} /> },
  ];

  it("show how many were filled, and let their owner cancel the rest or withdraw an expired one", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(BOB) }),
      "GET /api/collection-offers": (_init, url) =>
        url.searchParams.get("buyer") === BOB ? { body: { data: offers } } : undefined,
    });
    await renderApp({ routes: routes(true) });
    const list = await screen.findByRole("list");
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((row) => row.querySelector("span.text-xs")?.textContent?.split(" · until")[0])).toEqual([
      "Active · 1 of 2 filled",
      "Expired · 0 of 3 filled",
      "Filled · 2 of 2 filled",
    ]);
    expect(within(rows[0] as HTMLElement).getByText("0.2 ETH each · Mood: Calm")).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText("0.2 ETH each · any work")).toBeTruthy();
    expect(
      await within(rows[0] as HTMLElement).findByRole("button", { name: "Cancel the rest" }),
    ).toBeTruthy();
    expect(await within(rows[1] as HTMLElement).findByRole("button", { name: "Withdraw" })).toBeTruthy();
    expect(within(rows[2] as HTMLElement).queryByRole("button")).toBeNull();
  });

  it("show no buttons to visitors, and nothing at all for someone without any", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/collection-offers": () => ({ body: { data: offers } }),
    });
    await renderApp({ routes: routes(false) });
    await screen.findByRole("list");
    expect(screen.queryByRole("button")).toBeNull();
  });
});

describe("the best collection offer on an item page", () => {
  const routes = [
    { path: "/", element: <BestCollectionOffer collection={TIDAL} tokenId="3" owner={BOB} lazy={false} /> },
  ];
  const best = {
    data: {
      offer: offer({ terms: { ...offer().terms, buyer: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" } }),
      proof: [],
    },
  };

  it("shows the price, the offerer and what it covers; its owner gets Accept", async () => {
    fakeApi({
      ...sessionRoute({ current: signedIn(BOB) }),
      "GET /api/collection-offers/best": (_init, url) =>
        url.searchParams.get("tokenId") === "3" ? { body: best } : undefined,
    });
    await renderApp({ routes });
    const panel = await screen.findByRole("region", { name: "Best collection offer" });
    expect(within(panel).getByText("0.2 ETH")).toBeTruthy();
    expect(panel.textContent).toContain("on every work with Mood: Calm, for 1 more work.");
    expect(await within(panel).findByRole("button", { name: "Accept offer" })).toBeTruthy();
  });

  it("offers no Accept to others, and draws nothing without an offer", async () => {
    fakeApi({
      ...sessionRoute({ current: SIGNED_OUT }),
      "GET /api/collection-offers/best": () => ({ body: best }),
    });
    await renderApp({ routes });
    const panel = await screen.findByRole("region", { name: "Best collection offer" });
    expect(within(panel).queryByRole("button")).toBeNull();
  });

  it("draws nothing when no offer covers the work", async () => {
    const { calls } = fakeApi({
      ...sessionRoute({ current: signedIn(BOB) }),
      "GET /api/collection-offers/best": () => ({ body: { data: null } }),
    });
    await renderApp({ routes });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.some((c) => c.path === "/api/collection-offers/best")).toBe(true);
    expect(screen.queryByRole("region", { name: "Best collection offer" })).toBeNull();
  });
});
