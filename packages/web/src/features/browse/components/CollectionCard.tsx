import { type CollectionCard as CollectionCardData, displayName, mediaUrl } from "@easel/common";
import { memo } from "react";
import { Link } from "react-router";
import { formatEther } from "viem";
import { Avatar } from "../../../ui/Avatar.tsx";

export const collectionPath = (collection: Pick<CollectionCardData, "slug">) =>
  `/collection/${encodeURIComponent(collection.slug)}`;

export const ownerName = (c: CollectionCardData) => displayName(c.owner);

/**
 * A collection in a grid: banner, logo, name, owner and its main figures. Memoised, as the NFT card: a
 * redrawn grid leaves its cards alone.
 */
export const CollectionCard = memo(function CollectionCard({
  collection,
}: {
  collection: CollectionCardData;
}) {
  const banner = mediaUrl(collection.banner);
  const logo = mediaUrl(collection.logo);
  const { stats } = collection;
  return (
    <article className="overflow-hidden rounded-2xl border border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-950">
      <Link to={collectionPath(collection)} className="block">
        <div className="relative h-28 bg-gradient-to-r from-accent-100 to-neutral-100 dark:from-accent-700/30 dark:to-neutral-900">
          {banner ? <img src={banner} alt="" className="size-full object-cover" loading="lazy" /> : null}
          <div className="absolute -bottom-6 left-4 size-14 overflow-hidden rounded-xl border-4 border-white bg-neutral-200 dark:border-neutral-950 dark:bg-neutral-800">
            {logo ? <img src={logo} alt="" className="size-full object-cover" loading="lazy" /> : null}
          </div>
        </div>
        <div className="space-y-2 p-4 pt-8">
          <h3 className="truncate text-lg font-semibold">{collection.name}</h3>
          <p className="flex items-center gap-2 text-sm text-neutral-600 dark:text-neutral-400">
            <Avatar
              address={collection.owner.address}
              src={mediaUrl(collection.owner.avatar)}
              className="size-5"
            />
            {ownerName(collection)} · {collection.symbol}
          </p>
          {collection.blocked ? (
            <p className="w-fit rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800 dark:bg-red-900/40 dark:text-red-200">
              Blocked
            </p>
          ) : null}
          <dl className="grid grid-cols-3 gap-2 text-sm tabular-nums">
            <div>
              <dt className="text-neutral-600 dark:text-neutral-400">NFTs</dt>
              <dd className="font-medium">{stats.artworks}</dd>
            </div>
            <div>
              <dt className="text-neutral-600 dark:text-neutral-400">Owners</dt>
              <dd className="font-medium">{stats.owners}</dd>
            </div>
            <div>
              <dt className="text-neutral-600 dark:text-neutral-400">Floor</dt>
              <dd className="font-medium">
                {stats.floorPriceWei ? `${formatEther(BigInt(stats.floorPriceWei))} ETH` : "—"}
              </dd>
            </div>
          </dl>
        </div>
      </Link>
    </article>
  );
});
