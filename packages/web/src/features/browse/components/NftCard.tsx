import { displayName, isPixelArt, mediaUrl, type NftCard as NftCardData } from "@easel/common";
import { memo, useEffect, useState } from "react";
import { Link } from "react-router";
import { formatEther } from "viem";
import { Avatar } from "../../../ui/Avatar.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { AddToCartButton } from "../../cart/components/AddToCartButton.tsx";
import { CardVideo } from "./CardVideo.tsx";
import { FavoriteHeart } from "./FavoriteHeart.tsx";

/** The item page of a card: /{creator}/{collection}/{tokenId}, or /{creator}/{tokenId} in the default collection. */
export function nftPath(nft: Pick<NftCardData, "creator" | "owner" | "collection" | "tokenId">): string {
  const who = nft.creator ?? nft.owner;
  if (nft.collection.kind === "default") return `/${who}/${nft.tokenId}`;
  return `/${who}/${encodeURIComponent(nft.collection.name ?? nft.collection.address)}/${nft.tokenId}`;
}

/** The current time, ticking every second while `running`. */
export function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

/** 'Ends in Xd Xh Xm Xs', stopping at zero. */
export function endsIn(endMs: number, now: number): string {
  const left = Math.max(0, Math.floor((endMs - now) / 1000));
  const d = Math.floor(left / 86_400);
  const h = Math.floor((left % 86_400) / 3600);
  const m = Math.floor((left % 3600) / 60);
  const s = left % 60;
  return `Ends in ${d}d ${h}h ${m}m ${s}s`;
}

/** The card's price line: 'Price' while on sale, else 'Offer' for the best live offer, else 'Last Price'. */
export function priceLine(nft: NftCardData): { label: string; wei: string } | null {
  if ((nft.status === "fix" || nft.status === "auction" || nft.status === "lazy") && nft.priceWei)
    return { label: "Price", wei: nft.priceWei };
  if (nft.offerWei) return { label: "Offer", wei: nft.offerWei };
  if (nft.lastPriceWei) return { label: "Last Price", wei: nft.lastPriceWei };
  return null;
}

/**
 * How a card's picture loads: lazily below the fold; cards of a list's first row load at once, and the very
 * first at high priority (it is usually the page's largest paint).
 */
export type CardPriority = "first" | "firstRow" | undefined;

/** The priority of the card at `index` of a list. */
export const cardPriority = (index: number): CardPriority =>
  index === 0 ? "first" : index < 3 ? "firstRow" : undefined;

/**
 * An NFT card (browsing-and-accounts, "NFT card"). Memoised: a grid's page redrawn for something else (its
 * filters' options arriving, a query's state) leaves its two dozen cards alone.
 */
