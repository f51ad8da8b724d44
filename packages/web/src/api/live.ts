import { useEffect, useRef } from "react";

/** What the indexer committed: one notice per batch (`all` after a reorg or a reconnect: refresh everything). */
export type ChainNotice = { all?: boolean; tokens?: string[]; collections?: string[]; accounts?: string[] };
/** What a subscriber follows; `all`: every batch (the market-wide activity feed). */
type Filter = { token?: string; collection?: string; account?: string; all?: boolean };
type Subscriber = { filter: Filter; onChain: (notice: ChainNotice) => void };

const KEYS = ["token", "collection", "account"] as const;
const subscribers = new Set<Subscriber>();
let source: EventSource | null = null;
let openQuery = "";

/**
 * The chain's position the page's first answers were read after (`#easel-chain-position`, sent with its HTML
 * by the server's web/firstPaint.ts), until a stream finds the chain elsewhere. Everything the page read since
 * is newer still, so while its streams open at that position, nothing the page shows has been committed over.
 */
let pagePosition: string | null | undefined;

function firstPosition(): string | null {
  if (pagePosition !== undefined) return pagePosition;
  const block = typeof document === "undefined" ? null : document.getElementById("easel-chain-position");
  try {
    const parsed: unknown = JSON.parse(block?.textContent || "null");
    pagePosition = typeof parsed === "string" ? parsed : null;
  } catch {
    pagePosition = null;
  }
  return pagePosition;
}

const concerns = (notice: ChainNotice, filter: Filter) =>
  !!notice.all ||
  !!filter.all ||
  (!!filter.token && !!notice.tokens?.includes(filter.token)) ||
  (!!filter.collection && !!notice.collections?.includes(filter.collection)) ||
  (!!filter.account && !!notice.accounts?.includes(filter.account));

/**
 * One stream per page: the server allows a few per client, and a page follows at most the signed-in account
 * and the item it shows, which one `GET /api/events?account=…&token=…` carries together. The stream is
 * reopened when what the page follows changes; each notice goes to the subscribers it concerns.
 */
function reopen() {
  const merged: Record<string, string> = {};
  let everything = false;
  for (const { filter } of subscribers) {
    everything ||= !!filter.all;
    for (const key of KEYS) if (filter[key]) merged[key] = filter[key] as string;
  }
  // A stream without a filter hears every batch, which then covers what the others follow too.
  const query = everything ? "*" : new URLSearchParams(merged).toString();
  if (query === openQuery) return;
  source?.close();
  source = null;
  openQuery = query;
  if (!query || typeof EventSource === "undefined") return;
  source = new EventSource(everything ? "/api/events" : `/api/events?${query}`);
  // What a page shows may be older than its stream (read with the page's HTML, or before the stream opened):
  // a batch committed in between would never be noticed. A (re)opened stream refreshes what it follows
  // unless its first event finds the chain where the page's first answers were read.
  source.addEventListener("ready", (event) => {
    let position: unknown;
    try {
      position = (JSON.parse((event as MessageEvent<string>).data) as { position?: unknown }).position;
    } catch {
      position = undefined;
    }
    const known = firstPosition();
    if (known !== null && position === known) return;
    pagePosition = null;
    for (const subscriber of subscribers) subscriber.onChain({ all: true });
  });
  source.addEventListener("chain", (event) => {
    let notice: ChainNotice;
    try {
      notice = JSON.parse((event as MessageEvent<string>).data) as ChainNotice;
    } catch {
      return; // a malformed notice is skipped; the next one refreshes
    }
    for (const subscriber of subscribers) if (concerns(notice, subscriber.filter)) subscriber.onChain(notice);
  });
}

/**
 * Calls `onChain` for every batch the indexer commits about a token, a collection or an account (Server-Sent
 * Events; the browser reconnects by itself). Nothing is followed without a filter; `{ all: true }` follows
 * every batch.
 */
export function useChainEvents(filter: Filter | null, onChain: (notice: ChainNotice) => void) {
  const handler = useRef(onChain);
  handler.current = onChain;
  const key = filter ? `${KEYS.map((k) => filter[k] ?? "").join("|")}|${filter.all ? "all" : ""}` : "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter's values are the key
  useEffect(() => {
    if (!filter) return;
    const subscriber: Subscriber = { filter, onChain: (notice) => handler.current(notice) };
    subscribers.add(subscriber);
    reopen();
    return () => {
      subscribers.delete(subscriber);
      reopen();
    };
  }, [key]);
}
