/**
 * Attacks on the IPFS gateway (`/ipfs/`), each refused: against a real HTTP server and PostgreSQL, with the
 * media store on disk as the API writes it (and as older code wrote it).
 */
import { createHash } from "node:crypto";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import type { MediaUploadResponse } from "@easel/common";
import * as dagPb from "@ipld/dag-pb";
import { FsBlockstore } from "blockstore-fs";
import { UnixFS } from "ipfs-unixfs";
import { importer } from "ipfs-unixfs-importer";
import { balanced } from "ipfs-unixfs-importer/layout";
import { CID } from "multiformats/cid";
import { sha256 } from "multiformats/hashes/sha2";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { media } from "../src/db/schema.ts";
import { IPFS_REQUESTS_PER_MINUTE } from "../src/routes/media.ts";
import { type AccountsApi, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

const RAW = 0x55;
const DAG_PB = 0x70;
const CHUNK = 262_144;

let api: AccountsApi;
let user: TestUser;
beforeAll(async () => {
  api = await startAccountsApi();
  user = await api.signIn();
});
afterAll(() => api?.close());

const rawCid = async (bytes: Uint8Array) => CID.createV1(RAW, await sha256.digest(bytes));
const nodeCid = async (bytes: Uint8Array) => CID.createV1(DAG_PB, await sha256.digest(bytes));

/** A UnixFS file node linking to `links`, each said to hold `blockSize` bytes of the file. */
function fileNode(links: CID[], blockSize: number, data = new Uint8Array()): Uint8Array {
  const file = new UnixFS({ type: "file", blockSizes: links.map(() => BigInt(blockSize)), data });
  return dagPb.encode({ Data: file.marshal(), Links: links.map((Hash) => ({ Hash })) });
}

/** A node of exactly `size` bytes holding as many links to `leaf` as fit (file data pads it to the byte). */
function nodeOfExactSize(size: number, leaf: CID, blockSize: number): Uint8Array {
  for (let count = Math.floor(size / 44); count > 0; count--) {
    const links = new Array<CID>(count).fill(leaf);
    const base = fileNode(links, blockSize).length;
    if (base > size) continue;
    for (let pad = Math.max(0, size - base - 8); pad <= size - base; pad++) {
      const node = fileNode(links, blockSize, new Uint8Array(pad));
      if (node.length === size) return node;
    }
  }
  throw new Error(`no node of ${size} bytes`);
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The attack: a 0.6 MB PNG that decodes, whose second 256 KiB chunk (a private ancillary chunk's data, kept by
 * the metadata strip) is a dag-pb node with thousands of links to the file's first chunk. As raw leaves they
 * are a picture; named as dag-pb, the second chunk claimed a 1.5 GB file.
 */
async function craftedPicture() {
  const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#884422" } })
    .png()
    .toBuffer();
  const head = plain.subarray(0, 33); // signature and IHDR
  const rest = plain.subarray(33); // IDAT … IEND
  const dataStart = head.length + 8;
  const tail = 40_000;
  const dataLength = 2 * CHUNK - dataStart + tail;
  // The first chunk depends only on the private chunk's length: its CID is known before the node is made.
  const first = Buffer.alloc(CHUNK);
  head.copy(first);
  first.writeUInt32BE(dataLength, head.length);
  first.write("prVt", head.length + 4, "latin1");
  const node = nodeOfExactSize(CHUNK, await rawCid(first), CHUNK);
  const data = Buffer.alloc(dataLength);
  data.set(node, CHUNK - dataStart);
  const file = Buffer.concat([head, pngChunk("prVt", data), rest]);
  expect(file.subarray(0, CHUNK).equals(first)).toBe(true);
  return { file, node, alias: await nodeCid(file.subarray(CHUNK, 2 * CHUNK)) };
}

async function uploadPicture(bytes: Uint8Array) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "image/png" }), "art.png");
  const response = await fetch(`${api.url}/api/profile/media_uploader`, {
    method: "POST",
    headers: { cookie: user.cookie },
    body: form,
  });
  const body = (await response.json()) as MediaUploadResponse;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return CID.parse(body.data.cid);
}

