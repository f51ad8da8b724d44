import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cidToHex, type MintResponse } from "@easel/common";
import { easelCollectionAbi } from "@easel/contracts";
import { withHTTP } from "@helia/http";
import { createVerifiedFetchWithHelia, type VerifiedFetch } from "@helia/verified-fetch";
import { CarBlockIterator } from "@ipld/car";
import { createHeliaLight } from "helia";
import { CID } from "multiformats/cid";
import { sha256 } from "multiformats/hashes/sha2";
import sharp from "sharp";
import { parseEventLogs } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createChainClient } from "../src/chain/client.ts";
import { loadConfig } from "../src/config.ts";
import {
  admin,
  artist,
  createScratchDatabase,
  driver,
  indexToHead,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { type AccountsApi, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

/**
 * `/ipfs/` as an IPFS Trustless Gateway, checked by an independent verifier: Helia's verified-fetch, pointed at
 * the running API as its only gateway, fetches minted tokens' metadata and artworks by the CIDs the chain holds,
 * and checks every block against its CID. It knows nothing of Easel's code: only the gateway's HTTP answers.
 */

let t: TestChain;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let artistUser: TestUser;
let d: ReturnType<typeof driver>;
let index: () => Promise<void>;
let category = 0;

beforeAll(async () => {
  t = await startTestChain();
  scratch = await createScratchDatabase(inject("databaseUrl"), "gateway");
  d = driver(t);
  await d.market(admin, "setArtistVerified", [artist.address, true]);
  const env = t.env(scratch.url);
  const config = loadConfig(env);
  index = () =>
    indexToHead({
      db: scratch.db,
      chain: createChainClient(config.chainId, config.rpcUrls),
      config,
      log: () => {},
    });
  await index();
  api = await startAccountsApi(env);
  artistUser = await api.signIn(artist as never);
  const { body } = await api.call<{ data: { category_web2: { _id: number; title: string }[] } }>(
    "GET",
    "/api/category-web2",
  );
  category = body.data.category_web2.find((c) => c.title === "Painting")?._id ?? 0;
}, 180_000);

afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await t?.stop();
});

/** A verified-fetch whose only source of blocks is our gateway (no libp2p, no public gateway). */
async function independentVerifier(): Promise<VerifiedFetch> {
  const helia = withHTTP(createHeliaLight(), {
    recursiveGateways: [api.url],
    delegatedRouters: [],
    allowInsecure: true,
    allowLocal: true,
  });
  // Helia waits for a first (non-fallback) router to finish before it asks the gateway: one that finds nothing.
  helia.addRouter({ name: "no-routing", async *findProviders() {} } as never);
  await helia.start();
  return createVerifiedFetchWithHelia(helia);
}

const fields = (name: string): Record<string, string> => ({
  category_web2_id: String(category),
  collection: t.defaultCollection,
  name,
  royalty: "5",
  description: `${name}, for the gateway test.`,
  tags: JSON.stringify(["gateway"]),
});

