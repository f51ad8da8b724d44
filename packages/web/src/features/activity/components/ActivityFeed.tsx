import { FEED_KINDS, type FeedKind, type FeedRow, mediaUrl, shortAddress } from "@easel/common";
import { memo, useState } from "react";
import { Link } from "react-router";
import { formatEther } from "viem";
import { errorMessage } from "../../../api/client.ts";
import { dateTimeText } from "../../../lib/dates.ts";
import { Loading } from "../../../ui/Loading.tsx";
import { PersonName } from "../../../ui/PersonName.tsx";
import { SelectFilter } from "../../browse/components/FilterPanel.tsx";
import { LoadMore } from "../../browse/components/LoadMore.tsx";
import { useActivityFeed, useLiveActivityFeed } from "../api/activity.ts";

/** What each row of the feed is called, by the chain's activity kind. */
export const FEED_ROW_LABELS: Record<string, string> = {
  sale: "Sale",
  list: "Listed",
  auction: "Auction started",
  bid: "Bid",
  offer: "Offer",
};
export const FEED_KIND_LABELS: Record<FeedKind, string> = {
  sale: "Sales",
  list: "Listings",
  bid: "Bids",
  offer: "Offers",
};

/**
 * The market's activity (`/activity`): sales, listings, bids and offers of every collection, newest first,
 * live, filtered by kind and collection (a row's collection filters by it). A list, not a table: a phone
 * reads each row whole without scrolling sideways.
 */
export function ActivityFeed({
  kind,
  collection,
  onKindChange,
  onCollectionChange,
}: {
  kind: FeedKind | undefined;
  collection: string | undefined;
  onKindChange: (kind: FeedKind | undefined) => void;
  onCollectionChange: (collection: string | undefined) => void;
}) {
  const query = useActivityFeed({ kind, collection });
  useLiveActivityFeed(collection);
  const rows: FeedRow[] = query.data?.pages.flatMap((p) => p.activity) ?? [];
  const collectionName =
    rows.find((r) => r.collection.address === collection?.toLowerCase())?.collection.name ??
    (collection ? shortAddress(collection) : null);
  return (
    <section aria-labelledby="activity-heading" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="activity-heading" className="text-3xl font-bold tracking-tight">
            Activity
          </h1>
          <p className="mt-1 text-neutral-600 dark:text-neutral-400">
            Sales, listings, bids and offers across Easel, as they happen.
          </p>
        </div>
        <SelectFilter
          label="Show"
          value={kind ?? ""}
          onChange={(v) => onKindChange((v || undefined) as FeedKind | undefined)}
          options={[
            { value: "", label: "All activity" },
            ...FEED_KINDS.map((k) => ({ value: k, label: FEED_KIND_LABELS[k] })),
          ]}
        />
      </div>
      {collection ? (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span className="text-neutral-600 dark:text-neutral-400">Collection</span>
          <span className="inline-flex max-w-full items-center gap-1 rounded-full bg-neutral-100 py-1 pr-1 pl-3 font-medium dark:bg-neutral-800">
            <span className="min-w-0 break-words">{collectionName}</span>
            <button
              type="button"
              onClick={() => onCollectionChange(undefined)}
              aria-label="Show every collection"
              className="rounded-full px-2 text-neutral-600 hover:bg-neutral-200 hover:text-neutral-900 dark:text-neutral-300 dark:hover:bg-neutral-700"
            >
              ×
            </button>
          </span>
        </p>
      ) : null}
      {query.isPending ? (
        <Loading label="Loading activity" />
      ) : query.isError ? (
        <p className="text-red-700 dark:text-red-400">{errorMessage(query.error)}</p>
      ) : rows.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-neutral-300 px-6 py-10 text-center text-neutral-600 dark:border-neutral-700 dark:text-neutral-400">
          No activity yet.
        </p>
      ) : (
        <ol
          aria-label="Activity, newest first"
          className={`divide-y divide-neutral-200 rounded-2xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800 ${
            query.isPlaceholderData ? "opacity-60" : ""
          }`}
        >
          {rows.map((row) => (
            <FeedItem key={row.id} row={row} onCollection={onCollectionChange} />
          ))}
        </ol>
      )}
      <LoadMore
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        label="Loading more activity"
      />
    </section>
  );
}

/** One row: the artwork's thumbnail, what happened, the item, its collection, the price, who and when. */
const FeedItem = memo(function FeedItem({
  row,
  onCollection,
}: {
  row: FeedRow;
  onCollection: (collection: string) => void;
}) {
  const [failed, setFailed] = useState(false);
  const src = mediaUrl(row.image_cid);
  return (
    <li className="flex gap-3 p-3 sm:gap-4 sm:p-4" data-testid="feed-row">
      <Link to={row.itemPath} className="shrink-0" tabIndex={-1} aria-hidden="true">
        {src && !failed ? (
          <img
            src={src}
            alt=""
            loading="lazy"
            onError={() => setFailed(true)}
            className="size-14 rounded-lg bg-neutral-100 object-cover sm:size-16 dark:bg-neutral-900"
          />
        ) : (
          <div className="size-14 rounded-lg bg-neutral-100 sm:size-16 dark:bg-neutral-900" />
        )}
      </Link>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <p className="min-w-0 text-sm">
            <span className="font-semibold">{FEED_ROW_LABELS[row.kind] ?? row.kind}</span>
            <span className="text-neutral-500"> · </span>
            <Link to={row.itemPath} className="break-words font-medium hover:underline">
              {row.itemName}
            </Link>
          </p>
          <p className="text-sm font-semibold tabular-nums">
            {row.priceWei ? `${formatEther(BigInt(row.priceWei))} ETH` : "—"}
          </p>
        </div>
        <p className="text-sm text-neutral-600 dark:text-neutral-400">
          <button
            type="button"
            onClick={() => onCollection(row.collection.address)}
            title={`Only ${row.collection.name}`}
            className="break-words text-left hover:underline"
          >
            {row.collection.name}
          </button>
        </p>
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-xs text-neutral-600 dark:text-neutral-400">
          <People row={row} />
          <time dateTime={row.time} className="tabular-nums whitespace-nowrap">
            {dateTimeText(row.time)}
          </time>
        </div>
      </div>
    </li>
  );
});

/** Who: the seller and buyer of a sale, else whoever listed, bid or offered. */
function People({ row }: { row: FeedRow }) {
  if (row.from && row.to)
    return (
      <p className="min-w-0 break-words">
        <PersonName person={row.from} /> → <PersonName person={row.to} />
      </p>
    );
  const who = row.from ?? row.to;
  return who ? (
    <p className="min-w-0 break-words">
      by <PersonName person={who} />
    </p>
  ) : (
    <span />
  );
}
