import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { MESSAGES, type MediaUploadResponse, type ProfileResponse } from "@easel/common";
import { MemoryBlockstore } from "blockstore-core";
import { FsBlockstore } from "blockstore-fs";
import { importer } from "ipfs-unixfs-importer";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MediaStore } from "../src/media/store.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";
import { jpegScan, jpegWithGps } from "./images.ts";

let api: AccountsApi;
let user: TestUser;
let png: Buffer;
beforeAll(async () => {
  api = await startAccountsApi();
  user = await api.signIn();
  png = await sharp({ create: { width: 1200, height: 500, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
});
afterAll(() => api.close());

async function upload(bytes: Uint8Array, name: string, type: string, who: TestUser | null = user) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), name);
  const response = await fetch(`${api.url}/api/profile/media_uploader`, {
    method: "POST",
    headers: who ? { cookie: who.cookie } : {},
    body: form,
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** The CID `ipfs add --cid-version 1 --raw-leaves` gives, computed independently of the server. */
async function expectedCid(bytes: Uint8Array): Promise<string> {
  let cid = "";
  for await (const entry of importer([{ content: bytes }], new MemoryBlockstore(), {
    cidVersion: 1,
    rawLeaves: true,
  })) {
    cid = entry.cid.toString();
  }
  return cid;
}

describe("POST /api/profile/media_uploader and GET /ipfs/:cid", () => {
  it("stores an image on IPFS with a webp thumbnail and serves both immutably", async () => {
    const result = await upload(png, "banner.png", "image/png");
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const { message, data } = result.body as MediaUploadResponse;
    expect(message).toBe(MESSAGES.imageUploaded);
    expect(data).toMatchObject({ mime: "image/png", size: png.length, width: 1200, height: 500 });
    expect(data.cid).toBe(await expectedCid(png));
    expect(data.path).toBe(`/ipfs/${data.cid}`);

    const original = await fetch(`${api.url}${data.path}`);
    expect(original.status).toBe(200);
    expect(original.headers.get("content-type")).toBe("image/png");
    expect(original.headers.get("cache-control")).toBe("public, max-age=29030400, immutable");
    expect(original.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await original.arrayBuffer()).equals(png)).toBe(true);

    const thumbnail = await fetch(`${api.url}${data.thumbnail}`);
    expect(thumbnail.headers.get("content-type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 400, height: 167 });

    const cached = await fetch(`${api.url}${data.path}`, { headers: { "if-none-match": `"${data.cid}"` } });
    expect(cached.status).toBe(304);

    // The uploaded path is accepted as an avatar and shows on the profile.
    const saved = await api.call("PUT", "/api/profile", {
      user,
      body: { avatar: data.path, banner: data.path },
    });
    expect(saved.status).toBe(200);
    const page = await api.call<ProfileResponse>("GET", `/api/profile?userkey=${user.address}`);
    expect(page.body.data.user.avatar).toBe(data.path);
  });

  it("strips camera and location metadata from a profile picture, keeping its pixels", async () => {
    const jpeg = await jpegWithGps();
    expect(jpeg.includes(Buffer.from("Secret Model X"))).toBe(true);
    const result = await upload(jpeg, "me.jpg", "image/jpeg");
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const { data } = result.body as MediaUploadResponse;
    const stored = Buffer.from(await (await fetch(`${api.url}${data.path}`)).arrayBuffer());
    expect(stored.includes(Buffer.from("Secret Model X"))).toBe(false);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(data.cid).toBe(await expectedCid(stored));
    expect(data.size).toBe(stored.length);
    expect(jpegScan(stored).equals(jpegScan(jpeg))).toBe(true);
  });

  it("answers unknown and malformed CIDs with 404", async () => {
    const missing = await expectedCid(new TextEncoder().encode("never uploaded"));
    expect((await fetch(`${api.url}/ipfs/${missing}`)).status).toBe(404);
    expect((await fetch(`${api.url}/ipfs/not-a-cid`)).status).toBe(404);
  });

  it("accepts an image just under 10 MB", async () => {
    const side = 1800;
    const noise = Buffer.alloc(side * side * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const large = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(large.length).toBeGreaterThan(9_000_000);
    expect(large.length).toBeLessThan(10_000_000);
    const result = await upload(large, "large.png", "image/png");
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect((result.body as MediaUploadResponse).data.size).toBe(large.length);
  });

  it("refuses a file of more than 10,000,000 bytes", async () => {
    const big = Buffer.alloc(10_000_001, 0);
    png.copy(big, 0, 0, 64);
    expectError(await upload(big, "big.png", "image/png"), 400, {
      field: "file",
      message: "File Must be less than 10MB",
    });
  });

  it("refuses an HTML page named .png, an SVG with a script, and PNG magic in front of HTML", async () => {
    const html = Buffer.from(
      "<!doctype html><html><body><script>alert(document.cookie)</script></body></html>",
    );
    expectError(await upload(html, "cat.png", "image/png"), 400, {
      field: "file",
      message: MESSAGES.imageType,
    });
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
    );
    expectError(await upload(svg, "logo.svg", "image/svg+xml"), 400, {
      field: "file",
      message: MESSAGES.imageType,
    });
    expectError(await upload(svg, "logo.png", "image/png"), 400, {
      field: "file",
      message: MESSAGES.imageType,
    });
    const disguised = Buffer.concat([png.subarray(0, 8), html]);
    expectError(await upload(disguised, "x.png", "image/png"), 400, {
      field: "file",
      message: MESSAGES.imageType,
    });
  });

  it("needs a session and an active profile, and a file", async () => {
    expectError(await upload(png, "a.png", "image/png", null), 401, { code: "unauthenticated" });
    const banned = await api.signIn();
    await api.setActive(banned.address, false);
    expectError(await upload(png, "a.png", "image/png", banned), 403, { message: MESSAGES.notRegistered });
    const empty = await fetch(`${api.url}/api/profile/media_uploader`, {
      method: "POST",
      headers: { cookie: user.cookie },
      body: new FormData(),
    });
    expect(empty.status).toBe(400);
  });
});

describe("MediaStore.blocks", () => {
  it("stops before the next block once its signal aborts (the client hung up): nothing more is read", async () => {
    const store = new MediaStore(join(api.dir, "walk"));
    const root = MediaStore.parseCid(await store.add(randomBytes(3_000_000)));
    if (!root) throw new Error("no CID");
    const fileSize = await store.fileSize(root);
    expect(fileSize).toBe(3_000_000);
    const hangUp = new AbortController();
    const walk = store.blocks(
      root,
      { scope: "all", dups: false },
      { fileSize: 3_000_000, signal: hangUp.signal },
    );
    expect((await walk.next()).value?.cid.toString()).toBe(root.toString());
    expect((await walk.next()).done).toBe(false);
    const reads = vi.spyOn(FsBlockstore.prototype, "get");
    try {
      hangUp.abort();
      await expect(walk.next()).rejects.toThrow(/abort/i);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });
});