/** Streams a multipart mint upload of `size` bytes that start with `head`, hashing what it sends. */
async function mintUpload(name: string, filename: string, type: string, head: Uint8Array, size: number) {
  const boundary = "easel-gateway-boundary";
  const encoder = new TextEncoder();
  const hash = createHash("sha256");
  async function* body() {
    for (const [key, value] of Object.entries(fields(name)))
      yield encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`,
      );
    yield encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
    );
    hash.update(head);
    yield head;
    // Every 64 KiB differs from the others, so no two blocks of the file are the same.
    for (let sent = head.length, n = 0; sent < size; n++) {
      const chunk = new Uint8Array(Math.min(65_536, size - sent)).map(
        (_, i) => (i * 31 + n * 7 + (i >> 8)) & 255,
      );
      hash.update(chunk);
      sent += chunk.length;
      yield chunk;
    }
    yield encoder.encode(`\r\n--${boundary}--\r\n`);
  }
  const response = await fetch(`${api.url}/api/mint`, {
    method: "POST",
    headers: { cookie: artistUser.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
    body: ReadableStream.from(body()),
    duplex: "half",
  } as RequestInit);
  const result = (await response.json()) as MintResponse;
  expect(response.status, JSON.stringify(result)).toBe(200);
  return { uriCid: result.data.newNft.uri_cid, sha256: hash.digest("hex") };
}

/** Mints on chain with the metadata CID, as the artist's wallet does, and answers the token's `tokenURI`. */
async function mintOnChain(uriCid: string): Promise<string> {
  const receipt = await d.send(artist, t.defaultCollection, easelCollectionAbi, "mintNFT", [
    500,
    cidToHex(uriCid),
    [],
  ]);
  const [minted] = parseEventLogs({ abi: easelCollectionAbi, logs: receipt.logs, eventName: "Minted" });
  const tokenId = (minted as unknown as { args: { tokenId: bigint } }).args.tokenId;
  return (await t.publicClient.readContract({
    address: t.defaultCollection,
    abi: easelCollectionAbi,
    functionName: "tokenURI",
    args: [tokenId],
  })) as string;
}

const hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const mp4Head = new Uint8Array([0, 0, 0, 0x18, ...new TextEncoder().encode("ftypisom"), 0, 0, 2, 0]);

type Token = { name: string; tokenUri: string; artworkSha256: string; artworkKey: "image" | "animation_url" };
const tokens: Token[] = [];

describe("the trustless gateway, through an independent verifier", () => {
  it("serves minted tokens' metadata and artworks of every media type, each byte checked against the chain's CIDs", async () => {
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: "#aa3366" } })
      .png()
      .toBuffer();
    const pdf = new Uint8Array(700_000);
    pdf.set(new TextEncoder().encode("%PDF-1.4\n% Easel gateway test\n"));
    pdf.forEach((_, i) => {
      if (i > 40) pdf[i] = (i * 13) & 255;
    });
    // 46,000,000 bytes: more than 174 leaves of 256 KiB, so the file's DAG has two levels of dag-pb nodes.
    const uploads = [
      { name: "Pink Field", file: "field.png", type: "image/png", head: png, size: png.length, key: "image" },
      {
        name: "Notes",
        file: "notes.pdf",
        type: "application/pdf",
        head: pdf,
        size: pdf.length,
        key: "animation_url",
      },
      {
        name: "Long Tide",
        file: "tide.mp4",
        type: "video/mp4",
        head: mp4Head,
        size: 46_000_000,
        key: "animation_url",
      },
    ] as const;
    for (const upload of uploads) {
      const { uriCid, sha256 } = await mintUpload(
        upload.name,
        upload.file,
        upload.type,
        upload.head,
        upload.size,
      );
      tokens.push({
        name: upload.name,
        tokenUri: await mintOnChain(uriCid),
        artworkSha256: sha256,
        artworkKey: upload.key,
      });
    }
    await index();

    const verifiedFetch = await independentVerifier();
    try {
      for (const token of tokens) {
        expect(token.tokenUri).toMatch(/^ipfs:\/\/baf/);
        const metadataResponse = await verifiedFetch(token.tokenUri);
        expect(metadataResponse.status, token.name).toBe(200);
        const metadata = (await metadataResponse.json()) as Record<string, string>;
        expect(metadata.name).toBe(token.name);
        const artworkUri = metadata[token.artworkKey] as string;
        expect(artworkUri, token.name).toMatch(/^ipfs:\/\/baf/);
        // The long video spans many blocks: its CID names a dag-pb node.
        if (token.name === "Long Tide") expect(CID.parse(artworkUri.slice("ipfs://".length)).code).toBe(0x70);
        const artwork = await verifiedFetch(artworkUri);
        expect(artwork.status, token.name).toBe(200);
        expect(hex(new Uint8Array(await artwork.arrayBuffer())), token.name).toBe(token.artworkSha256);
        // A video's and a PDF's image is their derived thumbnail: content-addressed as well.
        const thumbnail = await verifiedFetch(metadata.image as string);
        expect(thumbnail.status, token.name).toBe(200);
        await thumbnail.arrayBuffer();
      }
    } finally {
      await verifiedFetch.stop();
    }
  }, 240_000);

  it("is caught by the verifier when a stored block is altered on disk", async () => {
    const png = tokens[0];
    if (!png) throw new Error("the first test mints the tokens");
    const metadata = (await (
      await fetch(`${api.url}/${png.tokenUri.replace("ipfs://", "ipfs/")}`)
    ).json()) as {
      image: string;
    };
    const cid = CID.parse(metadata.image.slice("ipfs://".length));
    const file = blockFile(cid);
    const original = readFileSync(file);
    const altered = Buffer.from(original);
    altered[altered.length - 100] = (altered[altered.length - 100] ?? 0) ^ 0xff;
    writeFileSync(file, altered);
    const verifiedFetch = await independentVerifier();
    try {
      const response = await verifiedFetch(metadata.image, { signal: AbortSignal.timeout(15_000) }).catch(
        (error: unknown) => error,
      );
      // Either the fetch fails or it answers an error: never the altered bytes.
      if (response instanceof Response) expect(response.status).toBeGreaterThanOrEqual(400);
      else expect(response).toBeInstanceOf(Error);
    } finally {
      await verifiedFetch.stop();
      writeFileSync(file, original);
    }
  }, 60_000);
});

/** The file under the API's blockstore that holds a block (blockstore-fs names it by the CID's multihash). */
function blockFile(cid: CID): string {
  const dir = join(api.dir, "ipfs");
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const match = files.filter((file) => {
    const bytes = readFileSync(file);
    return bytes.length > 0 && hexDigest(bytes) === Buffer.from(cid.multihash.digest).toString("hex");
  });
  if (match.length !== 1) throw new Error(`expected one block file for ${cid}, found ${match.length}`);
  return match[0] as string;
}
const hexDigest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("GET /ipfs/:cid as a trustless gateway", () => {
  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    fetch(`${api.url}${path}`, { headers, method });
  const artworkOf = async (token: Token | undefined) => {
    if (!token) throw new Error("the first describe mints the tokens");
    const metadata = (await (await get(`/${token.tokenUri.replace("ipfs://", "ipfs/")}`)).json()) as Record<
      string,
      string
    >;
    return CID.parse((metadata[token.artworkKey] as string).slice("ipfs://".length));
  };

  /** Reads a CAR, checks every block's hash against its CID, and answers the roots and blocks. */
  async function readCar(response: Response) {
    const iterator = await CarBlockIterator.fromIterable(
      (async function* () {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) yield chunk;
      })(),
    );
    const blocks: { cid: CID; bytes: Uint8Array }[] = [];
    for await (const block of iterator) {
      const digest = await sha256.digest(block.bytes);
      expect(Buffer.from(digest.digest).equals(Buffer.from(block.cid.multihash.digest))).toBe(true);
      blocks.push({ cid: block.cid as CID, bytes: block.bytes });
    }
    return { roots: (await iterator.getRoots()).map(String), blocks };
  }

  it("answers ?format=raw and Accept: application/vnd.ipld.raw with the block and the spec's headers", async () => {
    const video = await artworkOf(tokens[2]);
    for (const response of [
      await get(`/ipfs/${video}?format=raw`),
      await get(`/ipfs/${video}`, { accept: "application/vnd.ipld.raw" }),
    ]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/vnd.ipld.raw");
      expect(response.headers.get("cache-control")).toBe("public, max-age=29030400, immutable");
      expect(response.headers.get("etag")).toBe(`"${video}.raw"`);
      expect(response.headers.get("vary")).toContain("Accept");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${video}.bin"`);
      expect(response.headers.get("x-ipfs-roots")).toBe(video.toString());
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(
        Buffer.from((await sha256.digest(bytes)).digest).equals(Buffer.from(video.multihash.digest)),
      ).toBe(true);
    }
    const cached = await get(`/ipfs/${video}?format=raw`, { "if-none-match": `"${video}.raw"` });
    expect(cached.status).toBe(304);
    const head = await get(`/ipfs/${video}?format=raw`, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/vnd.ipld.raw");
  });

  it("answers ?format=car with the file's whole DAG, depth first, every block once", async () => {
    const video = await artworkOf(tokens[2]);
    const response = await get(`/ipfs/${video}?format=car`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(
      "application/vnd.ipld.car; version=1; order=dfs; dups=n",
    );
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${video}.car"`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=29030400, immutable");
    expect(response.headers.get("etag")).toMatch(new RegExp(`^"${video}\\.car\\.`));
    const { roots, blocks } = await readCar(response);
    expect(roots).toEqual([video.toString()]);
    expect(blocks[0]?.cid.toString()).toBe(video.toString());
    // dups=n: each block once (the file repeats some of its 256 KiB leaves).
    const ids = blocks.map((block) => block.cid.toString());
    expect(new Set(ids).size).toBe(ids.length);
    // Two levels: the root, its dag-pb children, and the raw leaves under them.
    expect(blocks.filter((block) => block.cid.code === 0x70).length).toBeGreaterThan(1);

    // dups=y, asked through Accept: every block where the walk meets it, so the leaves in order are the file.
    const viaAccept = await get(`/ipfs/${video}`, {
      accept: "application/vnd.ipld.car; version=1; order=dfs; dups=y",
    });
    expect(viaAccept.headers.get("content-type")).toBe(
      "application/vnd.ipld.car; version=1; order=dfs; dups=y",
    );
    expect(viaAccept.headers.get("content-location")).toBe(`/ipfs/${video}?format=car`);
    const all = await readCar(viaAccept);
    const leaves = all.blocks.filter((block) => block.cid.code === 0x55);
    expect(leaves.reduce((sum, leaf) => sum + leaf.bytes.length, 0)).toBe(46_000_000);
    const hash = createHash("sha256");
    for (const leaf of leaves) hash.update(leaf.bytes);
    expect(hash.digest("hex")).toBe(tokens[2]?.artworkSha256);
    expect(new Set(all.blocks.map((block) => block.cid.toString()))).toEqual(new Set(ids));
  }, 60_000);

  it("limits a CAR to dag-scope=block and to the blocks of an entity-bytes range", async () => {
    const video = await artworkOf(tokens[2]);
    const root = await readCar(await get(`/ipfs/${video}?format=car&dag-scope=block`));
    expect(root.blocks.map((block) => block.cid.toString())).toEqual([video.toString()]);
    // One byte in the middle of the file: the root, one inner node, and the one leaf that holds it.
    const middle = await readCar(await get(`/ipfs/${video}?format=car&entity-bytes=23000000:23000000`));
    expect(middle.blocks.map((block) => block.cid.code)).toEqual([0x70, 0x70, 0x55]);
    // The last 1,000 bytes: the leaf at the end.
    const tail = await readCar(await get(`/ipfs/${video}?format=car&entity-bytes=-1000:*`));
    const last = tail.blocks.at(-1);
    expect(last?.cid.code).toBe(0x55);
    expect(tail.blocks.filter((block) => block.cid.code === 0x55)).toHaveLength(1);
    const etags = new Set(
      await Promise.all(
        ["", "&dag-scope=block", "&entity-bytes=0:10"].map(async (query) => {
          const response = await get(`/ipfs/${video}?format=car${query}`);
          await response.arrayBuffer();
          return response.headers.get("etag");
        }),
      ),
    );
    expect(etags.size).toBe(3);
    // Wholly past the end: the root block alone, which says how long the file is.
    const past = await readCar(await get(`/ipfs/${video}?format=car&entity-bytes=99000000:*`));
    expect(past.blocks).toHaveLength(1);
  }, 60_000);

  it("refuses formats and CAR variants it does not serve, answers the probe CID, and 404s what it does not hold", async () => {
    const png = await artworkOf(tokens[0]);
    const refused = async (path: string, headers: Record<string, string>, status: number) => {
      const response = await get(path, headers);
      expect(response.status, `${path} ${JSON.stringify(headers)}`).toBe(status);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBeTruthy();
    };
    await refused(`/ipfs/${png}?format=dag-json`, {}, 400);
    await refused(`/ipfs/${png}`, { accept: "application/vnd.ipld.dag-json" }, 406);
    await refused(`/ipfs/${png}`, { accept: "application/vnd.ipld.car; version=2" }, 406);
    await refused(`/ipfs/${png}?format=car&car-order=bfs`, {}, 406);
    await refused(`/ipfs/${png}?format=car&dag-scope=most`, {}, 400);
    await refused(`/ipfs/${png}?format=car&entity-bytes=a:b`, {}, 400);

    const probeRaw = await get("/ipfs/bafkqaaa?format=raw");
    expect(probeRaw.status).toBe(200);
    expect((await probeRaw.arrayBuffer()).byteLength).toBe(0);
    const probeCar = await readCar(await get("/ipfs/bafkqaaa", { accept: "application/vnd.ipld.car" }));
    expect(probeCar).toEqual({ roots: ["bafkqaaa"], blocks: [] });

    const missing = CID.createV1(0x55, await sha256.digest(new TextEncoder().encode("never stored")));
    expect((await get(`/ipfs/${missing}?format=raw`)).status).toBe(404);
    expect((await get(`/ipfs/${missing}?format=car`)).status).toBe(404);
    expect((await get(`/ipfs/${missing}?format=raw`, { "cache-control": "only-if-cached" })).status).toBe(
      412,
    );
    // The same hash named as another codec is not a block we hold.
    const otherCodec = CID.createV1(0x71, png.multihash);
    expect((await get(`/ipfs/${otherCodec}?format=raw`)).status).toBe(404);

    // A plain client still gets the file itself, typed, with the spec's caching headers.
    const plain = await get(`/ipfs/${png}`);
    expect(plain.headers.get("content-type")).toBe("image/png");
    expect(plain.headers.get("cache-control")).toBe("public, max-age=29030400, immutable");
    expect(plain.headers.get("vary")).toContain("Accept");
    await plain.arrayBuffer();
  });
});

describe("a client that stops reading a CAR", () => {
  it("leaves nothing open: the API still closes", async () => {
    const token = tokens[2];
    if (!token) throw new Error("the first describe mints the tokens");
    const metadata = (await (
      await fetch(`${api.url}/${token.tokenUri.replace("ipfs://", "ipfs/")}`)
    ).json()) as {
      animation_url: string;
    };
    const response = await fetch(
      `${api.url}/ipfs/${metadata.animation_url.slice("ipfs://".length)}?format=car`,
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
  });
});
