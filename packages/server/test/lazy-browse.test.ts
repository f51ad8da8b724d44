/**
 * Unsold lazy items are found wherever artworks are (issue 49, "Findable"): the marketplace and its Lazy minted,
 * Buy now and price sorts, the collection page, its artwork count and floor, the creator's Created tab, search
 * (with typos) and home; shown as minted at purchase with their price; and once a buyer mints one, it is the
 * chain's token, listed once.
 */
import { readFileSync } from "node:fs";
import type {
  CollectionResponse,
  ExploreItemsResponse,
  HomeResponse,
  LazyMintVoucherResponse,
  NftCard,
  SearchResponse,
} from "@easel/common";
import { easelCollectionAbi } from "@easel/contracts";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { resetChainData } from "../src/indexer/reorg.ts";
import {
  admin,
  artist,
  bob,
  createScratchDatabase,
  driver,
  indexerFor,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { type AccountsApi, startAccountsApi, type TestUser } from "./accounts-helpers.ts";
import { jpegWithGps } from "./images.ts";

let t: TestChain;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let users: Record<"artist" | "bob", TestUser>;
let studio: `0x${string}`;
let photography: number;
let index: () => Promise<void>;
let d: ReturnType<typeof driver>;

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "lazybrowse");
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  studio = await d.createLazyCollection(artist, "Open Studio", "OPEN", 10, "photography");
  const env = t.env(scratch.url);
  const config = loadConfig(env);
  index = indexerFor(scratch.db, config);
  await index();
  api = await startAccountsApi(env);
  users = { artist: await api.signIn(artist as never), bob: await api.signIn(bob as never) };
  const { body } = await api.call<{ data: { category_web2: { _id: number; title: string }[] } }>(
    "GET",
    "/api/category-web2",
  );
  photography = body.data.category_web2.find((c) => c.title === "Photography")?._id ?? 0;
  const registered = await api.call("POST", "/api/collection", {
    user: users.artist,
    body: {
      contract_address: studio,
      name: "Open Studio",
      symbol: "OPEN",
      collectionType: "lazy",
      category_web2_id: photography,
    },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  // Two works for sale, minted at purchase: nothing of them is on chain yet.
  for (const [name, price] of [
    ["Rain on Glass", "0.3"],
    ["Harbour Fog", "0.1"],
  ] as const) {
    const uploaded = await lazyUpload(name, parseEther(price));
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

async function lazyUpload(name: string, price: bigint) {
  const form = new FormData();
  const fields = {
    category_web2_id: String(photography),
    collection: studio,
    name,
    royalty: "10",
    description: `${name}, minted at purchase.`,
    tags: "[]",
    price: price.toString(),
  };
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append("file", new Blob([new Uint8Array(await jpegWithGps())], { type: "image/jpeg" }), "a.jpg");
  const response = await fetch(`${api.url}/api/mint/lazymint`, {
    method: "POST",
    headers: { cookie: users.artist.cookie },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** Bob asks for a voucher for `tokenId` and mints it with it (the lazy mint: the chain's token from then on). */
async function buy(tokenId: string) {
  const ask = await api.call<LazyMintVoucherResponse>("POST", "/api/nft/buy-lazy-mint", {
    user: users.bob,
    body: { collection: studio.toLowerCase(), nft_id: tokenId },
  });
  expect(ask.status, JSON.stringify(ask.body)).toBe(200);
  const v = ask.body.data.voucher;
  await d.send(
    bob,
    studio,
    easelCollectionAbi,
    "lazyMint",
    [
      {
        tokenId: BigInt(v.tokenId),
        price: BigInt(v.price),
        royaltyBps: v.royaltyBps,
        cid: v.cid as `0x${string}`,
        collaborators: v.collaborators,
        nonce: v.nonce,
        deadline: BigInt(v.deadline),
        signature: v.signature as `0x${string}`,
      },
    ],
    BigInt(v.price),
  );
}

const explore = async (query: string) => {
  const { status, body } = await api.call<ExploreItemsResponse>("GET", `/api/explore?${query}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data.nfts;
};
const names = (cards: NftCard[]) => cards.map((c) => c.name);
const collectionPage = async (query = "") =>
  (await api.call<CollectionResponse>("GET", `/api/collection?name=Open%20Studio${query}`)).body.data;
const searchItems = async (q: string) =>
  (
    await api.call<SearchResponse>("GET", `/api/search?searchItem=${encodeURIComponent(q)}`)
  ).body.data.items.map((i) => i.name);
const created = async () =>
  (
    await api.call<{ data: { created: { name: string; status: string; priceWei: string | null }[] } }>(
      "GET",
      `/api/profile?userkey=${artist.address}`,
    )
  ).body.data.created;

describe("unsold lazy items", () => {
  it("are on the marketplace, mint-on-purchase with their price, in Lazy minted, Buy now and the price sorts", async () => {
    const all = await explore("sort=recentlyCreated");
    expect(names(all)).toEqual(["Harbour Fog", "Rain on Glass"]);
    expect(all.find((c) => c.name === "Rain on Glass")).toMatchObject({
      status: "lazy",
      tokenId: "1",
      priceWei: parseEther("0.3").toString(),
      price: "0.3",
      owner: artist.address.toLowerCase(),
      creator: artist.address.toLowerCase(),
      collection: { address: studio.toLowerCase(), name: "Open Studio", kind: "lazy" },
      category: "Photography",
      image_cid: expect.stringMatching(/^bafk/),
    });
    expect(names(await explore("status=lazy&sort=priceLowToHigh"))).toEqual(["Harbour Fog", "Rain on Glass"]);
    expect(names(await explore("status=buyNow&sort=priceHighToLow"))).toEqual([
      "Rain on Glass",
      "Harbour Fog",
    ]);
    expect(names(await explore("sort=recentlyListed"))).toEqual(["Harbour Fog", "Rain on Glass"]);
    expect(names(await explore("sort=priceLowToHigh&minPrice=0.2"))).toEqual(["Rain on Glass"]);
    expect(names(await explore(`category=${photography}&sort=priceLowToHigh`))).toEqual([
      "Harbour Fog",
      "Rain on Glass",
    ]);
    expect(names(await explore(`creator=${artist.address.toLowerCase()}`))).toHaveLength(2);
    // Keyset pages go through them like any token.
    const [first] = await Promise.all([
      api.call<ExploreItemsResponse>("GET", "/api/explore?sort=priceLowToHigh&limit=1"),
    ]);
    expect(names(first.body.data.nfts)).toEqual(["Harbour Fog"]);
    const next = await explore(
      `sort=priceLowToHigh&limit=1&cursor=${encodeURIComponent(first.body.data.nextCursor ?? "")}`,
    );
    expect(names(next)).toEqual(["Rain on Glass"]);
  });

  it("are on their collection's page, in its artwork count and floor, on home and the creator's Created tab", async () => {
    const page = await collectionPage();
    expect(names(page.nfts)).toEqual(["Rain on Glass", "Harbour Fog"]);
    expect(page.collection.stats).toMatchObject({
      artworks: 2,
      owners: 0,
      floorPriceWei: parseEther("0.1").toString(),
    });
    expect(names((await collectionPage("&filter=buyNow&sort=priceHighToLow")).nfts)).toEqual([
      "Rain on Glass",
      "Harbour Fog",
    ]);
    const home = (await api.call<HomeResponse>("GET", "/api/home")).body;
    expect(JSON.stringify(home)).toContain("Open Studio");
    expect(JSON.stringify(home)).toContain("Rain on Glass");
    expect(await created()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: "Rain on Glass",
          status: "lazy",
          priceWei: parseEther("0.3").toString(),
        }),
        expect.objectContaining({ name: "Harbour Fog", status: "lazy" }),
      ]),
    );
  });

  it("are found by name in search, with two typos in one query", async () => {
    expect(await searchItems("rain on")).toEqual(["Rain on Glass"]);
    expect(await searchItems("fog")).toEqual(["Harbour Fog"]);
    // A swap of two letters ('rian') and a letter left out ('glas').
    expect(await searchItems("rian on glas")).toEqual(["Rain on Glass"]);
    expect(await searchItems("harbor fgo")).toEqual(["Harbour Fog"]);
    // A letter replaced in a word too short for trigrams to see it ('fxg' shares one of seven with 'fog').
    expect(await searchItems("harbour fxg")).toEqual(["Harbour Fog"]);
  });

  it("follow a new price: the sorts and the collection's floor, and whoever hearted it is told", async () => {
    const hearted = await api.call("POST", "/api/nft/favorite", {
      user: users.bob,
      body: { collection: studio.toLowerCase(), tokenId: "2", favorite: true },
    });
    expect(hearted.status, JSON.stringify(hearted.body)).toBe(200);
    const edit = await api.call("PUT", "/api/nft/edit", {
      user: users.artist,
      body: { collection: studio.toLowerCase(), nft_id: "2", price: parseEther("0.5").toString() },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const { rows: alerts } = await scratch.db.$client.query<{ message: string }>(
      "SELECT message FROM notifications WHERE address = $1 AND kind = 'watch_price'",
      [bob.address.toLowerCase()],
    );
    expect(alerts.map((a) => a.message)).toEqual([
      expect.stringMatching(/^The price of “.+”, which you favourited, is now 0\.5 ETH\.$/),
    ]);
    expect(names(await explore("status=lazy&sort=priceLowToHigh"))).toEqual(["Rain on Glass", "Harbour Fog"]);
    expect((await collectionPage()).collection.stats.floorPriceWei).toBe(parseEther("0.3").toString());
  });

  it("once bought, are the chain's token, listed once, and leave the floor", async () => {
    await buy("1");
    await index();
    const all = await explore("sort=recentlyCreated");
    expect(names(all).sort()).toEqual(["Harbour Fog", "Rain on Glass"]);
    expect(all.find((c) => c.name === "Rain on Glass")).toMatchObject({
      status: "lazy-sold",
      owner: bob.address.toLowerCase(),
      priceWei: null,
      lastPriceWei: parseEther("0.3").toString(),
    });
    // Still a lazily minted work; no longer for sale.
    expect(names(await explore("status=lazy"))).toHaveLength(2);
    expect(names(await explore("status=buyNow"))).toEqual(["Harbour Fog"]);
    const page = await collectionPage();
    expect(page.collection.stats).toMatchObject({
      artworks: 2,
      owners: 1,
      floorPriceWei: parseEther("0.5").toString(),
    });
    expect(await searchItems("rain on glass")).toEqual(["Rain on Glass"]);
    // The lazy side is done with it: no voucher, no price edit.
    const again = await api.call("POST", "/api/nft/buy-lazy-mint", {
      user: users.bob,
      body: { collection: studio.toLowerCase(), nft_id: "1" },
    });
    expect(again.status).toBe(404);
    const { rows } = await scratch.db.$client.query(
      "SELECT status FROM chain_tokens WHERE collection = $1 ORDER BY token_id",
      [studio.toLowerCase()],
    );
    expect(rows.map((r) => r.status)).toEqual(["lazy-sold", "lazy"]);
  });

  it("are for sale again when a reorg drops the block that minted one", async () => {
    const tokens = async () =>
      (
        await scratch.db.$client.query(
          "SELECT token_id::text, status, owner, price::text FROM chain_tokens WHERE collection = $1 ORDER BY token_id",
          [studio.toLowerCase()],
        )
      ).rows;
    const before = await tokens();
    const snapshot = await t.test.snapshot();
    await buy("2");
    await index();
    expect((await tokens())[1]).toMatchObject({ status: "lazy-sold", owner: bob.address.toLowerCase() });
    expect((await collectionPage()).collection.stats.floorPriceWei).toBeNull();
    // The block of the mint is dropped, and the chain grows past it without it.
    const dropped = await t.publicClient.getBlockNumber({ cacheTime: 0 });
    await t.test.revert({ id: snapshot });
    const head = await t.publicClient.getBlockNumber({ cacheTime: 0 });
    await t.test.mine({ blocks: Number(dropped - head) + 1 });
    await index();
    expect(await tokens()).toEqual(before);
    expect(before[1]).toMatchObject({ status: "lazy", price: parseEther("0.5").toString() });
    expect((await collectionPage()).collection.stats.floorPriceWei).toBe(parseEther("0.5").toString());
  });

  it("are shown again after the chain's data is read again from the start (a resync)", async () => {
    await resetChainData(scratch.db.$client);
    await index();
    const { rows } = await scratch.db.$client.query(
      "SELECT token_id::text, status, owner, price::text FROM chain_tokens WHERE collection = $1 ORDER BY token_id",
      [studio.toLowerCase()],
    );
    expect(rows).toEqual([
      { token_id: "1", status: "lazy-sold", owner: bob.address.toLowerCase(), price: null },
      {
        token_id: "2",
        status: "lazy",
        owner: artist.address.toLowerCase(),
        price: parseEther("0.5").toString(),
      },
    ]);
    expect((await collectionPage()).collection.stats).toMatchObject({
      artworks: 2,
      floorPriceWei: parseEther("0.5").toString(),
    });
  });

  it("are filled in by migration 0024 for a database that had them before", async () => {
    const rows = async () =>
      (
        await scratch.db.$client.query(
          `SELECT token_id::text, status, owner, cid, royalty_bps, collaborators, price::text, listed_at,
             listing_expires_at, category_id FROM chain_tokens WHERE collection = $1 ORDER BY token_id`,
          [studio.toLowerCase()],
        )
      ).rows;
    const stats = async () =>
      (
        await scratch.db.$client.query(
          "SELECT tokens_count, owners_count, floor_price::text FROM chain_collections WHERE address = $1",
          [studio.toLowerCase()],
        )
      ).rows;
    const [projected, projectedStats] = [await rows(), await stats()];
    await scratch.db.$client.query("DELETE FROM chain_tokens WHERE status = 'lazy'");
    await scratch.db.$client.query(
      "UPDATE chain_collections SET tokens_count = 0, owners_count = 0, floor_price = NULL WHERE address = $1",
      [studio.toLowerCase()],
    );
    const migration = readFileSync(
      new URL("../drizzle/0024_lazy_items_in_browse.sql", import.meta.url),
      "utf8",
    );
    for (const statement of migration.split("--> statement-breakpoint"))
      await scratch.db.$client.query(statement);
    expect(await rows()).toEqual(projected);
    expect(await stats()).toEqual(projectedStats);
  });
});
