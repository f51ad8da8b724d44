import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pageEncoder } from "./encodePage.ts";

/** A page of the size and kind Easel sends: styles, a frame and a JSON answer. */
const page = (n: number) =>
  `<!doctype html><html><head><style>${".a{color:red}.b{margin:0 auto}".repeat(800)}</style></head><body>` +
  `<script type="application/json" id="easel-answers">${JSON.stringify(
    Array.from({ length: 200 }, (_, i) => ({ token: `${n}:${i}`, name: `Artwork ${i * 7919}`, views: i })),
  )}</script></body></html>`;
const best = (html: string) => brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });

async function until(check: () => Promise<boolean>) {
  for (let tries = 0; tries < 200; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("never came");
}

describe("a page's compression", () => {
  it("is quick for the first visitor, and brotli's best for every later visitor of the same text", async () => {
    const encode = pageEncoder({ delayMs: 0 });
    const html = page(1);
    const first = await encode(html, "gzip, deflate, br");
    expect(first.encoding).toBe("br");
    expect(brotliDecompressSync(first.body as Buffer).toString()).toBe(html);
    expect((first.body as Buffer).length).toBeGreaterThan(best(html).length);
    // Compressed at the best in the background: the next visitors get that copy.
    await until(async () => ((await encode(html, "br")).body as Buffer).length === best(html).length);
    const later = await encode(html, "br");
    expect(brotliDecompressSync(later.body as Buffer).toString()).toBe(html);
    // Another text is another page: it starts quick again.
    const other = page(2);
    expect(((await encode(other, "br")).body as Buffer).length).toBeGreaterThan(best(other).length);
    // Without brotli: gzip, or the text as it is.
    const gzip = await encode(html, "gzip");
    expect(gzip.encoding).toBe("gzip");
    expect(gunzipSync(gzip.body as Buffer).toString()).toBe(html);
    expect(await encode(html, "br;q=0, identity")).toEqual({ body: html, encoding: null });
  });

  it("makes no best copy of a page that is one visitor's own", async () => {
    const encode = pageEncoder({ delayMs: 0 });
    const html = page(3);
    for (let i = 0; i < 3; i++) {
      const sent = await encode(html, "br", { shared: false });
      expect(brotliDecompressSync(sent.body as Buffer).toString()).toBe(html);
      expect((sent.body as Buffer).length).toBeGreaterThan(best(html).length);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Sent to everyone, the same text starts its own best copy.
    await encode(html, "br");
    await until(async () => ((await encode(html, "br")).body as Buffer).equals(best(html)));
  });

  it("keeps a bounded number of pages, the least recently sent going first", async () => {
    const encode = pageEncoder({ delayMs: 0 });
    const small = (n: number) => `<p>${"page ".repeat(50)}${n}</p>`;
    const isBest = async (html: string) => ((await encode(html, "br")).body as Buffer).equals(best(html));
    for (let n = 0; n < 257; n++) {
      await encode(small(n), "br");
      await until(() => isBest(small(n)));
      // Page 0 is sent again now and then: it stays.
      if (n % 100 === 0) expect(await isBest(small(0))).toBe(true);
    }
    // 257 pages seen, 256 kept: page 1, the least recently sent, went first.
    expect(await isBest(small(0))).toBe(true);
    expect(await isBest(small(1))).toBe(false);
  });
});
