import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  cidToHex,
  type ExploreItemsResponse,
  type ItemResponse,
  LAZY_EDIT_MESSAGES,
  type LazyMintVoucherResponse,
  MINT_FILE_MAX_BYTES,
  MINT_MESSAGES,
  MINT_POSTER_MAX_BYTES,
  type MintResponse,
} from "@easel/common";
import { easelCollectionAbi } from "@easel/contracts";
import * as dagPb from "@ipld/dag-pb";
import Ajv from "ajv";
import { MemoryBlockstore } from "blockstore-core";
import { sql } from "drizzle-orm";
import { UnixFS } from "ipfs-unixfs";
import { importer } from "ipfs-unixfs-importer";
import { CID } from "multiformats/cid";
import { sha256 } from "multiformats/hashes/sha2";
import sharp from "sharp";
import { parseEther, parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import {
  admin,
  alice,
  artist,
  bob,
  createScratchDatabase,
  driver,
  indexerFor,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { kuboPinner, PinError } from "../src/media/pin.ts";
import { MediaStore } from "../src/media/store.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";
import { jpegScan, jpegWithGps } from "./images.ts";

let t: TestChain;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let users: Record<"artist" | "alice" | "bob", TestUser>;
let studio: `0x${string}`;
let night: `0x${string}`;
let defaultCollection: `0x${string}`;
let painting: number;
let photography: number;
let index: () => Promise<void>;
let d: ReturnType<typeof driver>;

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "mint");
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  studio = await d.createCollection(artist, "Studio Works", "STU", "painting");
  night = await d.createLazyCollection(artist, "Night Shift", "NGT", 4, "photography");
  const env = t.env(scratch.url);
  const config = loadConfig(env);
  defaultCollection = config.contracts.defaultCollection;
  index = indexerFor(scratch.db, config);
  await index();
  api = await startAccountsApi(env);
  users = {
    artist: await api.signIn(artist as never),
    alice: await api.signIn(alice as never),
    bob: await api.signIn(bob as never),
  };
  const { body } = await api.call<{ data: { category_web2: { _id: number; title: string }[] } }>(
    "GET",
    "/api/category-web2",
  );
  painting = body.data.category_web2.find((c) => c.title === "Painting")?._id ?? 0;
  photography = body.data.category_web2.find((c) => c.title === "Photography")?._id ?? 0;
  for (const [address, name, symbol, type, category] of [
    [studio, "Studio Works", "STU", "standard", painting],
    [night, "Night Shift", "NGT", "lazy", photography],
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

// ---------------------------------------------------------------- helpers

const mediaDir = () => join(api.dir, "ipfs");
const uploadsDir = () => `${mediaDir()}.uploads`;
/** Every file under a folder (the blockstore shards its blocks into subfolders). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

const fetchBytes = async (path: string) => {
  const response = await fetch(`${api.url}${path}`);
  return Buffer.from(new Uint8Array(await response.arrayBuffer()));
};

type Metadata = Record<string, unknown> & { image: string; external_url: string; animation_url?: string };
const metadataOf = async (cid: string) => (await (await fetch(`${api.url}/ipfs/${cid}`)).json()) as Metadata;

type Fields = Record<string, string>;
const standardFields = (overrides: Fields = {}): Fields => ({
  category_web2_id: String(painting),
  collection: studio,
  name: "Harbour at Dawn",
  royalty: "10",
  description: "Oil on canvas, painted at first light.",
  description_ui: JSON.stringify({
    type: "doc",
    paragraphs: [{ runs: [{ text: "Oil on canvas, " }, { text: "painted at first light.", bold: true }] }],
  }),
  tags: JSON.stringify(["sea", "dawn"]),
  ...overrides,
});

type Part = { bytes: Uint8Array; name: string; type?: string };
async function upload(
  path: "/api/mint" | "/api/mint/lazymint",
  user: TestUser | null,
  fields: Fields,
  file: Part | null,
  poster?: Part,
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const [name, part] of [
    ["file", file],
    ["poster", poster],
  ] as const)
    if (part)
      form.append(name, new Blob([part.bytes], { type: part.type ?? "application/octet-stream" }), part.name);
  const response = await fetch(`${api.url}${path}`, {
    method: "POST",
    headers: user ? { cookie: user.cookie } : {},
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as unknown };
}

/** Uploads `size` bytes that start with `head`, generated as they are sent (the test never holds them). */
async function streamedUpload(fields: Fields, head: Uint8Array, size: number) {
  const boundary = "easel-test-boundary";
  const encoder = new TextEncoder();
  async function* body() {
    for (const [key, value] of Object.entries(fields))
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
      );
    yield encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    yield head;
    const chunk = new Uint8Array(64 * 1024);
    for (let sent = head.length; sent < size; sent += chunk.length)
      yield chunk.subarray(0, Math.min(chunk.length, size - sent));
    yield encoder.encode(`\r\n--${boundary}--\r\n`);
  }
  const response = await fetch(`${api.url}/api/mint`, {
    method: "POST",
    headers: { cookie: users.artist.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: ReadableStream.from(body()),
    duplex: "half",
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as unknown };
}

async function mintOnChain(
  collection: `0x${string}`,
  uriCid: string,
  royaltyBps: number,
  split: { address: string; share: number }[],
) {
  const receipt = await d.send(artist, collection, easelCollectionAbi, "mintNFT", [
    royaltyBps,
    cidToHex(uriCid),
    split.map((c) => ({ account: c.address, share: c.share })),
  ]);
  const [minted] = parseEventLogs({ abi: easelCollectionAbi, logs: receipt.logs, eventName: "Minted" });
  await index();
  return (minted as unknown as { args: { tokenId: bigint } }).args.tokenId;
}

const pdfBytes = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set(new TextEncoder().encode("%PDF-1.4\n% Easel test document\n"));
  return bytes;
};

/** The first bytes of a WebM file (an EBML header whose DocType is "webm"), padded to `size`. */
const webmBytes = (size: number) => {
  const bytes = new Uint8Array(size);
  bytes.set([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]);
  bytes.set(new TextEncoder().encode("webm"), 12);
  return bytes;
};

/** A picture of `width` x `height` in one colour, as PNG. */
const solidPng = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

/** The RGB of the pixel at (x, y) of an image. */
async function pixelAt(bytes: Uint8Array, x: number, y: number) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 3;
  return [data[at], data[at + 1], data[at + 2]];
}

/** The thumbnail and previews (the page's and a phone's) the media store keeps for an artwork. */
async function stillsOf(mediaCid: string) {
  const { rows } = await scratch.db.execute<{
    thumbnail_cid: string;
    preview_cid: string | null;
    phone_preview_cid: string | null;
  }>(sql`SELECT thumbnail_cid, preview_cid, phone_preview_cid FROM media WHERE cid = ${mediaCid}`);
  const row = rows[0];
  if (!row) throw new Error(`no media row for ${mediaCid}`);
  return {
    thumbnail: await fetchBytes(`/ipfs/${row.thumbnail_cid}`),
    preview: row.preview_cid ? await fetchBytes(`/ipfs/${row.preview_cid}`) : null,
    phonePreview: row.phone_preview_cid ? await fetchBytes(`/ipfs/${row.phone_preview_cid}`) : null,
  };
}

// ---------------------------------------------------------------- CIDs and pinning

describe("content addresses", () => {
  it("match `ipfs add --cid-version 1 --raw-leaves` on known vectors", async () => {
    const store = new MediaStore(join(api.dir, "vectors"));
    // A single raw block: the CID is the SHA-256 of the bytes (the well-known "hello world" vector).
    expect(await store.add(new TextEncoder().encode("hello world"))).toBe(
      "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e",
    );
    // Past 256 KiB: 262,144-byte raw leaves under one dag-pb UnixFS file node (balanced, 174 links wide).
    const bytes = new Uint8Array(600_000).map((_, i) => i % 251);
    const leaves = [];
    for (let at = 0; at < bytes.length; at += 262_144) {
      const leaf = bytes.subarray(at, at + 262_144);
      leaves.push({ cid: CID.createV1(0x55, await sha256.digest(leaf)), size: leaf.length });
    }
    const file = new UnixFS({ type: "file", blockSizes: leaves.map((l) => BigInt(l.size)) });
    const root = dagPb.encode(
      dagPb.prepare({
        Data: file.marshal(),
        Links: leaves.map((l) => ({ Hash: l.cid, Name: "", Tsize: l.size })),
      }),
    );
    const expected = CID.createV1(0x70, await sha256.digest(root)).toString();
    expect(await store.add(bytes)).toBe(expected);
  });

  it("pins to a Kubo RPC API, sending its auth header, and refuses a node that answers another CID", async () => {
    const seen: { auth: string | undefined; query: string; size: number }[] = [];
    let lie = false;
    // A minimal Kubo: /api/v0/add reads the multipart file and answers the CID of its bytes.
    const kubo = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      const boundary = /boundary=(.+)$/.exec(request.headers["content-type"] ?? "")?.[1] ?? "";
      const start = raw.indexOf("\r\n\r\n") + 4;
      const end = raw.lastIndexOf(Buffer.from(`\r\n--${boundary}--`));
      const content = raw.subarray(start, end);
      seen.push({ auth: request.headers.authorization, query: request.url ?? "", size: content.length });
      let cid = "";
      for await (const entry of importer([{ content }], new MemoryBlockstore(), {
        cidVersion: 1,
        rawLeaves: true,
      }))
        cid = entry.cid.toString();
      response.setHeader("content-type", "application/json");
      response.end(
        `${JSON.stringify({ Name: "file", Hash: lie ? "bafkreiwrong" : cid, Size: String(content.length) })}\n`,
      );
    });
    await new Promise<void>((resolve) => kubo.listen(0, "127.0.0.1", resolve));
    try {
      const port = (kubo.address() as { port: number }).port;
      const pinner = kuboPinner({ url: new URL(`http://127.0.0.1:${port}`), auth: "Bearer pin-token" });
      const store = new MediaStore(join(api.dir, "pinned"), pinner);
      const bytes = new Uint8Array(700_000).map((_, i) => (i * 7) % 256);
      const cid = await store.add(bytes);
      expect(seen).toEqual([
        { auth: "Bearer pin-token", query: expect.stringContaining("cid-version=1"), size: 700_000 },
      ]);
      expect(seen[0]?.query).toContain("raw-leaves=true");
      expect(cid).toMatch(/^bafy/);
      lie = true;
      await expect(store.add(new TextEncoder().encode("another file"))).rejects.toThrow(PinError);
    } finally {
      kubo.close();
    }
  });
});

