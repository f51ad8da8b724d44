import type { ChainTokenItem, ProfileResponse, TradeRow } from "@easel/common";
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
  cidBytes,
  createScratchDatabase,
  driver,
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
  await d.market(alice, "makeOffer", [art, 2n, parseEther("0.2")], parseEther("0.2"));
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
