import { useEffect, useRef } from "react";

/** What the indexer committed: one notice per batch (`all` after a reorg or a reconnect: refresh everything). */
export type ChainNotice = { all?: boolean; tokens?: string[]; collections?: string[]; accounts?: string[] };

/**
 * Follows `GET /api/events` (Server-Sent Events) for a token, a collection or an account, calling `onChain`
 * for every batch the indexer commits about it; the browser reconnects by itself. Nothing runs without a
 * filter (or where the browser has no EventSource).
 */
export function useChainEvents(
  filter: { token?: string; collection?: string; account?: string } | null,
  onChain: (notice: ChainNotice) => void,
) {
  const handler = useRef(onChain);
  handler.current = onChain;
  const query = filter
    ? new URLSearchParams(
        Object.entries(filter).filter((entry): entry is [string, string] => !!entry[1]),
      ).toString()
    : "";
  useEffect(() => {
    if (!query || typeof EventSource === "undefined") return;
    const source = new EventSource(`/api/events?${query}`);
    const listener = (event: MessageEvent<string>) => {
      try {
        handler.current(JSON.parse(event.data) as ChainNotice);
      } catch {
        // A malformed notice is skipped; the next one refreshes.
      }
    };
    source.addEventListener("chain", listener);
    return () => {
      source.removeEventListener("chain", listener);
      source.close();
    };
  }, [query]);
}
