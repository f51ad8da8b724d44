import type {
  ChainTokenItem,
  ExploreItemsResponse,
  ItemResponse,
  ProfileResponse,
  TradeRow,
} from "@easel/common";
import { easelCollectionAbi } from "@easel/contracts";
import { and, eq } from "drizzle-orm";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createChainClient } from "../src/chain/client.ts";
import { loadConfig } from "../src/config.ts";
import { chainSellOrders } from "../src/db/chain-schema.ts";
import {
  admin,
  alice,
  artist,
  bob,
  carol,
  cidBytes,
  createScratchDatabase,
  driver,
  indexerFor,
  indexToHead,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { type AccountsApi, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

let t: TestChain;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let users: Record<"artist" | "alice" | "bob", TestUser>;
let art: `0x${string}`;
let index: () => Promise<void>;

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "trading");
  const d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  art = await d.createCollection(artist, "Harbour", "HRB");
  for (const id of [1n, 2n, 3n]) await d.mint(artist, art, id);
  // Token 4 splits its proceeds with alice.
  await d.send(artist, art, easelCollectionAbi, "mintNFT", [
    500,
    cidBytes(4),
    [
      { account: artist.address, share: 50 },
      { account: alice.address, share: 50 },
    ],
  ]);
  await d.approve(artist, art);
  await d.market(artist, "setSellOrder", [art, 1n, parseEther("1")]);
  await d.market(alice, "makeOffer", [art, 2n, parseEther("0.2"), await d.offerExpiry()], parseEther("0.2"));
  await d.market(artist, "setStandardAuction", [art, 3n, parseEther("1"), 0n, 3600n]);
  await d.market(bob, "placeBid", [art, 3n, parseEther("1.5")], parseEther("1.5"));

  const env = t.env(scratch.url);
  const config = loadConfig(env);
  await indexToHead({
    db: scratch.db,
    chain: createChainClient(config.chainId, config.rpcUrls),
    config,
    log: () => {},
  });
  index = indexerFor(scratch.db, config);
  api = await startAccountsApi(env);
  users = {
    artist: await api.signIn(artist as never),
    alice: await api.signIn(alice as never),
    bob: await api.signIn(bob as never),
  };
}, 120_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

const tokenIds = (items: { tokenId: string }[]) => items.map((item) => item.tokenId).sort();

describe("profile lists from the chain", () => {
  it("shows what an artist created and the collections they own", async () => {
    const { status, body } = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${artist.address}`);
    expect(status).toBe(200);
    expect(tokenIds(body.data.created as ChainTokenItem[])).toEqual(["1", "2", "3", "4"]);
    const harbour = (body.data.created as ChainTokenItem[]).find((item) => item.tokenId === "1");
    expect(harbour).toMatchObject({
      name: "Harbour #1",
      status: "fix",
      price: "1",
      priceWei: parseEther("1").toString(),
    });
    expect(body.data.collection).toEqual([
      expect.objectContaining({
        contract_address: art.toLowerCase(),
        name: "Harbour",
        symbol: "HRB",
        tokensCount: 4,
      }),
    ]);
    expect(body.data.collected).toEqual([]);
  });

  it("shows a collaborator's split and an empty collection for a collector", async () => {
    const { body } = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${alice.address}`);
    expect(tokenIds(body.data.split as ChainTokenItem[])).toEqual(["4"]);
    expect(body.data.created).toEqual([]);
    expect(body.data.collection).toEqual([]);
  });
});