// ---------------------------------------------------------------- uploads refused

describe("POST /api/mint refuses", () => {
  it("visitors, and signed-in users who are not verified artists (the session says who may mint)", async () => {
    const permission = async (user: TestUser) =>
      (await api.call<{ profile: { permission: { mint: boolean } } }>("GET", "/api/auth/session", { user }))
        .body.profile.permission.mint;
    expect(await permission(users.artist)).toBe(true);
    expect(await permission(users.alice)).toBe(false);
    const file = { bytes: await jpegWithGps(), name: "a.jpg" };
    expect((await upload("/api/mint", null, standardFields(), file)).status).toBe(401);
    expectError(await upload("/api/mint", users.alice, standardFields(), file), 403, {
      message: MINT_MESSAGES.notArtist,
    });
  });

  it("disguised, broken and oversized files, leaving no file behind", async () => {
    const before = filesUnder(mediaDir()).length;
    const exe = new Uint8Array(4096);
    exe.set([0x4d, 0x5a, 0x90, 0x00]); // "MZ": a Windows program
    expectError(
      await upload("/api/mint", users.artist, standardFields(), {
        bytes: exe,
        name: "cat.png",
        type: "image/png",
      }),
      400,
      {
        field: "file",
        message: MINT_MESSAGES.fileType,
      },
    );
    const html = new TextEncoder().encode("<html><script>alert(1)</script></html>");
    expectError(
      await upload("/api/mint", users.artist, standardFields(), { bytes: html, name: "a.png" }),
      400,
      {
        field: "file",
        message: MINT_MESSAGES.fileType,
      },
    );
    const jpeg = await jpegWithGps();
    const truncated = jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
    expectError(
      await upload("/api/mint", users.artist, standardFields(), { bytes: truncated, name: "cut.jpg" }),
      400,
      {
        field: "file",
        message: MINT_MESSAGES.fileBroken,
      },
    );
    const png = await sharp({ create: { width: 300, height: 300, channels: 4, background: "#3366ff" } })
      .png()
      .toBuffer();
    expectError(
      await upload("/api/mint", users.artist, standardFields(), {
        bytes: png.subarray(0, png.length - 30),
        name: "cut.png",
      }),
      400,
      { field: "file", message: MINT_MESSAGES.fileBroken },
    );
    expectError(await upload("/api/mint", users.artist, standardFields(), null), 400, {
      field: "file",
      message: MINT_MESSAGES.fileRequired,
    });
    const mp4Head = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom"), 0, 0, 2, 0]);
    expectError(await streamedUpload(standardFields(), mp4Head, MINT_FILE_MAX_BYTES + 1024 * 1024), 413, {
      field: "file",
      message: MINT_MESSAGES.fileTooLarge,
    });
    expect(filesUnder(mediaDir()).length).toBe(before);
    expect(filesUnder(uploadsDir())).toEqual([]);
  });

  it("bad fields with the spec's messages, before storing anything", async () => {
    const before = filesUnder(mediaDir()).length;
    const file = { bytes: await jpegWithGps(), name: "a.jpg" };
    const cases: [Fields, string, string][] = [
      [{ name: "" }, "name", MINT_MESSAGES.nameRequired],
      [{ name: "x".repeat(51) }, "name", MINT_MESSAGES.nameMax],
      [{ name: "Тест" }, "name", MINT_MESSAGES.english],
      [{ royalty: "21" }, "royalty", MINT_MESSAGES.royaltyMax],
      [{ royalty: "-1" }, "royalty", MINT_MESSAGES.royaltyMin],
      [{ royalty: "" }, "royalty", MINT_MESSAGES.royaltyRequired],
      [{ description: "ab" }, "description", MINT_MESSAGES.descriptionRequired],
      [{ description: "x".repeat(1501) }, "description", MINT_MESSAGES.descriptionOver],
      [{ tags: JSON.stringify(["1", "2", "3", "4", "5", "6", "7", "8"]) }, "tags", MINT_MESSAGES.tagsMax],
      [{ collection: "" }, "collection", MINT_MESSAGES.collectionRequired],
      [{ collection: night }, "collection", MINT_MESSAGES.standardCollectionRequired],
      [{ category_web2_id: String(photography) }, "collection", MINT_MESSAGES.collectionRequired],
      [
        {
          _collaborators: JSON.stringify([
            { address: artist.address, share: 50 },
            { address: bob.address, share: 51 },
          ]),
        },
        "_collaborators",
        MINT_MESSAGES.shareStep,
      ],
      [
        {
          _collaborators: JSON.stringify([
            { address: artist.address, share: 50 },
            { address: bob.address, share: 55 },
          ]),
        },
        "_collaborators",
        MINT_MESSAGES.totalAbove,
      ],
      [
        {
          _collaborators: JSON.stringify([
            { address: bob.address, share: 50 },
            { address: artist.address, share: 50 },
          ]),
        },
        "_collaborators",
        MINT_MESSAGES.firstIsCreator,
      ],
      [
        {
          _collaborators: JSON.stringify([
            { address: artist.address, share: 50 },
            { address: artist.address, share: 50 },
          ]),
        },
        "_collaborators",
        MINT_MESSAGES.duplicate,
      ],
    ];
    for (const [overrides, field, message] of cases) {
      expectError(await upload("/api/mint", users.artist, standardFields(overrides), file), 400, {
        field,
        message,
      });
    }
    // Someone else's collection.
    // (the factory creates collections for verified artists only: bob is one for the time it takes)
    await d.market(admin, "setArtistVerified", [bob.address, true]);
    const other = await d.createCollection(bob, "Not Yours", "NOPE", "painting");
    await d.market(admin, "setArtistVerified", [bob.address, false]);
    await index();
    expectError(await upload("/api/mint", users.artist, standardFields({ collection: other }), file), 400, {
      field: "collection",
      message: MINT_MESSAGES.notYourCollection,
    });
    expect(filesUnder(mediaDir()).length).toBe(before);
    expect(filesUnder(uploadsDir())).toEqual([]);
  });
});

