import type { WatchedItem } from "@easel/common";
import { Link } from "react-router";
import { formatEther } from "viem";
import { errorMessage } from "../../../api/client.ts";
import { useSession } from "../../../auth/session.ts";
import { dateText } from "../../../lib/dates.ts";
import { buttonClass } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { LoadMore } from "../../browse/components/LoadMore.tsx";
import { cardPriority, NftCard, useNow } from "../../browse/components/NftCard.tsx";
import { useLiveWatchlist, useWatchlist } from "../api/watchlist.ts";

export const EMPTY_WATCHLIST =
  "You have not favourited any items yet. Heart an artwork to follow its price, bids and auction here.";

/**
 * The Favourites tab of one's own profile: every item they hearted with its live state (price, auction and
 * its end, top bid, sold), refreshed when the indexer alerts them about one.
 */
export function WatchlistPanel() {
  const { session } = useSession();
  const query = useWatchlist();
  useLiveWatchlist(session?.address);
  const items = query.data?.pages.flatMap((p) => p.items) ?? [];
  if (query.isPending) return <Loading label="Loading favourites" />;
  if (query.isError) return <p className="text-red-700 dark:text-red-400">{errorMessage(query.error)}</p>;
  if (items.length === 0)
    return (
      <div className="rounded-2xl border border-dashed border-neutral-300 px-6 py-12 text-center dark:border-neutral-700">
        <p className="text-neutral-700 dark:text-neutral-300">{EMPTY_WATCHLIST}</p>
        <Link to="/ExploreNFTs" className={buttonClass("secondary", "mt-4")}>
          Explore
        </Link>
      </div>
    );
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        You are alerted when one of these is listed, gets a bid, changes price or has an hour left at auction
        (set in your notification settings).
      </p>
      <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Favourited items">
        {items.map((item, i) => (
          <li key={item._id} className="flex flex-col gap-2">
            <NftCard nft={item} priority={cardPriority(i)} />
            <WatchState item={item} />
          </li>
        ))}
      </ul>
      <LoadMore
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        label="Loading more favourites"
      />
    </div>
  );
}

const eth = (wei: string) => `${formatEther(BigInt(wei))} ETH`;

/** Where a watched item stands: on sale, at auction (top bid, or ended), sold, or not for sale. */
export function WatchState({ item }: { item: WatchedItem }) {
  const endMs = item.status === "auction" && item.endTime ? new Date(item.endTime).getTime() : null;
  const now = useNow(endMs !== null && endMs > Date.now());
  let text: string;
  let tone = "bg-neutral-100 text-neutral-800 dark:bg-neutral-800 dark:text-neutral-200";
  if (item.status === "auction") {
    tone = "bg-accent-100 text-accent-700 dark:bg-accent-500/20 dark:text-accent-300";
    if (endMs !== null && endMs <= now) text = "Auction ended: awaiting settlement";
    else if (item.topBidWei) text = `At auction · top bid ${eth(item.topBidWei)}`;
    else if (endMs === null) text = "Reserve auction · no bid yet";
    else text = "At auction · no bid yet";
  } else if ((item.status === "fix" || item.status === "lazy") && item.priceWei) {
    tone = "bg-accent-100 text-accent-700 dark:bg-accent-500/20 dark:text-accent-300";
    text = `For sale at ${eth(item.priceWei)}`;
  } else if (item.soldAt) {
    text = `Sold ${dateText(item.soldAt)}${item.lastPriceWei ? ` for ${eth(item.lastPriceWei)}` : ""}`;
  } else {
    text = "Not for sale";
  }
  return (
    <p
      className={`w-fit rounded-full px-3 py-1 text-xs font-medium tabular-nums ${tone}`}
      data-testid="watch-state"
    >
      {text}
    </p>
  );
}