/** The status and at most `limit` bytes of an answer; the rest is never read. */
async function answer(path: string, limit = 64 * 1024 * 1024, headers: Record<string, string> = {}) {
  const response = await fetch(`${api.url}${path}`, { headers });
  let bytes = 0;
  let complete = true;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
      if (bytes > limit) {
        complete = false;
        await reader.cancel();
        break;
      }
    }
  } catch {
    complete = false;
  }
  return { status: response.status, bytes, complete };
}

/** Writes blocks as older code did (the blockstore alone, by multihash) and names `root` as an upload's file. */
async function storeAsOlderCode(blocks: { cid: CID; bytes: Uint8Array }[], root: CID, size: number) {
  const store = new FsBlockstore(join(api.dir, "ipfs"));
  await store.open();
  for (const block of blocks) await store.put(block.cid, block.bytes);
  await api.db
    .insert(media)
    .values({ cid: root.toString(), mime: "application/octet-stream", size, uploader: user.address })
    .onConflictDoNothing();
}

describe("uploaded bytes are never read as link nodes", () => {
  it("answers 404 for an uploaded chunk named as dag-pb, in every format, and serves the picture itself at its size", async () => {
    const { file, node, alias } = await craftedPicture();
    expect(dagPb.decode(node).Links.length).toBeGreaterThan(5_000);
    const root = await uploadPicture(file);
    expect(root.code).toBe(DAG_PB);

    for (const path of [
      `/ipfs/${alias}?format=car`,
      `/ipfs/${alias}?format=car&car-dups=y`,
      `/ipfs/${alias}?format=raw`,
      `/ipfs/${alias}`,
    ]) {
      const result = await answer(path, file.length);
      expect(result.status, path).toBe(404);
      expect(result.bytes, path).toBeLessThan(1_000);
    }
    // The picture's own DAG: its three leaves and root, no larger than the file and its node.
    for (const query of ["format=car", "format=car&car-dups=y"]) {
      const car = await answer(`/ipfs/${root}?${query}`, 2 * file.length);
      expect(car.status).toBe(200);
      expect(car.complete).toBe(true);
      expect(car.bytes).toBeGreaterThan(file.length);
      expect(car.bytes).toBeLessThan(file.length + 1_000);
    }
    const plain = await fetch(`${api.url}/ipfs/${root}`);
    expect(plain.status).toBe(200);
    expect(Buffer.from(await plain.arrayBuffer()).equals(file)).toBe(true);
  }, 60_000);

  it("never sends more than the file a root names and its nodes, whatever the blocks below it say", async () => {
    // A root of an older store that says 1,000 bytes but links 40 times to a 256 KiB leaf: 10 MB as a CAR.
    const leaf = new Uint8Array(CHUNK).map((_, i) => (i * 7) & 255);
    const leafCid = await rawCid(leaf);
    const liar = new UnixFS({ type: "file", blockSizes: new Array(40).fill(25n) });
    const bytes = dagPb.encode({ Data: liar.marshal(), Links: new Array(40).fill({ Hash: leafCid }) });
    const root = await nodeCid(bytes);
    await storeAsOlderCode(
      [
        { cid: leafCid, bytes: leaf },
        { cid: root, bytes },
      ],
      root,
      1_000,
    );
    for (const path of [`/ipfs/${root}?format=car&car-dups=y`, `/ipfs/${root}?format=car`, `/ipfs/${root}`]) {
      const result = await answer(path, 1024 * 1024);
      expect(result.status, path).not.toBeGreaterThanOrEqual(500);
      expect(result.bytes, path).toBeLessThan(1_000 + 1024 + 1_000);
    }
    // The API goes on answering.
    expect((await fetch(`${api.url}/ipfs/${leafCid}?format=raw`)).status).toBe(200);
  }, 30_000);

  it("stops a walk when the client hangs up: nothing more is read than the block in hand", async () => {
    // 170 links to one node of 170 links to one 1,000-byte leaf: with dups=n, 28,900 reads of the same two
    // blocks that send nothing, so the walk went on long after the client left.
    const leaf = new Uint8Array(1_000).fill(7);
    const leafCid = await rawCid(leaf);
    const inner = fileNode(new Array(170).fill(leafCid), 1_000);
    const innerCid = await nodeCid(inner);
    const outer = fileNode(new Array(170).fill(innerCid), 170_000);
    const root = await nodeCid(outer);
    await storeAsOlderCode(
      [
        { cid: leafCid, bytes: leaf },
        { cid: innerCid, bytes: inner },
        { cid: root, bytes: outer },
      ],
      root,
      170 * 170_000,
    );
    const reads = vi.spyOn(FsBlockstore.prototype, "get");
    try {
      // Hang up (the socket closes) once the three blocks are in: the rest of the walk sends nothing new.
      const { port } = new URL(api.url);
      await new Promise<void>((resolve, reject) => {
        const request = httpRequest(
          { host: "127.0.0.1", port, path: `/ipfs/${root}?format=car` },
          (response) => {
            expect(response.statusCode).toBe(200);
            let received = 0;
            response.on("data", (chunk: Buffer) => {
              received += chunk.length;
              if (received >= outer.length + inner.length + leaf.length) {
                request.destroy();
                resolve();
              }
            });
            response.on("end", () => resolve());
          },
        );
        request.on("error", (error) => (request.destroyed ? resolve() : reject(error)));
        request.end();
      });
      const atHangUp = reads.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(reads.mock.calls.length - atHangUp).toBeLessThanOrEqual(1);
      // Every block at most once in all, dups=n.
      expect(reads.mock.calls.length).toBeLessThan(10);
    } finally {
      reads.mockRestore();
    }
  }, 30_000);
});

