import {
  ITEM_SORT_LABELS,
  ITEM_SORTS,
  type ItemSort,
  mediaUrl,
  SOCIAL_LABELS,
  SOCIAL_NETWORKS,
} from "@easel/common";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { formatEther } from "viem";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { useSession } from "../../../auth/session.ts";
import { monthYearText } from "../../../lib/dates.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { buttonClass } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { useWalletDialog } from "../../../wallet/walletDialogState.tsx";
import { ListSeveralLink } from "../../bulk-listing/components/ListSeveralLink.tsx";
import { SweepButton } from "../../cart/components/SweepDialog.tsx";
import { CollectionOfferButton } from "../../collection-offers/components/CollectionOfferButton.tsx";
import { CreateItemLink } from "../../items/components/CreateItemLink.tsx";
import { LazyReportDialog } from "../../moderation/components/LazyReportDialog.tsx";
import { ProfileBanner } from "../../profile/components/ProfileBanner.tsx";
import { type CollectionTab, useCollection, useFavoriteCollection } from "../api/browse.ts";
import { CardGrid } from "./CardGrid.tsx";
import { CollectionActivity } from "./CollectionActivity.tsx";
import { ownerName } from "./CollectionCard.tsx";
import { CollectionHistory } from "./CollectionHistory.tsx";
import { CollectionTraitFilter } from "./CollectionTraitFilter.tsx";
import { SelectFilter } from "./FilterPanel.tsx";
import { cardPriority, NftCard, nftPath } from "./NftCard.tsx";
import { ExpandableDescription } from "./RichText.tsx";

/** The page's tabs: four lists of items (the `filter` parameter), then the activity and statistics views. */
type PageView = "activity" | "statistics";
const TABS: { value: CollectionTab | PageView | ""; label: string }[] = [
  { value: "", label: "All" },
  { value: "liveAuction", label: "Live Auction" },
  { value: "buyNow", label: "Buy Now" },
  { value: "offer", label: "Active Offers" },
  { value: "activity", label: "Activity" },
  { value: "statistics", label: "Statistics" },
];
const isView = (value: string): value is PageView => value === "activity" || value === "statistics";

const eth = (wei: string | null) => (wei ? `${formatEther(BigInt(wei))} ETH` : "—");

