import { useEffect, useState } from "react";
import { Link } from "react-router";
import { errorMessage } from "../../../api/client.ts";
import { buttonClass } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { useHome } from "../api/browse.ts";
import { collectionPath, ownerName } from "./CollectionCard.tsx";
import { cardPriority, NftCard, nftPath } from "./NftCard.tsx";
import { RichText } from "./RichText.tsx";

/** The slider shows 1 item under 900 px, otherwise 2, and moves on every 2500 ms. */
const SLIDE_MS = 2500;
function useItemsPerSlide(): number {
  const query = "(min-width: 900px)";
  const [wide, setWide] = useState(() => typeof window !== "undefined" && window.matchMedia?.(query).matches);
  useEffect(() => {
    const media = window.matchMedia?.(query);
    if (!media) return;
    const change = () => setWide(media.matches);
    media.addEventListener("change", change);
    return () => media.removeEventListener("change", change);
  }, []);
  return wide ? 2 : 1;
}

function Slider<T>({
  items,
  render,
  label,
}: {
  items: T[];
  /** One slide; `index` is its place among those shown. */
  render: (item: T, index: number) => React.ReactNode;
  label: string;
}) {
  const perSlide = useItemsPerSlide();
  const [start, setStart] = useState(0);
  const [paused, setPaused] = useState(false);
  const reduceMotion =
    typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  useEffect(() => {
    if (paused || reduceMotion || items.length <= perSlide) return;
    const timer = setInterval(() => setStart((s) => (s + 1) % items.length), SLIDE_MS);
    return () => clearInterval(timer);
  }, [paused, reduceMotion, items.length, perSlide]);
  const shown = Array.from(
    { length: Math.min(perSlide, items.length) },
    (_, i) => items[(start + i) % items.length] as T,
  );
  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className="grid gap-4 sm:grid-cols-2"
    >
      {shown.map(render)}
    </section>
  );
}

/**
 * The shape of one featured collection while the list loads: as tall as what comes, so the page below does
 * not jump when it arrives (layout shift).
 */
function FeaturedSkeleton() {
  return (
    <div className="mt-8 grid gap-6 lg:grid-cols-[1fr_2fr]">
      <div className="space-y-3">
        <Loading label="Loading featured collections" />
        <div className="h-8 w-2/3 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-800" />
        <div className="h-20 animate-pulse rounded-lg bg-neutral-100 dark:bg-neutral-800" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {[0, 1].map((n) => (
          <div
            key={n}
            className={`aspect-[4/5] animate-pulse rounded-2xl bg-neutral-100 dark:bg-neutral-800 ${n ? "max-sm:hidden" : ""}`}
          />
        ))}
      </div>
    </div>
  );
}

/** The home page's featured collections, each with its details and a slider of its NFTs. */
export function FeaturedCollections() {
  const home = useHome();
  if (home.isPending) return <FeaturedSkeleton />;
  if (home.isError) {
    return (
      // Not an alert: the home page still works without this section, nothing needs interrupting.
      <p className="mt-3 text-red-700 dark:text-red-300">{errorMessage(home.error)}</p>
    );
  }
  if (home.data.collections.length === 0) {
    return <p className="mt-3 text-neutral-600 dark:text-neutral-400">No collections with artworks yet.</p>;
  }
  return (
    <div className="mt-8 space-y-12">
      {home.data.collections.map((collection, c) => (
        <article key={collection._id} className="grid gap-6 lg:grid-cols-[1fr_2fr]">
          <div className="space-y-3">
            <h3 className="text-2xl font-semibold">{collection.name}</h3>
            <p className="text-neutral-600 dark:text-neutral-400">{collection.symbol}</p>
            {collection.description ? (
              <div className="line-clamp-4 text-neutral-700 dark:text-neutral-300">
                <RichText doc={collection.description} />
              </div>
            ) : null}
            <dl className="flex gap-6 text-sm">
              <div>
                <dt className="text-neutral-600 dark:text-neutral-400">Creator</dt>
                <dd className="font-medium">{ownerName(collection)}</dd>
              </div>
              <div>
                <dt className="text-neutral-600 dark:text-neutral-400">NFTs</dt>
                <dd className="font-medium tabular-nums">{collection.stats.artworks}</dd>
              </div>
            </dl>
            <Link to={collectionPath(collection)} className={buttonClass("secondary")}>
              View Collection
            </Link>
          </div>
          <Slider
            label={`NFTs of ${collection.name}`}
            items={collection.nfts}
            render={(nft, i) => (
              <div key={nft._id} className="flex flex-col gap-2">
                {/* The first collection's pictures are the top of the page: they load at once. */}
                <NftCard nft={nft} priority={c === 0 ? cardPriority(i) : undefined} />
                <Link to={nftPath(nft)} className={buttonClass("secondary")}>
                  View Item
                </Link>
              </div>
            )}
          />
        </article>
      ))}
      <Link to="/ExploreCollection" className={buttonClass("primary")}>
        Discover Now
      </Link>
    </div>
  );
}