describe("undecodable DAGs", () => {
  it("answers 404 for a dag-pb root whose Data is not UnixFS, and ends a CAR cleanly at such a node below", async () => {
    const garbage = dagPb.encode({ Data: new Uint8Array([0x08, 0x63, 0xff, 0xff]), Links: [] });
    const bad = await nodeCid(garbage);
    await storeAsOlderCode([{ cid: bad, bytes: garbage }], bad, 4);
    for (const path of [
      `/ipfs/${bad}?format=car`,
      `/ipfs/${bad}?format=car&dag-scope=block`,
      `/ipfs/${bad}`,
    ]) {
      const result = await answer(path);
      expect(result.status, path).toBe(404);
    }

    const above = fileNode([bad], 10);
    const aboveCid = await nodeCid(above);
    await storeAsOlderCode([{ cid: aboveCid, bytes: above }], aboveCid, 10);
    const car = await answer(`/ipfs/${aboveCid}?format=car`);
    // The root is fine, so the answer began as a 200; the stream ends before the bad node.
    expect(car.status).toBe(200);
    expect(car.bytes).toBeLessThan(200);
    expect((await fetch(`${api.url}/ipfs/${aboveCid}?format=car&dag-scope=block`)).status).toBe(200);
  });
});

describe("a store written by older code", () => {
  it("still serves its files, their CARs and their nodes once the database names the file", async () => {
    // Four leaves under two nodes under the root (three to a node): the nodes of a large file, made small.
    const bytes = new Uint8Array(4 * CHUNK - 1_000).map((_, i) => (i * 13 + (i >> 12)) & 255);
    const older = new FsBlockstore(join(api.dir, "ipfs"));
    await older.open();
    let root: CID | undefined;
    for await (const entry of importer([{ content: bytes }], older, {
      cidVersion: 1,
      rawLeaves: true,
      layout: balanced({ maxChildrenPerNode: 3 }),
    }))
      root = entry.cid as CID;
    if (!root) throw new Error("no root");
    const rootBlock = dagPb.decode(await collect(older.get(root)));
    const inner = rootBlock.Links.map((link) => link.Hash).find((cid) => cid.code === DAG_PB);
    if (!inner) throw new Error("expected an inner node");
    // Before the database names it, a node is a chunk like any other.
    expect((await fetch(`${api.url}/ipfs/${root}?format=raw`)).status).toBe(404);
    await api.db
      .insert(media)
      .values({ cid: root.toString(), mime: "video/mp4", size: bytes.length, uploader: user.address });

    const plain = await fetch(`${api.url}/ipfs/${root}`);
    expect(plain.status).toBe(200);
    expect(Buffer.from(await plain.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    const car = await answer(`/ipfs/${root}?format=car&car-dups=y`);
    expect(car).toMatchObject({ status: 200, complete: true });
    expect(car.bytes).toBeGreaterThan(bytes.length);
    expect((await fetch(`${api.url}/ipfs/${inner}?format=raw`)).status).toBe(200);
  });
});

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

describe("the gateway's per-address limit", () => {
  it(`answers ${IPFS_REQUESTS_PER_MINUTE} requests a minute from one address, then 429`, async () => {
    const fresh = await startAccountsApi();
    try {
      const statuses: number[] = [];
      for (let sent = 0; sent < IPFS_REQUESTS_PER_MINUTE; sent += 25) {
        const batch = Array.from({ length: Math.min(25, IPFS_REQUESTS_PER_MINUTE - sent) }, async () => {
          const response = await fetch(`${fresh.url}/ipfs/bafkqaaa?format=raw`);
          await response.arrayBuffer();
          return response.status;
        });
        statuses.push(...(await Promise.all(batch)));
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(IPFS_REQUESTS_PER_MINUTE);
      const refused = await fetch(`${fresh.url}/ipfs/bafkqaaa?format=raw`);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    } finally {
      await fresh.close();
    }
  }, 60_000);
});

describe("with MEDIA_PUBLIC_URL, the site serves no user file", () => {
  it("answers the site's /ipfs/ with 308 to the media origin, path and query kept; the media origin's requests are served", async () => {
    const mediaOrigin = "https://media.easelcontent.test";
    const site = await startAccountsApi({ MEDIA_PUBLIC_URL: `${mediaOrigin}/` });
    try {
      const member = await site.signIn();
      const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#336699" } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "me.png");
      const uploaded = (await (
        await fetch(`${site.url}/api/profile/media_uploader`, {
          method: "POST",
          headers: { cookie: member.cookie },
          body: form,
        })
      ).json()) as MediaUploadResponse;
      const { port } = new URL(site.url);
      // The browser on the site: Host is PUBLIC_URL's (127.0.0.1:3000 in the tests).
      for (const path of [uploaded.data.path, `${uploaded.data.path}?format=car&car-dups=y`]) {
        const answer = await new Promise<{ status: number; location: string | undefined }>(
          (resolve, reject) => {
            httpRequest(
              { host: "127.0.0.1", port, path, headers: { host: "127.0.0.1:3000" } },
              (response) => {
                response.resume();
                resolve({ status: response.statusCode ?? 0, location: response.headers.location });
              },
            )
              .on("error", reject)
              .end();
          },
        );
        expect(answer, path).toEqual({ status: 308, location: `${mediaOrigin}${path}` });
      }
      // The item page's check fetches CARs from the site, which sends it there: the page may connect to it.
      const policy = (await site.call("GET", "/api/config")).headers.get("content-security-policy") ?? "";
      expect(policy.split(";").find((d) => d.trim().startsWith("connect-src"))).toContain(mediaOrigin);
      // The media origin's proxy forwards under another Host: the file itself.
      const served = await fetch(`${site.url}${uploaded.data.path}`, { redirect: "manual" });
      expect(served.status).toBe(200);
      expect(
        createHash("sha256")
          .update(Buffer.from(await served.arrayBuffer()))
          .digest("hex"),
      ).toBe(createHash("sha256").update(png).digest("hex"));
    } finally {
      await site.close();
    }
  });
});