/** A collection page: its facts and stats from the chain, its description, tabs, sorts and NFTs. */
export function CollectionView({ name }: { name: string }) {
  const [params, setParams] = useSearchParams();
  const sort = (ITEM_SORTS as readonly string[]).includes(params.get("sort") ?? "")
    ? (params.get("sort") as ItemSort)
    : "none";
  const tab = (["liveAuction", "buyNow", "offer"] as const).find((t) => t === params.get("filter"));
  const view = (["activity", "statistics"] as const).find((v) => v === params.get("view"));
  const selected = view ?? tab ?? "";
  const setParam = (key: string, value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value && value !== "none") next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  // The trait filter (`CollectionTraitFilter`): a type alone waits for its value before it narrows the grid.
  const traitType = params.get("traitType") ?? "";
  const traitValue = params.get("traitValue") ?? "";
  const trait = traitType && traitValue ? { type: traitType, value: traitValue } : undefined;
  const query = useCollection(name, sort, tab, trait);
  const first = query.data?.pages[0];
  usePageTitle(first?.collection.name ?? "Collection");

  if (query.isPending) return <Loading label="Loading collection" size="page" />;
  if (query.isError || !first) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <div className="mx-auto max-w-3xl px-4 py-24 text-center">
        <h1 className="text-2xl font-bold">
          {notFound ? "Collection not found" : "This collection could not be loaded"}
        </h1>
        <p className="mt-3 text-neutral-600 dark:text-neutral-400">
          {notFound ? "" : errorMessage(query.error)}
        </p>
        <Link to="/ExploreCollection" className={buttonClass("primary", "mt-6")}>
          Browse collections
        </Link>
      </div>
    );
  }
  const { collection, isOwner } = first;
  const nfts = query.data.pages.flatMap((p) => p.nfts);
  const created = monthYearText(collection.time_created);
  const logo = mediaUrl(collection.logo);
  const socials = SOCIAL_NETWORKS.filter((n) => collection.social[n]);

  return (
    <div>
      <ProfileBanner src={mediaUrl(collection.banner)} />
      <div className="mx-auto w-full max-w-7xl px-4">
        <div className="-mt-12 flex flex-wrap items-end justify-between gap-4">
          <div className="size-24 overflow-hidden rounded-2xl border-4 border-white bg-neutral-200 dark:border-neutral-950 dark:bg-neutral-800">
            {logo ? <img src={logo} alt="" className="size-full object-cover" /> : null}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {collection.stats.floorPriceWei ? <SweepButton collection={collection._id} /> : null}
            <CollectionActions collection={collection} isOwner={isOwner} isFavorite={first.isFavorite} />
          </div>
        </div>
        <h1 className="mt-4 text-3xl font-bold tracking-tight">{collection.name}</h1>
        <p className="mt-1 text-neutral-600 dark:text-neutral-400">
          {collection.symbol} · by{" "}
          <Link
            to={`/profile/${collection.owner.username ?? collection.owner.address}`}
            className="hover:underline"
          >
            {ownerName(collection)}
          </Link>{" "}
          · Created {created}
          {collection.category ? ` · ${collection.category.title}` : ""}
          {collection.blocked ? " · Blocked" : ""}
        </p>
        <dl className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-5">
          {(
            [
              ["Artworks", String(collection.stats.artworks), null],
              ["Owners", String(collection.stats.owners), null],
              ["Floor price", eth(collection.stats.floorPriceWei), collection.stats.floorPriceWei],
              ["Highest price", eth(collection.stats.highestSaleWei), collection.stats.highestSaleWei],
              ["Total sales", String(collection.stats.totalSales), null],
            ] as const
          ).map(([label, value, wei]) => (
            <div key={label} className="rounded-xl border border-neutral-200 p-3 dark:border-neutral-800">
              <dt className="text-sm text-neutral-600 dark:text-neutral-400">{label}</dt>
              <dd className="text-lg font-semibold tabular-nums">{value}</dd>
              {wei ? (
                <dd>
                  <UsdValue wei={wei} className="text-xs" />
                </dd>
              ) : null}
            </div>
          ))}
        </dl>
        {socials.length > 0 ? (
          <ul className="mt-4 flex flex-wrap gap-3 text-sm">
            {socials.map((n) => (
              <li key={n}>
                <a
                  href={collection.social[n] ?? ""}
                  target="_blank"
                  rel="noopener noreferrer nofollow"
                  className="underline"
                >
                  {SOCIAL_LABELS[n]}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-6">
          <ExpandableDescription doc={collection.description} />
        </div>

        <div className="mt-10 flex flex-wrap items-center justify-between gap-4 border-b border-neutral-200 dark:border-neutral-800">
          {/* On a phone the tabs scroll sideways rather than widen the page. */}
          <div role="tablist" aria-label="Items" className="-mb-px flex max-w-full gap-1 overflow-x-auto">
            {TABS.map((t) => (
              <button
                key={t.value}
                type="button"
                role="tab"
                aria-selected={selected === t.value}
                onClick={() =>
                  setParams(
                    (current) => {
                      const next = new URLSearchParams(current);
                      next.delete("view");
                      next.delete("filter");
                      if (isView(t.value)) next.set("view", t.value);
                      else if (t.value) next.set("filter", t.value);
                      return next;
                    },
                    { replace: true },
                  )
                }
                className={`shrink-0 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap ${selected === t.value ? "border-accent-600 text-accent-700 dark:text-accent-300" : "border-transparent text-neutral-600 dark:text-neutral-400"}`}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div className={`flex flex-wrap items-center gap-4 pb-2 ${view ? "invisible" : ""}`}>
            <CollectionTraitFilter
              address={collection._id}
              traitType={traitType}
              traitValue={traitValue}
              onChange={(type, value) =>
                setParams(
                  (current) => {
                    const next = new URLSearchParams(current);
                    for (const [key, v] of [
                      ["traitType", type],
                      ["traitValue", value],
                    ] as const) {
                      if (v) next.set(key, v);
                      else next.delete(key);
                    }
                    return next;
                  },
                  { replace: true },
                )
              }
            />
            {trait ? (
              <CollectionOfferButton
                target={{ collection: { address: collection._id, name: collection.name }, trait }}
              />
            ) : null}
            <SelectFilter
              label="Sort by"
              value={sort}
              onChange={(v) => setParam("sort", v)}
              options={ITEM_SORTS.map((s) => ({ value: s, label: ITEM_SORT_LABELS[s] }))}
            />
          </div>
        </div>
        <div className="py-8">
          {view === "activity" ? (
            <CollectionActivity
              address={collection._id}
              itemPath={(tokenId) =>
                nftPath({
                  creator: collection.owner.address,
                  owner: collection.owner.address,
                  collection: {
                    address: collection._id,
                    name: collection.name,
                    kind: collection.collectionType,
                  },
                  tokenId,
                })
              }
            />
          ) : view === "statistics" ? (
            <CollectionHistory address={collection._id} />
          ) : (
            <CardGrid
              label="Items"
              query={query}
              items={nfts}
              render={(n, i) => <NftCard key={n._id} nft={n} priority={cardPriority(i)} />}
              empty={
                <>
                  No items here yet.{" "}
                  {isOwner ? (
                    <CreateItemLink className="font-medium text-accent-700 underline dark:text-accent-300" />
                  ) : null}
                </>
              }
              loadingLabel="Loading more items"
              twoOnPhones
            />
          )}
        </div>
      </div>
    </div>
  );
}

function CollectionActions({
  collection,
  isOwner,
  isFavorite,
}: {
  collection: { _id: string; name: string; slug: string; favorites: number };
  isOwner: boolean;
  isFavorite: boolean;
}) {
  const { signedIn } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const favorite = useFavoriteCollection();
  const [reportOpen, setReportOpen] = useState(false);
  // Shown at once; put back when the call fails.
  const [optimistic, setOptimistic] = useState<boolean | null>(null);
  const shown = optimistic ?? isFavorite;
  const count =
    collection.favorites + (optimistic === null || optimistic === isFavorite ? 0 : optimistic ? 1 : -1);

  const toggle = () => {
    if (!signedIn) return openWalletDialog();
    const want = !shown;
    setOptimistic(want);
    favorite.mutate(
      { collectionId: collection._id, favorite: want },
      {
        onError: (error) => {
          setOptimistic(null);
          toast.error(errorMessage(error));
        },
        onSuccess: () => setOptimistic(null),
      },
    );
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      {isOwner ? (
        <>
          <Link
            to={`/collections/edit/${encodeURIComponent(collection.slug)}`}
            className={buttonClass("primary")}
          >
            Edit
          </Link>
          <CreateItemLink className={buttonClass("secondary")} />
          <ListSeveralLink collection={collection._id} />
        </>
      ) : (
        <>
          <CollectionOfferButton
            target={{ collection: { address: collection._id, name: collection.name } }}
            variant="primary"
          />
          <button type="button" aria-pressed={shown} onClick={toggle} className={buttonClass("secondary")}>
            <span aria-hidden="true">{shown ? "♥" : "♡"}</span>
            {shown ? "Favourited" : "Favourite"}
            <span className="tabular-nums text-neutral-500">{count}</span>
          </button>
          <button
            type="button"
            className={buttonClass("secondary")}
            onClick={() => (signedIn ? setReportOpen(true) : openWalletDialog())}
          >
            Report
          </button>
          {signedIn ? <ListSeveralLink collection={collection._id} /> : null}
          {signedIn ? (
            <LazyReportDialog
              open={reportOpen}
              onOpenChange={setReportOpen}
              targetType="collection"
              targetId={collection._id}
            />
          ) : null}
        </>
      )}
    </div>
  );
}
