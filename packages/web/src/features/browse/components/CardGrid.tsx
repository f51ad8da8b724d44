import { type ReactNode, useDeferredValue, useRef } from "react";
import { errorMessage } from "../../../api/client.ts";
import { LoadMore } from "./LoadMore.tsx";
import { SkeletonCards } from "./NftCard.tsx";

/** What a grid needs of an infinite query. */
type PagedQuery = {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  isPlaceholderData?: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};

/**
 * A grid of cards from an infinite query: 6 skeleton cards while the first page loads, the server's message
 * when it fails, `empty` when nothing matches, and the next page as the end scrolls into view. The cards are
 * drawn in a transition: the query cache hands its answer to React as a store's update, which React renders
 * at once, and twenty cards in one go were a task of about 30 ms of CPU on the marketplace's start (several
 * hundred on a phone); deferred, React draws them in slices the browser can paint and answer taps between,
 * the skeletons (or the cards before) staying meanwhile.
 */
export function CardGrid<T>({
  label,
  query,
  items,
  render,
  empty,
  loadingLabel,
  twoOnPhones = false,
}: {
  label: string;
  query: PagedQuery;
  items: T[];
  /** One card; `index` is its place in the list (the first row loads its pictures at once). */
  render: (item: T, index: number) => ReactNode;
  empty: ReactNode;
  loadingLabel: string;
  /** Two cards a row on phones (item cards: the artwork is square and the text short), else one. */
  twoOnPhones?: boolean;
}) {
  const cards = useSameList(items);
  const shown = useDeferredValue(query.isPending ? null : cards);
  return (
    <section aria-label={label} aria-busy={query.isFetching}>
      {query.isError ? (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {errorMessage(query.error)}
        </p>
      ) : (
        <>
          <div
            className={`grid *:min-w-0 sm:grid-cols-2 sm:gap-6 xl:grid-cols-3 ${twoOnPhones ? "grid-cols-2 gap-3" : "gap-6"} ${query.isPlaceholderData ? "opacity-60" : ""}`}
          >
            {shown === null ? <SkeletonCards count={6} /> : shown.map(render)}
          </div>
          {shown !== null && shown.length === 0 ? (
            <p className="py-10 text-neutral-600 dark:text-neutral-400">{empty}</p>
          ) : null}
          <LoadMore
            label={loadingLabel}
            hasNextPage={query.hasNextPage}
            isFetchingNextPage={query.isFetchingNextPage}
            fetchNextPage={query.fetchNextPage}
          />
        </>
      )}
    </section>
  );
}

/**
 * The list of the last render when it holds the same cards: pages build it anew on every render (the query's
 * pages flattened), and a new list would have the deferred pass draw every card again after each of the
 * page's own updates (a filter typed, a fetch starting).
 */
function useSameList<T>(items: T[]): T[] {
  const last = useRef(items);
  if (last.current.length !== items.length || items.some((item, index) => item !== last.current[index]))
    last.current = items;
  return last.current;
}