export const NftCard = memo(function NftCard({
  nft,
  priority,
}: {
  nft: NftCardData;
  priority?: CardPriority;
}) {
  const [failed, setFailed] = useState(false);
  const src = mediaUrl(nft.image_cid);
  const endMs = nft.endTime ? new Date(nft.endTime).getTime() : null;
  const now = useNow(endMs !== null && endMs > Date.now());
  const price = priceLine(nft);
  const to = nftPath(nft);
  return (
    <article className="@container relative flex flex-col overflow-hidden rounded-2xl border border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-950">
      <FavoriteHeart
        collection={nft.collection.address}
        tokenId={nft.tokenId}
        name={nft.name}
        favorite={nft.isFavorite}
        favorites={nft.favorites}
        className="absolute top-2 right-2 z-10 bg-white/90 text-neutral-900 shadow-sm dark:bg-neutral-900/90 dark:text-neutral-100"
      />
      <Link to={to} className="block">
        {nft.videoCid && !failed ? (
          <CardVideo
            src={mediaUrl(nft.videoCid) ?? ""}
            poster={src}
            label={nft.name}
            onError={() => setFailed(true)}
            className="aspect-square w-full bg-neutral-100 object-cover dark:bg-neutral-900"
          />
        ) : src && !failed ? (
          <img
            src={src}
            alt={nft.name}
            loading={priority ? "eager" : "lazy"}
            fetchPriority={priority === "first" ? "high" : "auto"}
            onError={() => setFailed(true)}
            // Pixel art keeps its pixels square and sharp at any size, never smoothed.
            style={isPixelArt(nft.category) ? { imageRendering: "pixelated" } : undefined}
            className="aspect-square w-full bg-neutral-100 object-cover dark:bg-neutral-900"
          />
        ) : (
          <div
            className="flex aspect-square w-full items-center justify-center bg-neutral-100 text-sm text-neutral-500 dark:bg-neutral-900"
            role="img"
            aria-label={`${nft.name}: no image`}
          >
            No image
          </div>
        )}
      </Link>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="font-semibold">
          <Link to={to} className="hover:underline">
            {nft.name}
          </Link>
        </h3>
        {nft.status === "lazy" ? (
          // Not on chain yet: the buyer's purchase mints it (Foundation's and Zora's mint-on-purchase works).
          <p
            className="w-fit rounded bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-800 dark:bg-violet-900/40 dark:text-violet-200"
            data-testid="card-lazy"
          >
            Minted at purchase
          </p>
        ) : null}
        {nft.blocked ? (
          <p className="w-fit rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 dark:bg-red-900/40 dark:text-red-200">
            Blocked
          </p>
        ) : null}
        {nft.creatorData ? (
          // On a narrow card (two to a phone's row) the word "Creator" is left to screen readers and the name
          // takes the line, wrapping to a second one rather than being cut short.
          <p className="flex min-w-0 items-center gap-2 text-sm">
            <Avatar
              address={nft.creatorData.address}
              src={mediaUrl(nft.creatorData.avatar)}
              className="size-6 shrink-0"
            />
            <span className="sr-only text-neutral-600 @min-[15rem]:not-sr-only dark:text-neutral-400">
              Creator
            </span>
            <Link
              to={`/profile/${nft.creatorData.username ?? nft.creatorData.address}`}
              title={displayName(nft.creatorData)}
              data-testid="card-creator"
              className="line-clamp-2 min-w-0 break-words hover:underline"
            >
              {displayName(nft.creatorData)}
            </Link>
          </p>
        ) : null}
        {nft.collaboratorsData.length > 1 ? (
          <ul className="flex flex-wrap gap-2 text-xs" aria-label="Collaborators">
            {nft.collaboratorsData.map((c) => (
              <li key={c.address} className="flex items-center gap-1">
                <Avatar address={c.address} src={mediaUrl(c.avatar)} className="size-5" />
                {displayName(c)} · {c.share}%
              </li>
            ))}
          </ul>
        ) : null}
        {nft.collection.name ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-400">{nft.collection.name}</p>
        ) : null}
        <div className="mt-auto flex flex-wrap items-baseline justify-between gap-2 pt-2 text-sm">
          {price ? (
            <p className="tabular-nums">
              <span className="text-neutral-600 dark:text-neutral-400">{price.label} </span>
              <span className="font-semibold">{formatEther(BigInt(price.wei))} ETH</span>{" "}
              <UsdValue wei={price.wei} className="text-xs" />
            </p>
          ) : (
            <p className="text-neutral-600 dark:text-neutral-400">Not for sale</p>
          )}
          {nft.status === "fix" && nft.priceWei && !nft.blocked ? (
            // For sale at a fixed price, on chain or by signature: one of a cart's works.
            <AddToCartButton
              compact
              seller={nft.owner}
              work={{
                collection: nft.collection.address,
                tokenId: nft.tokenId,
                name: nft.name,
                image: nft.image_cid,
                path: to,
                priceWei: nft.priceWei,
              }}
            />
          ) : null}
          {endMs !== null ? (
            <p className="tabular-nums text-neutral-600 dark:text-neutral-400">
              {/* An auction still open after its end awaits its settlement (or ended without a bid). */}
              {endMs <= now ? "Auction ended" : endsIn(endMs, now)}
            </p>
          ) : null}
        </div>
      </div>
    </article>
  );
});

/** Placeholder cards while a grid loads. */
export function SkeletonCards({ count = 6 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => `placeholder-${i}`).map((placeholder) => (
        <div
          key={placeholder}
          className="animate-pulse overflow-hidden rounded-2xl border border-neutral-200 dark:border-neutral-800"
          aria-hidden="true"
        >
          <div className="aspect-square bg-neutral-100 dark:bg-neutral-900" />
          <div className="space-y-2 p-4">
            <div className="h-4 w-2/3 rounded bg-neutral-100 dark:bg-neutral-900" />
            <div className="h-3 w-1/2 rounded bg-neutral-100 dark:bg-neutral-900" />
          </div>
        </div>
      ))}
    </>
  );
}
