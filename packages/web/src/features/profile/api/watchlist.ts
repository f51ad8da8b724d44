import type { WatchlistResponse } from "@easel/common";
import { infiniteQueryOptions, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";
import { useChainEvents } from "../../../api/live.ts";
import { queryString } from "../../browse/api/browse.ts";

/** The signed-in member's watchlist (their favourited items). */
export const watchlistKeys = { all: ["watchlist"] as const };

/** GET /api/watchlist: favourited items with their live state, latest favourite first, in keyset pages. */
export const watchlistQuery = () =>
  infiniteQueryOptions({
    queryKey: watchlistKeys.all,
    queryFn: async ({ pageParam }) =>
      (await apiFetch<WatchlistResponse>(`/api/watchlist?${queryString({ cursor: pageParam })}`)).data,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const useWatchlist = (enabled = true) => useInfiniteQuery({ ...watchlistQuery(), enabled });

/**
 * Keeps the watchlist live: a batch that alerted this member (a watched item listed, bid on, repriced) names
 * their account on the event stream, and refetches it.
 */
export function useLiveWatchlist(address: string | null | undefined) {
  const queryClient = useQueryClient();
  useChainEvents(address ? { account: address.toLowerCase() } : null, () => {
    void queryClient.invalidateQueries({ queryKey: watchlistKeys.all });
  });
}
