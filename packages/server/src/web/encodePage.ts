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

/**
 * A page's HTML compressed for the browser that asked: brotli, else gzip, else as it is. A page carries the
 * app's styles and its first answers, tens of KB that compress to a fifth; built per request, so brotli runs
 * at a quality that takes a millisecond, not the build's highest.
 */
export async function encodePage(
  html: string,
  acceptEncoding: string | undefined,
): Promise<{ body: Buffer | string; encoding: "br" | "gzip" | null }> {
  const allowed = accepted(acceptEncoding);
  if (allowed.has("br"))
    return { body: await brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }), encoding: "br" };
  if (allowed.has("gzip")) return { body: await gzipped(html, { level: 6 }), encoding: "gzip" };
  return { body: html, encoding: null };
}
