/**
 * What a page costs, bounded per client. A landing page runs the visitor's first API reads and, for items,
 * collections and profiles, the share preview's queries, then compresses tens of KB: more than the API read
 * it wraps. Each client (address) gets `PAGE_RENDERS_PER_MINUTE` such pages; past that it gets the app's
 * plain page, compressed once at start, which paints after the app's own reads instead (they count against
 * the API's limits). The counters live in this process, like the API's flood guard: a bound on work, not a
 * quota to share between replicas.
 */
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { accepted } from "./encodePage.ts";

/** Full pages a minute per client: a visitor lands once, then the app navigates without the server. */
export const PAGE_RENDERS_PER_MINUTE = 120;
const WINDOW_MS = 60_000;
/** Clients tracked at once; past it, ended windows are swept (and at worst all, which only forgives). */
const MAX_CLIENTS = 50_000;

/** Counts full page renders per client; `take` says whether this one may be rendered. */
export function pageBudget(perMinute = PAGE_RENDERS_PER_MINUTE) {
  const counters = new Map<string, { count: number; ends: number }>();
  return {
    take(client: string, now = Date.now()): boolean {
      let counter = counters.get(client);
      if (!counter || counter.ends <= now) {
        if (counters.size >= MAX_CLIENTS) {
          for (const [key, c] of counters) if (c.ends <= now) counters.delete(key);
          if (counters.size >= MAX_CLIENTS) counters.clear();
        }
        counter = { count: 0, ends: now + WINDOW_MS };
        counters.set(client, counter);
      }
      return ++counter.count <= perMinute;
    },
  };
}

export type PlainPage = {
  send(acceptEncoding: string | undefined): { body: Buffer | string; encoding: "br" | "gzip" | null };
};

/** The app's page as it is for everyone (no answers, no preview), compressed once at the highest quality. */
export async function plainPage(html: string): Promise<PlainPage> {
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    promisify(gzip)(html, { level: 9 }),
  ]);
  return {
    send(acceptEncoding) {
      const allowed = accepted(acceptEncoding);
      if (allowed.has("br")) return { body: br, encoding: "br" };
      if (allowed.has("gzip")) return { body: gz, encoding: "gzip" };
      return { body: html, encoding: null };
    },
  };
}
