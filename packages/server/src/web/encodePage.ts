import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** The encodings a request's Accept-Encoding allows (a `q=0` refuses one). */
export function accepted(header: string | undefined): Set<string> {
  const names = (header ?? "").split(",").flatMap((part) => {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    return params.some((param) => /^\s*q=0(\.0+)?\s*$/.test(param)) ? [] : [name.trim()];
  });
  return new Set(names);
}

/** Brotli's quality for a page built for one request: about a millisecond for a landing page here. */
const QUICK = 5;
/** Brotli's best, 50–60 ms for a landing page here, and some 1,400 bytes smaller (about a tenth). */
const BEST = 11;
/** How long after a page is first sent its best compression starts. */
const BEST_DELAY_MS = 1_000;
/** How many pages are kept at the best quality (a landing page compresses to about 13 KB). */
const BEST_KEPT = 256;

/**
 * Compresses pages for the browser that asked: brotli, else gzip, else as it is. A page carries the app's
 * styles and its first answers, tens of KB that compress to a fifth; built per request, so brotli runs at a
 * quality that takes a millisecond, not the build's highest. But most pages are sent alike to many visitors
 * (a landing page before anyone signs in), so each page's text is also compressed at the best quality once,
 * in the background (a second later, on zlib's thread pool, one at a time), and every later visitor of the same text gets that
 * copy. On a slow phone link the difference decides whether a landing page arrives in TCP's first round trip
 * (about 14.6 KB): the marketplace's 14.4 KB at quality 5 is 13.0 KB at the best.
 */
export function pageEncoder({ delayMs = BEST_DELAY_MS }: { delayMs?: number } = {}) {
  const best = new Map<string, Buffer>();
  let compressing = false;
  const keepBest = (key: string, html: string) => {
    if (compressing) return;
    compressing = true;
    // A moment later: the visitor's browser asks for the page's code, data and pictures right after its
    // HTML, and on a small machine the best compression would take a core from them.
    setTimeout(() => {
      brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: BEST } })
        .then((body) => {
          if (best.size >= BEST_KEPT) best.delete(best.keys().next().value as string);
          best.set(key, body);
        })
        .catch(() => {})
        .finally(() => {
          compressing = false;
        });
    }, delayMs).unref();
  };
  /** `shared`: a page others may be sent alike (a visitor's who is not signed in); only those get a best copy. */
  return async function encodePage(
    html: string,
    acceptEncoding: string | undefined,
    { shared = true }: { shared?: boolean } = {},
  ): Promise<{ body: Buffer | string; encoding: "br" | "gzip" | null }> {
    const allowed = accepted(acceptEncoding);
    if (allowed.has("br")) {
      const key = shared ? createHash("sha256").update(html).digest("base64url") : null;
      const kept = key === null ? undefined : best.get(key);
      if (key !== null && kept) {
        // Most recently used last: the oldest is the first to go.
        best.delete(key);
        best.set(key, kept);
        return { body: kept, encoding: "br" };
      }
      if (key !== null) keepBest(key, html);
      return {
        body: await brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: QUICK } }),
        encoding: "br",
      };
    }
    if (allowed.has("gzip")) return { body: await gzipped(html, { level: 6 }), encoding: "gzip" };
    return { body: html, encoding: null };
  };
}
