/**
 * Traits (issue 49 §3): the mint form's properties become the token metadata's ERC-721 `attributes` and
 * `item_traits` rows; the item page reads how rare each value is in its collection, and the collection page
 * lists trait types with their values and counts and narrows its grid to one value, keeping keyset pages.
 */
import { readFileSync } from "node:fs";
import {
  type CollectionResponse,
  type CollectionTraitsResponse,
  cidToHex,
  type ItemResponse,
  type ItemTraitsResponse,
  MINT_MESSAGES,
  MINT_PROPERTIES_MAX,
  type MintResponse,
} from "@easel/common";
import { easelCollectionAbi } from "@easel/contracts";
import { sql } from "drizzle-orm";
import { parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import {
  admin,
  alice,
  artist,
  createScratchDatabase,
  driver,
  indexerFor,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";
import { jpegWithGps } from "./images.ts";

let t: TestChain;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let users: Record<"artist" | "alice", TestUser>;
let studio: `0x${string}`;
let night: `0x${string}`;
let painting: number;
let photography: number;
let index: () => Promise<void>;
let d: ReturnType<typeof driver>;

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "traits");
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  studio = await d.createCollection(artist, "Trait Studio", "TRS", "painting");
  night = await d.createLazyCollection(artist, "Trait Nights", "TRN", 10, "photography");
  const env = t.env(scratch.url);
  const config = loadConfig(env);
  index = indexerFor(scratch.db, config);
  await index();
  api = await startAccountsApi(env);
  users = { artist: await api.signIn(artist as never), alice: await api.signIn(alice as never) };
  const { body } = await api.call<{ data: { category_web2: { _id: number; title: string }[] } }>(
    "GET",
    "/api/category-web2",
  );
  painting = body.data.category_web2.find((c) => c.title === "Painting")?._id ?? 0;
  photography = body.data.category_web2.find((c) => c.title === "Photography")?._id ?? 0;
  for (const [address, name, symbol, type, category] of [
    [studio, "Trait Studio", "TRS", "standard", painting],
    [night, "Trait Nights", "TRN", "lazy", photography],
  ] as const) {
    const registered = await api.call("POST", "/api/collection", {
      user: users.artist,
      body: { contract_address: address, name, symbol, collectionType: type, category_web2_id: category },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  }
}, 180_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

type Fields = Record<string, string>;
type Property = { name: string; value: string };

const fields = (name: string, properties: Property[] | null, overrides: Fields = {}): Fields => ({
  category_web2_id: String(painting),
  collection: studio,
  name,
  royalty: "5",
  description: "A study in colour and weather.",
  tags: JSON.stringify(["sea"]),
  ...(properties ? { properties: JSON.stringify(properties) } : {}),
  ...overrides,
});

async function upload(path: "/api/mint" | "/api/mint/lazymint", values: Fields) {
  const form = new FormData();
  for (const [key, value] of Object.entries(values)) form.append(key, value);
  form.append("file", new Blob([await jpegWithGps()], { type: "image/jpeg" }), "art.jpg");
  const response = await fetch(`${api.url}${path}`, {
    method: "POST",
    headers: { cookie: users.artist.cookie },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** Uploads and mints on chain; answers the token id and the metadata's CID. */
async function mint(name: string, properties: Property[] | null, extra: Fields = {}) {
  const result = await upload("/api/mint", fields(name, properties, extra));
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  const { uri_cid } = (result.body as MintResponse).data.newNft;
  const receipt = await d.send(artist, studio, easelCollectionAbi, "mintNFT", [500, cidToHex(uri_cid), []]);
  const [minted] = parseEventLogs({ abi: easelCollectionAbi, logs: receipt.logs, eventName: "Minted" });
  await index();
  return { tokenId: String((minted as unknown as { args: { tokenId: bigint } }).args.tokenId), cid: uri_cid };
}

const metadataOf = async (cid: string) =>
  (await (await fetch(`${api.url}/ipfs/${cid}`)).json()) as { attributes: unknown[] };

const itemTraits = (collection: string, tokenId: string) =>
  api.call<ItemTraitsResponse>("GET", `/api/nft/traits?collection=${collection}&tokenId=${tokenId}`);

const grid = (query: Record<string, string>) =>
  api.call<{ data: CollectionResponse["data"] }>(
    "GET",
    `/api/collection?${new URLSearchParams({ name: "Trait Studio", ...query })}`,
  );

describe("properties in the mint payload", () => {
  it("are refused with their words when empty, too long, repeated, reserved or too many, storing nothing", async () => {
    const long = "x".repeat(65);
    const cases: [Property[], string][] = [
      [[{ name: " ", value: "Calm" }], MINT_MESSAGES.propertyNameRequired],
      [[{ name: "Mood", value: "  " }], MINT_MESSAGES.propertyValueRequired],
      [[{ name: long, value: "Calm" }], MINT_MESSAGES.propertyNameMax],
      [[{ name: "Mood", value: long }], MINT_MESSAGES.propertyValueMax],
      [
        [
          { name: "Mood", value: "Calm" },
          { name: " mood ", value: "Stormy" },
        ],
        MINT_MESSAGES.propertyDuplicate,
      ],
      [[{ name: "Category", value: "Sculpture" }], MINT_MESSAGES.propertyReserved],
      [
        Array.from({ length: MINT_PROPERTIES_MAX + 1 }, (_, i) => ({ name: `P${i}`, value: "v" })),
        MINT_MESSAGES.propertiesMax,
      ],
    ];
    for (const [properties, message] of cases) {
      for (const path of ["/api/mint", "/api/mint/lazymint"] as const) {
        const values =
          path === "/api/mint"
            ? fields("Refused", properties)
            : fields("Refused", properties, {
                collection: night,
                category_web2_id: String(photography),
                price: parseEther("0.1").toString(),
              });
        expectError(await upload(path, values), 400, { field: "properties", message });
      }
    }
    const { rows } = await scratch.db.execute(sql`SELECT 1 FROM item_metadata WHERE name = 'Refused'`);
    expect(rows).toEqual([]);
  });
});

describe("tags", () => {
  it("stored twice before are kept once by migration 0027, the first spelling first", async () => {
    const text = readFileSync(new URL("../drizzle/0027_item_traits.sql", import.meta.url), "utf8");
    const update = text.split("--> statement-breakpoint").find((part) => part.includes("UPDATE"));
    const id = crypto.randomUUID();
    await scratch.db.execute(sql`
      INSERT INTO item_metadata (id, cid, creator, collection, name, description, tags, royalty, media_cid)
      VALUES (${id}, ${`bafytags${id}`}, ${artist.address.toLowerCase()}, ${studio}, 'Old', 'Old upload',
        '["painting", "oil", " Painting", "painting"]'::jsonb, 5, 'bafkmedia')`);
    await scratch.db.execute(sql.raw(String(update)));
    const { rows } = await scratch.db.execute<{ tags: string[] }>(
      sql`SELECT tags FROM item_metadata WHERE id = ${id}`,
    );
    expect(rows[0]?.tags).toEqual(["painting", "oil"]);
    await scratch.db.execute(sql`DELETE FROM item_metadata WHERE id = ${id}`);
  });
});

describe("traits", () => {
  let calmWarm: { tokenId: string; cid: string };
  let calm: { tokenId: string };
  let stormy: { tokenId: string };

  beforeAll(async () => {
    calmWarm = await mint(
      "Still Water",
      [
        { name: " Mood ", value: " Calm " },
        { name: "Palette", value: "Warm" },
      ],
      // The same tag twice, in two cases: kept once.
      { tags: JSON.stringify(["sea", "Sea", "dawn"]) },
    );
    calm = await mint("Low Tide", [{ name: "Mood", value: "Calm" }]);
    stormy = await mint("Gale", [{ name: "Mood", value: "Stormy" }]);
    await mint("Untitled", null);
    // Uploaded, never minted: not an item, so not counted.
    expect((await upload("/api/mint", fields("Abandoned", [{ name: "Mood", value: "Calm" }]))).status).toBe(
      200,
    );
  }, 120_000);

  it("are written into the metadata as ERC-721 attributes, trimmed, after the category and tags", async () => {
    const metadata = await metadataOf(calmWarm.cid);
    expect(metadata.attributes).toEqual([
      { trait_type: "Category", value: "Painting" },
      { trait_type: "Tag", value: "sea" },
      { trait_type: "Tag", value: "dawn" },
      { trait_type: "Mood", value: "Calm" },
      { trait_type: "Palette", value: "Warm" },
    ]);
    const page = await api.call<ItemResponse>(
      "GET",
      `/api/nft?creator=${artist.address}&collection=${encodeURIComponent("Trait Studio")}&tokenId=${calmWarm.tokenId}`,
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.data.nft.tags).toEqual(["sea", "dawn"]);
  });

  it("say how many of the collection's items share each value (the item page's rarity)", async () => {
    const answer = await itemTraits(studio, calmWarm.tokenId);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.traits).toEqual([
      { trait_type: "Mood", value: "Calm", count: 2, total: 4 },
      { trait_type: "Palette", value: "Warm", count: 1, total: 4 },
    ]);
    expect((await itemTraits(studio, stormy.tokenId)).body.data.traits).toEqual([
      { trait_type: "Mood", value: "Stormy", count: 1, total: 4 },
    ]);
    expect((await itemTraits(studio, "999")).status).toBe(404);
  });

  it("list a collection's trait types with their values and counts, the most common first", async () => {
    const answer = await api.call<CollectionTraitsResponse>("GET", `/api/collection/traits?id=${studio}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual({
      total: 4,
      traits: [
        {
          trait_type: "Mood",
          values: [
            { value: "Calm", count: 2 },
            { value: "Stormy", count: 1 },
          ],
        },
        { trait_type: "Palette", values: [{ value: "Warm", count: 1 }] },
      ],
    });
  });

  it("narrow the collection grid, with keyset pages and the other filters", async () => {
    const all = await grid({});
    expect(all.body.data.nfts).toHaveLength(4);
    const first = await grid({ traitType: "Mood", traitValue: "Calm", limit: "1", sort: "recentlyCreated" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data.nfts.map((n) => n.tokenId)).toEqual([calm.tokenId]);
    const second = await grid({
      traitType: "Mood",
      traitValue: "Calm",
      limit: "1",
      sort: "recentlyCreated",
      cursor: String(first.body.data.nextCursor),
    });
    expect(second.body.data.nfts.map((n) => n.tokenId)).toEqual([calmWarm.tokenId]);
    expect(second.body.data.nextCursor).toBeNull();
    const stormyOnly = await grid({ traitType: "Mood", traitValue: "Stormy" });
    expect(stormyOnly.body.data.nfts.map((n) => n.tokenId)).toEqual([stormy.tokenId]);
    // Combined with a tab: nothing of these is for sale.
    expect((await grid({ traitType: "Mood", traitValue: "Calm", filter: "buyNow" })).body.data.nfts).toEqual(
      [],
    );
    expect((await grid({ traitType: "Mood", traitValue: "Sunny" })).body.data.nfts).toEqual([]);
    expectError(await grid({ traitType: "Mood" }), 400, {
      field: "traitValue",
      message: /traitValue is required/,
    });
  });

  it("work for lazy items too: attributes in the metadata, rarity and the filter before the mint", async () => {
    const lazy = (name: string, properties: Property[]) =>
      upload(
        "/api/mint/lazymint",
        fields(name, properties, {
          collection: night,
          category_web2_id: String(photography),
          price: parseEther("0.1").toString(),
        }),
      );
    const first = await lazy("Night Bus", [{ name: "Light", value: "Neon" }]);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await lazy("Last Train", [{ name: "Light", value: "Sodium" }]);
    const { uri_cid, _id } = (first.body as MintResponse).data.newNft;
    expect((await metadataOf(uri_cid)).attributes).toContainEqual({ trait_type: "Light", value: "Neon" });
    expect((await itemTraits(night, _id)).body.data.traits).toEqual([
      { trait_type: "Light", value: "Neon", count: 1, total: 2 },
    ]);
    const filtered = await api.call<{ data: CollectionResponse["data"] }>(
      "GET",
      `/api/collection?name=${encodeURIComponent("Trait Nights")}&traitType=Light&traitValue=Neon`,
    );
    expect(filtered.body.data.nfts.map((n) => n.tokenId)).toEqual([_id]);
  });
});
