import type { ActivityFeedResponse, FeedKind } from "@easel/common";
import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";
import { useChainEvents } from "../../../api/live.ts";
import { queryString } from "../../browse/api/browse.ts";

/** The feed's filters: a kind of activity and a collection (its address). */
export type FeedFilters = { kind?: FeedKind | undefined; collection?: string | undefined };

/** Query keys of the market-wide activity feed. */
export const activityKeys = {
  all: ["activity"] as const,
  feed: ({ kind, collection }: FeedFilters) =>
    ["activity", "feed", kind ?? "all", collection?.toLowerCase() ?? "all"] as const,
};

/** GET /api/activity: sales, listings, bids and offers, newest first, in keyset pages. */
export const activityFeedQuery = (filters: FeedFilters) =>
  infiniteQueryOptions({
    queryKey: activityKeys.feed(filters),
    queryFn: async ({ pageParam }) =>
      (
        await apiFetch<ActivityFeedResponse>(
          `/api/activity?${queryString({ kind: filters.kind, collection: filters.collection, cursor: pageParam })}`,
        )
      ).data,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });

export const useActivityFeed = (filters: FeedFilters) => useInfiniteQuery(activityFeedQuery(filters));

/**
 * Keeps the feed live: every batch the indexer commits (about the collection, when the feed shows one)
 * refetches it, over the page's one event stream.
 */
export function useLiveActivityFeed(collection: string | undefined) {
  const queryClient = useQueryClient();
  useChainEvents(collection ? { collection: collection.toLowerCase() } : { all: true }, () => {
    void queryClient.invalidateQueries({ queryKey: activityKeys.all });
  });
}