// ---------------------------------------------------------------- uploads accepted

describe("minting", () => {
  it("strips EXIF and GPS without touching the pixels, writes valid ERC-721 metadata, and the item page shows the chain's token", async () => {
    const original = await jpegWithGps();
    expect(original.includes(Buffer.from("Secret Model X"))).toBe(true);
    const split = [
      { address: artist.address.toLowerCase(), share: 70 },
      { address: bob.address.toLowerCase(), share: 30 },
    ];
    const result = await upload(
      "/api/mint",
      users.artist,
      standardFields({ _collaborators: JSON.stringify(split) }),
      { bytes: original, name: "dawn.jpg" },
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const { newNft } = (result.body as MintResponse).data;
    expect(newNft.collaborators).toEqual(split);
    expect(filesUnder(uploadsDir())).toEqual([]);

    // The metadata JSON, from our gateway, against the ERC-721 metadata JSON schema.
    const metadata = await metadataOf(newNft.uri_cid);
    const validate = new Ajv({ strict: false }).compile(ERC721_METADATA_SCHEMA);
    expect(validate(metadata), JSON.stringify(validate.errors)).toBe(true);
    expect(metadata).toMatchObject({
      name: "Harbour at Dawn",
      description: "Oil on canvas, painted at first light.",
      image: expect.stringMatching(/^ipfs:\/\/bafk/),
      external_url: expect.stringMatching(/\/api\/nft\/link\/[0-9a-f-]{36}$/),
      attributes: [
        { trait_type: "Category", value: "Painting" },
        { trait_type: "Tag", value: "sea" },
        { trait_type: "Tag", value: "dawn" },
      ],
      properties: { creator: artist.address.toLowerCase(), collaborators: split, royalty: 10 },
    });
    expect(metadata.animation_url).toBeUndefined();

    // The stored image: no EXIF, no GPS, no camera; the compressed scan data byte for byte the same.
    const stored = await fetchBytes(`/${String(metadata.image).replace("ipfs://", "ipfs/")}`);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(stored.includes(Buffer.from("Exif"))).toBe(false);
    expect(stored.includes(Buffer.from("Secret Model X"))).toBe(false);
    expect(jpegScan(stored).equals(jpegScan(original))).toBe(true);

    // Not an item until the chain says so.
    const tokenId = await mintOnChain(studio, newNft.uri_cid, 1000, split);
    const page = await api.call<ItemResponse>(
      "GET",
      `/api/nft?creator=${artist.address}&collection=${encodeURIComponent("Studio Works")}&tokenId=${tokenId}`,
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const { nft, nftCollection, activity } = page.body.data;
    expect(nft).toMatchObject({
      tokenId: String(tokenId),
      name: "Harbour at Dawn",
      status: "minted",
      lazy: false,
      category: "Painting",
      royalty: 10,
      tags: ["sea", "dawn"],
      uri_cid: newNft.uri_cid,
      owner: { address: artist.address.toLowerCase() },
      creator: { address: artist.address.toLowerCase() },
      collaborators: [
        { address: artist.address.toLowerCase(), share: 70 },
        { address: bob.address.toLowerCase(), share: 30 },
      ],
      media: { mime: "image/jpeg", width: 64, height: 48 },
    });
    expect(nft.media?.thumbnail).toBeTruthy();
    // The page's picture in two sizes for its srcset, a phone's copy first (a small picture is enlarged by a
    // whole factor: 10 and 18 times).
    const phone = (await stillsOf(String(nft.media?.cid))).phonePreview as Buffer;
    expect(nft.media?.stills).toEqual([
      { cid: await new MediaStore(join(api.dir, "expected")).add(phone), width: 640 },
      { cid: nft.media?.preview, width: 1152 },
    ]);
    // Media minted before phone copies were made show the preview alone.
    await scratch.db.execute(
      sql`UPDATE media SET phone_preview_cid = NULL WHERE cid = ${String(nft.media?.cid)}`,
    );
    const older = await api.call<ItemResponse>(
      "GET",
      `/api/nft?creator=${artist.address}&collection=${encodeURIComponent("Studio Works")}&tokenId=${tokenId}`,
    );
    expect(older.body.data.nft.media).toMatchObject({ preview: nft.media?.preview, stills: [] });
    expect(nft.description_ui?.paragraphs[0]?.runs[1]).toEqual({
      text: "painted at first light.",
      bold: true,
    });
    expect(nftCollection).toMatchObject({
      contract_address: studio.toLowerCase(),
      slug: "Studio Works",
      kind: "standard",
    });
    expect(activity.map((a) => a.kind)).toContain("mint");

    // Cards show the artwork's name and thumbnail.
    const explore = await api.call<ExploreItemsResponse>("GET", `/api/explore?collection=${studio}`);
    const card = explore.body.data.nfts.find((n) => n.tokenId === String(tokenId));
    expect(card).toMatchObject({
      name: "Harbour at Dawn",
      image_cid: nft.media?.thumbnail,
      category: "Painting",
    });

    // The metadata's external_url leads to the item page.
    const link = await api.call("GET", new URL(metadata.external_url).pathname);
    expect(link.status).toBe(302);
    expect(link.headers.get("location")).toBe(`/${artist.address.toLowerCase()}/Studio%20Works/${tokenId}`);

    // Burned: not found.
    await d.collection(artist, studio, "burnNFT", [tokenId]);
    await index();
    const burned = await api.call(
      "GET",
      `/api/nft?creator=${artist.address}&collection=Studio%20Works&tokenId=${tokenId}`,
    );
    expect(burned.status).toBe(404);
  });

  it("stores a PDF as uploaded with a placeholder image, in the default collection (no category)", async () => {
    const bytes = pdfBytes(300_000);
    const result = await upload(
      "/api/mint",
      users.artist,
      standardFields({ collection: defaultCollection, name: "Field Notes" }),
      { bytes, name: "notes.pdf" },
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const { newNft } = (result.body as MintResponse).data;
    const metadata = await metadataOf(newNft.uri_cid);
    const expected = await new MediaStore(join(api.dir, "expected")).add(bytes);
    expect(metadata.animation_url).toBe(`ipfs://${expected}`);
    expect(metadata.attributes).toEqual([
      { trait_type: "Tag", value: "sea" },
      { trait_type: "Tag", value: "dawn" },
    ]);
    const stored = await fetchBytes(`/ipfs/${expected}`);
    expect(stored.equals(Buffer.from(bytes))).toBe(true);
    const tokenId = await mintOnChain(defaultCollection, newNft.uri_cid, 0, []);
    const page = await api.call<ItemResponse>("GET", `/api/nft?creator=${artist.address}&tokenId=${tokenId}`);
    expect(page.status).toBe(200);
    expect(page.body.data.nft).toMatchObject({
      name: "Field Notes",
      category: "",
      media: { mime: "application/pdf" },
    });
    expect(page.body.data.nft.media?.thumbnail).toBeTruthy();
    // The default collection's items have no collection segment; other shapes are not found.
    expect(
      (
        await api.call(
          "GET",
          `/api/nft?creator=${artist.address}&collection=${defaultCollection}&tokenId=${tokenId}`,
        )
      ).status,
    ).toBe(404);
    expect((await api.call("GET", `/api/nft?creator=${bob.address}&tokenId=${tokenId}`)).status).toBe(404);
    expect((await api.call("GET", `/api/nft?creator=foo&collection=bar&tokenId=1`)).status).toBe(404);
    expect((await api.call("GET", `/api/nft?creator=${artist.address}&tokenId=999`)).status).toBe(404);
  });

  it("keeps the API's memory flat while a 50 MB upload streams through", async () => {
    // Live memory only: a full collection before each sample, so garbage not yet collected does not count.
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const live = async () => {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      const m = process.memoryUsage();
      return { heap: m.heapUsed, buffers: m.arrayBuffers };
    };
    const mp4Head = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom"), 0, 0, 2, 0]);
    const baseline = await live();
    let peak = { heap: 0, buffers: 0 };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const now = await live();
        peak = {
          heap: Math.max(peak.heap, now.heap - baseline.heap),
          buffers: Math.max(peak.buffers, now.buffers - baseline.buffers),
        };
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const result = await streamedUpload(standardFields({ name: "Tide Film" }), mp4Head, MINT_FILE_MAX_BYTES);
    sampling = false;
    await sampler;
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    // The test and the API share this process; a body read whole into memory would add all 50 MB.
    console.log(
      `50 MB upload: peak live growth: heap ${(peak.heap / 1024 / 1024).toFixed(1)} MB, buffers ${(peak.buffers / 1024 / 1024).toFixed(1)} MB`,
    );
    expect(peak.heap + peak.buffers).toBeLessThan(16 * 1024 * 1024);
  });
});

describe("posters and pixel art", () => {
  const cidOf = (uri: string | undefined) => String(uri).replace("ipfs://", "");

  it("shows a video's poster frame and a PDF's first page on their cards, the file as animation_url", async () => {
    for (const [name, file, colour, rgb] of [
      ["Night Loop", { bytes: webmBytes(20_000), name: "loop.webm" }, "#1d4ed8", [29, 78, 216]],
      ["Sketchbook", { bytes: pdfBytes(20_000), name: "book.pdf" }, "#b45309", [180, 83, 9]],
    ] as const) {
      const poster = await solidPng(480, 270, colour);
      const result = await upload("/api/mint", users.artist, standardFields({ name }), file, {
        bytes: poster,
        name: "poster.png",
        type: "image/png",
      });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      const { newNft } = (result.body as MintResponse).data;
      const metadata = await metadataOf(newNft.uri_cid);
      // OpenSea's metadata standard: `image` a still, `animation_url` the video or document itself.
      expect(cidOf(metadata.animation_url)).toBe(
        await new MediaStore(join(api.dir, "expected")).add(file.bytes),
      );
      const image = await fetchBytes(`/ipfs/${cidOf(metadata.image)}`);
      expect(await sharp(image).metadata()).toMatchObject({ format: "png", width: 480, height: 270 });
      expect(await pixelAt(image, 10, 10)).toEqual(rgb);
      // The card's thumbnail and the page's preview are made from the poster, not the grey tile.
      const { thumbnail, preview, phonePreview } = await stillsOf(cidOf(metadata.animation_url));
      expect(await sharp(thumbnail).metadata()).toMatchObject({ format: "webp", width: 400, height: 225 });
      // The 480 px poster is a phone's copy as it is; the page's preview doubles it.
      expect(await sharp(phonePreview as Buffer).metadata()).toMatchObject({ width: 480, height: 270 });
      expect(await sharp(preview as Buffer).metadata()).toMatchObject({ width: 960, height: 540 });
      for (const still of [thumbnail, preview as Buffer, phonePreview as Buffer]) {
        const [r, g, b] = (await pixelAt(still, 200, 100)) as number[];
        expect(
          Math.abs((r as number) - rgb[0]) +
            Math.abs((g as number) - rgb[1]) +
            Math.abs((b as number) - rgb[2]),
        ).toBeLessThan(12);
      }
      const tokenId = await mintOnChain(studio, newNft.uri_cid, 1000, []);
      const explore = await api.call<ExploreItemsResponse>("GET", `/api/explore?collection=${studio}`);
      const card = explore.body.data.nfts.find((n) => n.tokenId === String(tokenId));
      const cardImage = await fetchBytes(`/ipfs/${card?.image_cid}`);
      expect(cardImage.equals(thumbnail)).toBe(true);
    }
  });

  it("refuses a poster that is not an image, broken or over 10MB with a clear 400, storing nothing", async () => {
    const before = filesUnder(mediaDir()).length;
    const video = { bytes: webmBytes(20_000), name: "loop.webm" };
    const png = await solidPng(200, 200, "#16a34a");
    for (const poster of [
      {
        bytes: new TextEncoder().encode("<svg onload=alert(1)></svg>"),
        name: "poster.png",
        type: "image/png",
      },
      { bytes: pdfBytes(2000), name: "poster.pdf" },
      { bytes: png.subarray(0, png.length - 40), name: "cut.png" },
      { bytes: new Uint8Array(0), name: "empty.png" },
      { bytes: Buffer.concat([png, Buffer.alloc(MINT_POSTER_MAX_BYTES)]), name: "huge.png" },
    ])
      expectError(await upload("/api/mint", users.artist, standardFields(), video, poster), 400, {
        field: "poster",
        message: MINT_MESSAGES.posterInvalid,
      });
    // One poster only: a second file part beside the artwork and its poster is refused.
    const form = new FormData();
    for (const [key, value] of Object.entries(standardFields())) form.append(key, value);
    form.append("file", new Blob([video.bytes]), video.name);
    form.append("poster", new Blob([png]), "a.png");
    form.append("poster", new Blob([png]), "b.png");
    const twice = await fetch(`${api.url}/api/mint`, {
      method: "POST",
      headers: { cookie: users.artist.cookie },
      body: form,
    });
    expectError({ status: twice.status, body: await twice.json() }, 400, { code: "too_many_parts" });
    expect(filesUnder(mediaDir()).length).toBe(before);
    expect(filesUnder(uploadsDir())).toEqual([]);
    // An image makes its own thumbnail: a poster sent with it is not used, nor stored.
    const picture = await solidPng(64, 64, "#7c3aed");
    const withPoster = await upload(
      "/api/mint",
      users.artist,
      standardFields({ name: "Violet" }),
      { bytes: picture, name: "violet.png" },
      { bytes: new TextEncoder().encode("<html></html>"), name: "poster.png" },
    );
    expect(withPoster.status, JSON.stringify(withPoster.body)).toBe(200);
    const violet = await metadataOf((withPoster.body as MintResponse).data.newNft.uri_cid);
    expect(await pixelAt(await fetchBytes(`/ipfs/${cidOf(violet.image)}`), 1, 1)).toEqual([124, 58, 237]);
    expect(violet.animation_url).toBeUndefined();
    // Without a poster (an older client, or the browser could not draw a frame) it still mints, with the tile.
    const plain = await upload("/api/mint", users.artist, standardFields({ name: "No Poster" }), {
      bytes: webmBytes(20_001),
      name: "other.webm",
    });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    const metadata = await metadataOf((plain.body as MintResponse).data.newNft.uri_cid);
    const { thumbnail, preview, phonePreview } = await stillsOf(cidOf(metadata.animation_url));
    expect(cidOf(metadata.image)).toBe(await new MediaStore(join(api.dir, "expected")).add(thumbnail));
    expect(preview).toBeNull();
    expect(phonePreview).toBeNull();
  });

  it("enlarges a tiny pixel-art picture with nearest-neighbour: every pixel an exact block of its colour", async () => {
    // 4 x 4 pixels of 16 distinct colours.
    const colours = Array.from({ length: 16 }, (_, i) => [i * 16, 255 - i * 16, (i * 53) % 256]);
    const raw = Buffer.from(colours.flat());
    const sprite = await sharp(raw, { raw: { width: 4, height: 4, channels: 3 } })
      .png()
      .toBuffer();
    const result = await upload("/api/mint", users.artist, standardFields({ name: "Sprite" }), {
      bytes: sprite,
      name: "sprite.png",
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const metadata = await metadataOf((result.body as MintResponse).data.newNft.uri_cid);
    const { thumbnail, preview, phonePreview } = await stillsOf(cidOf(metadata.image));
    for (const [still, side] of [
      [thumbnail, 400],
      [phonePreview as Buffer, 640],
      [preview as Buffer, 1200],
    ] as const) {
      const { data, info } = await sharp(still).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([side, side]);
      const block = side / 4;
      // Each block's corners and centre have its source pixel's colour exactly (no blending at the edges).
      for (let i = 0; i < 16; i++) {
        const [bx, by] = [(i % 4) * block, Math.floor(i / 4) * block];
        for (const [x, y] of [
          [bx, by],
          [bx + block - 1, by],
          [bx, by + block - 1],
          [bx + block - 1, by + block - 1],
          [bx + block / 2, by + block / 2],
        ] as const) {
          const at = (y * info.width + x) * 3;
          expect([data[at], data[at + 1], data[at + 2]], `pixel ${x},${y}`).toEqual(colours[i]);
        }
      }
    }
  });
});

describe("lazy minting", () => {
  const lazyFields = (overrides: Fields = {}): Fields =>
    standardFields({
      category_web2_id: String(photography),
      collection: night,
      name: "Night Bus",
      price: parseEther("0.25").toString(),
      ...overrides,
    });

  it("refuses prices under the floor, standard collections and strangers", async () => {
    const file = { bytes: await jpegWithGps(), name: "a.jpg" };
    expectError(
      await upload(
        "/api/mint/lazymint",
        users.artist,
        lazyFields({ price: parseEther("0.04").toString() }),
        file,
      ),
      400,
      {
        field: "price",
        message: MINT_MESSAGES.priceMin,
      },
    );
    expectError(
      await upload(
        "/api/mint/lazymint",
        users.artist,
        lazyFields({ collection: studio, category_web2_id: String(painting) }),
        file,
      ),
      400,
      { field: "collection", message: MINT_MESSAGES.lazyCollectionRequired },
    );
    expectError(await upload("/api/mint/lazymint", users.alice, lazyFields(), file), 403, {
      message: MINT_MESSAGES.notArtist,
    });
  });

  it("lists items under distinct ids even when uploads race, up to the maximum supply", async () => {
    const file = { bytes: await jpegWithGps(), name: "a.jpg" };
    const results = await Promise.all(
      [0, 1, 2].map((i) =>
        upload("/api/mint/lazymint", users.artist, lazyFields({ name: `Night Bus ${i}` }), file),
      ),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
    const ids = results.map((r) => (r.body as MintResponse).data.newNft._id).sort();
    expect(ids).toEqual(["1", "2", "3"]);
    const first = (results[0]?.body as MintResponse | undefined)?.data.newNft ?? { _id: "", path: null };
    expect(first.path).toBe(`/${artist.address.toLowerCase()}/Night%20Shift/${first._id}`);

    // A lazy item has a page before any mint.
    const page = await api.call<ItemResponse>(
      "GET",
      `/api/nft?creator=${artist.address}&collection=Night%20Shift&tokenId=${first._id}`,
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.data.nft).toMatchObject({
      status: "lazy",
      lazy: true,
      priceWei: parseEther("0.25").toString(),
      owner: null,
      category: "Photography",
    });

    // A lazy item can be reported like any item; an id nobody listed cannot.
    const report = (tokenId: string) =>
      api.call("POST", "/api/reports", {
        user: users.bob,
        body: {
          reason: "Counterfeit Artwork",
          email: "bob@easel.test",
          description: "This looks copied from another artist.",
          targetType: "item",
          targetId: `${night.toLowerCase()}:${tokenId}`,
        },
      });
    expect((await report(first._id)).status).toBe(200);
    expect((await report("99")).status).toBe(400);

    // The fourth is the last one the collection holds; the fifth is refused and stores nothing.
    expect((await upload("/api/mint/lazymint", users.artist, lazyFields(), file)).status).toBe(200);
    const before = filesUnder(mediaDir()).length;
    expectError(
      await upload("/api/mint/lazymint", users.artist, lazyFields({ name: "One Too Many" }), file),
      400,
      {
        field: "collection",
        message: MINT_MESSAGES.collectionFull,
      },
    );
    expect(filesUnder(mediaDir()).length).toBe(before);
  });
});

describe("share previews", () => {
  it("answers item, collection and profile URLs with OpenGraph and Twitter card tags", async () => {
    const web = mkdtempSync(join(tmpdir(), "easel-web-"));
    writeFileSync(
      join(web, "index.html"),
      "<!doctype html><html><head><title>Easel</title></head><body><div id=root></div></body></html>",
    );
    const site = await startAccountsApi({ ...t.env(scratch.url), WEB_DIST: web });
    try {
      const html = async (path: string) => (await fetch(`${site.url}${path}`)).text();
      const item = await html(`/${artist.address.toLowerCase()}/Night%20Shift/1`);
      expect(item).toContain('<meta property="og:title" content="Night Bus');
      expect(item).toMatch(/<meta property="og:image" content="http:\/\/[^"]+\/ipfs\/bafk[a-z2-7]+"/);
      expect(item).toContain('<meta name="twitter:card" content="summary_large_image" />');
      expect(item).toContain(
        '<meta property="og:description" content="Oil on canvas, painted at first light." />',
      );
      expect(item).toMatch(/<title>Night Bus \d · Night Shift<\/title>/);
      const collection = await html("/collection/Studio%20Works");
      expect(collection).toContain('<meta property="og:title" content="Studio Works · Easel" />');
      await api.call("PUT", "/api/profile", {
        user: users.artist,
        body: { username: "harbourpainter", bio: "Sea & light <3" },
      });
      const profile = await html("/profile/harbourpainter");
      expect(profile).toContain('<meta property="og:description" content="Sea &amp; light &lt;3" />');
      // Anything else is the plain app.
      for (const path of ["/foo/bar", `/${artist.address.toLowerCase()}/Night%20Shift/999`, "/ExploreNFTs"]) {
        expect(await html(path)).not.toContain("og:title");
      }
    } finally {
      await site.close();
      rmSync(web, { recursive: true, force: true });
    }
  });
});

describe("lazy items: the buyer's voucher and the price edit", () => {
  it("unlists a lazy item 100 days after it was listed; a new price lists it again", async () => {
    const item = "3";
    const path = `/api/nft?creator=${artist.address}&collection=Night%20Shift&tokenId=${item}`;
    await api.db.execute(
      sql`UPDATE lazy_items SET updated_at = now() - interval '100 days 1 minute' WHERE collection = ${night.toLowerCase()} AND token_id = ${item}`,
    );
    expect((await api.call<ItemResponse>("GET", path)).body.data.nft).toMatchObject({
      status: "lazy",
      priceWei: null,
    });
    const ask = await api.call("POST", "/api/nft/buy-lazy-mint", {
      user: users.bob,
      body: { collection: night.toLowerCase(), nft_id: item },
    });
    expectError(ask, 400, { message: "This item is no longer for sale." });
    const edit = await api.call("PUT", "/api/nft/edit", {
      user: users.artist,
      body: { collection: night.toLowerCase(), nft_id: item, price: parseEther("0.2").toString() },
    });
    expect(edit.status).toBe(200);
    expect((await api.call<ItemResponse>("GET", path)).body.data.nft.priceWei).toBe(
      parseEther("0.2").toString(),
    );
  });

  it("lets the creator change the price, and a buyer mint with a voucher made for them alone", async () => {
    const item = "2";
    const edit = (user: TestUser, price: bigint) =>
      api.call("PUT", "/api/nft/edit", {
        user,
        body: { collection: night.toLowerCase(), nft_id: item, price: price.toString() },
      });
    expectError(await edit(users.bob, parseEther("0.3")), 403, { message: LAZY_EDIT_MESSAGES.notYours });
    expectError(await edit(users.artist, parseEther("0.01")), 400, {
      field: "price",
      message: "Price must be at least 0.05 ETH",
    });
    expect((await edit(users.artist, parseEther("0.3"))).status).toBe(200);

    const ask = (user: TestUser, nftId = item) =>
      api.call<LazyMintVoucherResponse>("POST", "/api/nft/buy-lazy-mint", {
        user,
        body: { collection: night.toLowerCase(), nft_id: nftId },
      });
    expect((await ask(users.artist)).status).toBe(403);
    expect((await ask(users.bob, "99")).status).toBe(404);
    const { body, status } = await ask(users.bob);
    expect(status, JSON.stringify(body)).toBe(200);
    const v = body.data.voucher;
    expect(v.price).toBe(parseEther("0.3").toString());
    expect(Number(v.deadline) - Date.now() / 1000).toBeLessThanOrEqual(600);
    const args = [
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
    ];
    // Asked again while it is good, bob gets the same voucher: one open voucher per buyer.
    expect((await ask(users.bob)).body.data.voucher).toEqual(v);
    // Made for bob: alice cannot use it.
    await expect(
      d.send(alice, night, easelCollectionAbi, "lazyMint", args, BigInt(v.price)),
    ).rejects.toThrow();
    await d.send(bob, night, easelCollectionAbi, "lazyMint", args, BigInt(v.price));
    await index();
    const page = await api.call<ItemResponse>(
      "GET",
      `/api/nft?creator=${artist.address}&collection=Night%20Shift&tokenId=${item}`,
    );
    expect(page.body.data.nft).toMatchObject({
      status: "minted",
      lazy: true,
      owner: { address: bob.address.toLowerCase() },
      uri_cid: expect.stringMatching(/^bafk/),
      media: { mime: "image/jpeg" },
    });
    expect(page.body.data.priceHistory).toEqual([
      expect.objectContaining({ priceWei: parseEther("0.3").toString(), kind: "lazy-mint" }),
    ]);
    // Minted: no more vouchers or price edits.
    expect((await ask(users.bob)).status).toBe(404);
    expect((await edit(users.artist, parseEther("0.4"))).status).toBe(404);
  });

  it("gives no voucher the collection would refuse: an unverified creator, a banned collaborator, a blocked id", async () => {
    const item = "3";
    const ask = () =>
      api.call<LazyMintVoucherResponse>("POST", "/api/nft/buy-lazy-mint", {
        user: users.bob,
        body: { collection: night.toLowerCase(), nft_id: item },
      });
    const onChain = async (fn: string, args: readonly unknown[]) => {
      await d.market(admin, fn, args);
      await index();
    };
    // The creator verified no more (or banned): the lazy mint would revert, so the buyer pays no gas for it.
    await onChain("setArtistVerified", [artist.address, false]);
    expectError(await ask(), 403, { code: "creator_not_artist", message: /not a verified artist/ });
    await onChain("setArtistVerified", [artist.address, true]);
    await onChain("setBanned", [artist.address, true]);
    expect((await ask()).status).toBe(403);
    await onChain("setBanned", [artist.address, false]);

    // A split with a banned collaborator.
    const split = JSON.stringify([
      { address: artist.address.toLowerCase(), share: 50 },
      { address: alice.address.toLowerCase(), share: 50 },
    ]);
    await api.db.execute(sql`UPDATE item_metadata m SET collaborators = ${split}::jsonb FROM lazy_items l
      WHERE m.cid = l.metadata_cid AND l.collection = ${night.toLowerCase()} AND l.token_id = ${item}`);
    await onChain("setBanned", [alice.address, true]);
    expectError(await ask(), 403, { code: "collaborator_banned", message: /collaborators is banned/ });
    await onChain("setBanned", [alice.address, false]);
    expect((await ask()).status).toBe(200);

    // The operator blocked this id before anyone minted it.
    await onChain("setTokenBlocked", [night, BigInt(item), true]);
    expect((await ask()).status).toBe(404);
    await onChain("setTokenBlocked", [night, BigInt(item), false]);
    expect((await ask()).status).toBe(200);
  });
});

/** The ERC-721 metadata JSON schema (EIP-721, "ERC721 Metadata JSON Schema"), with `image` as a URI. */
const ERC721_METADATA_SCHEMA = {
  title: "Asset Metadata",
  type: "object",
  required: ["name", "description", "image"],
  properties: {
    name: { type: "string", description: "Identifies the asset to which this NFT represents" },
    description: { type: "string", description: "Describes the asset to which this NFT represents" },
    image: {
      type: "string",
      pattern: "^ipfs://[a-z2-7]+$",
      description: "A URI pointing to a resource with mime type image/*",
    },
    animation_url: { type: "string", pattern: "^ipfs://[a-z2-7]+$" },
    external_url: { type: "string", pattern: "^https?://" },
    attributes: {
      type: "array",
      items: {
        type: "object",
        required: ["trait_type", "value"],
        properties: { trait_type: { type: "string" }, value: { type: ["string", "number"] } },
      },
    },
  },
};