describe("lapsed listings", () => {
  it("shows a listing older than 100 days as unlisted, and leaves it out of the floor", async () => {
    const before = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${artist.address}`);
    expect(before.body.data.collection[0]).toMatchObject({ floorPriceWei: parseEther("1").toString() });
    // The contract refuses to sell a listing after 100 days; no event says so, so time alone lapses it.
    await scratch.db
      .update(chainSellOrders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(chainSellOrders.collection, art.toLowerCase()), eq(chainSellOrders.tokenId, "1")));
    try {
      const after = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${artist.address}`);
      const token = (after.body.data.created as ChainTokenItem[]).find((item) => item.tokenId === "1");
      expect(token).toMatchObject({ status: "minted", price: null, priceWei: null });
      expect(after.body.data.collection[0]).toMatchObject({ floorPriceWei: null });
    } finally {
      await scratch.db
        .update(chainSellOrders)
        .set({ expiresAt: new Date(Date.now() + 100 * 86_400_000) })
        .where(and(eq(chainSellOrders.collection, art.toLowerCase()), eq(chainSellOrders.tokenId, "1")));
    }
  });
});

describe("trading history", () => {
  it("lists offers made and offers received, each only to its own user", async () => {
    const made = await api.call<{ data: { made: TradeRow[]; received: TradeRow[] } }>(
      "GET",
      "/api/profile/offers",
      {
        user: users.alice,
      },
    );
    expect(made.status).toBe(200);
    expect(made.body.data.made).toEqual([
      expect.objectContaining({
        tokenId: "2",
        price: "0.2",
        status: "active",
        counterparty: artist.address.toLowerCase(),
      }),
    ]);
    expect(made.body.data.received).toEqual([]);
    const received = await api.call<{ data: { made: TradeRow[]; received: TradeRow[] } }>(
      "GET",
      "/api/profile/offers",
      {
        user: users.artist,
      },
    );
    expect(received.body.data.received).toEqual([
      expect.objectContaining({
        tokenId: "2",
        collectionName: "Harbour",
        path: `/${artist.address.toLowerCase()}/Harbour/2`,
        counterparty: alice.address.toLowerCase(),
      }),
    ]);
  });

  it("lists auctions held and auctions bid in", async () => {
    const held = await api.call<{ data: { held: TradeRow[]; bidOn: TradeRow[] } }>(
      "GET",
      "/api/profile/auctions",
      {
        user: users.artist,
      },
    );
    expect(held.body.data.held).toEqual([
      expect.objectContaining({
        tokenId: "3",
        kind: "standard",
        price: "1.5",
        counterparty: bob.address.toLowerCase(),
      }),
    ]);
    const bidOn = await api.call<{ data: { held: TradeRow[]; bidOn: TradeRow[] } }>(
      "GET",
      "/api/profile/auctions",
      {
        user: users.bob,
      },
    );
    expect(bidOn.body.data.bidOn.map((row) => row.tokenId)).toEqual(["3"]);
    expect(bidOn.body.data.held).toEqual([]);
  });

  it("lists what a user can still cancel: listings, auctions without bids, live offers", async () => {
    const artistOrders = await api.call<{
      data: { listings: TradeRow[]; auctions: TradeRow[]; offers: TradeRow[] };
    }>("GET", "/api/profile/open-orders", { user: users.artist });
    expect(artistOrders.body.data.listings.map((row) => row.tokenId)).toEqual(["1"]);
    // The auction on token 3 has a bid: it can no longer be cancelled.
    expect(artistOrders.body.data.auctions).toEqual([]);
    const aliceOrders = await api.call<{ data: { offers: TradeRow[] } }>("GET", "/api/profile/open-orders", {
      user: users.alice,
    });
    expect(aliceOrders.body.data.offers.map((row) => row.tokenId)).toEqual(["2"]);
  });

  it("needs a session", async () => {
    for (const path of [
      "/api/profile/offers",
      "/api/profile/auctions",
      "/api/profile/open-orders",
      "/api/profile/credits",
    ]) {
      expect((await api.call("GET", path)).status).toBe(401);
    }
  });
});

describe("expiring offers", () => {
  type Orders = { data: { offers: TradeRow[] } };
  type Offers = { data: { made: TradeRow[]; received: TradeRow[] } };
  const item = async (tokenId: string) =>
    (
      await api.call<ItemResponse>(
        "GET",
        `/api/nft?creator=${artist.address.toLowerCase()}&collection=Harbour&tokenId=${tokenId}`,
      )
    ).body.data.nft;
  const withOffers = async () =>
    (
      await api.call<ExploreItemsResponse>("GET", `/api/explore?status=hasOffers&collection=${art}`)
    ).body.data.nfts
      .map((n) => n.tokenId)
      .sort();
  const card = async (tokenId: string) =>
    (
      await api.call<ExploreItemsResponse>("GET", `/api/explore?collection=${art}&limit=50`)
    ).body.data.nfts.find((n) => n.tokenId === tokenId);

  it("shows an offer past its expiry as expired, out of Has offers, the card and offers received", async () => {
    const d = driver(t);
    // Bob's offer on token 4 lasts 12 seconds of the chain's clock (anvil keeps the wall clock's time).
    const expiresAt = (await t.publicClient.getBlock()).timestamp + 12n;
    await d.market(bob, "makeOffer", [art, 4n, parseEther("0.3"), expiresAt], parseEther("0.3"));
    await index();
    const expiry = new Date(Number(expiresAt) * 1000).toISOString();
    // Live: the item page's current offer, the Has offers filter, the card's price line, offers received.
    expect((await item("4")).offers).toEqual([
      expect.objectContaining({ address: bob.address.toLowerCase(), status: "active", expiresAt: expiry }),
    ]);
    expect(await withOffers()).toEqual(["2", "4"]);
    expect((await card("4"))?.offerWei).toBe(parseEther("0.3").toString());
    const live = await api.call<Offers>("GET", "/api/profile/offers", { user: users.artist });
    expect(live.body.data.received.map((r) => r.tokenId).sort()).toEqual(["2", "4"]);

    // Time alone expires it: no event says so.
    await new Promise((r) => setTimeout(r, Math.max(0, Number(expiresAt) * 1000 - Date.now()) + 200));
    expect((await item("4")).offers).toEqual([
      expect.objectContaining({ address: bob.address.toLowerCase(), status: "expired", expiresAt: expiry }),
    ]);
    expect(await withOffers()).toEqual(["2"]);
    expect((await card("4"))?.offerWei).toBeNull();
    expect((await card("2"))?.offerWei).toBe(parseEther("0.2").toString());
    const after = await api.call<Offers>("GET", "/api/profile/offers", { user: users.artist });
    expect(after.body.data.received.map((r) => r.tokenId)).toEqual(["2"]);
    // The offerer sees it expired, with its end, and can still cancel it (its ETH is still in the market).
    const made = await api.call<Offers>("GET", "/api/profile/offers", { user: users.bob });
    expect(made.body.data.made).toEqual([
      expect.objectContaining({ tokenId: "4", status: "expired", endTime: expiry }),
    ]);
    const orders = await api.call<Orders>("GET", "/api/profile/open-orders", { user: users.bob });
    expect(orders.body.data.offers).toEqual([expect.objectContaining({ tokenId: "4", status: "expired" })]);
    // Alice's offer on token 2 (a week) is still live.
    expect((await item("2")).offers[0]).toMatchObject({ status: "active" });

    // Anyone may return an expired offer: the row stays the offerer's, cancelled.
    await d.market(carol, "cancelOffer", [art, 4n]);
    await index();
    expect((await item("4")).offers).toEqual([
      expect.objectContaining({ address: bob.address.toLowerCase(), status: "cancelled", expiresAt: expiry }),
    ]);
    const { rows } = await scratch.db.$client.query(
      `SELECT kind, "from" FROM chain_activity WHERE collection = $1 AND token_id = 4 AND kind = 'offer_cancelled'`,
      [art.toLowerCase()],
    );
    expect(rows).toEqual([{ kind: "offer_cancelled", from: bob.address.toLowerCase() }]);
    const none = await api.call<Orders>("GET", "/api/profile/open-orders", { user: users.bob });
    expect(none.body.data.offers).toEqual([]);
  }, 60_000);
});
