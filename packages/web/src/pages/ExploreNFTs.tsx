import {
  ITEM_SORT_LABELS,
  ITEM_SORTS,
  ITEM_STATUS_LABELS,
  ITEM_STATUSES,
  type ItemSort,
} from "@easel/common";
import { useSearchParams } from "react-router";
import { useCategories, useExploreItems } from "../features/browse/api/browse.ts";
import { CardGrid } from "../features/browse/components/CardGrid.tsx";
import {
  RangeFilter,
  SelectFilter,
  useActiveFilters,
  useUrlParam,
} from "../features/browse/components/FilterPanel.tsx";
import { FiltersSheet } from "../features/browse/components/FiltersSheet.tsx";
import { NamePicker } from "../features/browse/components/NamePicker.tsx";
import { cardPriority, NftCard } from "../features/browse/components/NftCard.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The filters of the marketplace (the sort is not one). */
const FILTERS = ["status", "minPrice", "maxPrice", "category", "collection", "creator"] as const;

/** /ExploreNFTs: the marketplace of items. The URL holds the filters, so a view can be shared. */
export function Component() {
  usePageTitle("Marketplace");
  const [params, setParams] = useSearchParams();
  const param = useUrlParam(params, setParams);
  const sort = (ITEM_SORTS as readonly string[]).includes(params.get("sort") ?? "")
    ? (params.get("sort") as ItemSort)
    : "recentlyCreated";
  const collection = params.get("collection") ?? "";
  const creator = params.get("creator") ?? "";
  const filters = {
    sort,
    status: (params.get("status") || undefined) as (typeof ITEM_STATUSES)[number] | undefined,
    minPrice: params.get("minPrice") || undefined,
    maxPrice: params.get("maxPrice") || undefined,
    category: params.get("category") || undefined,
    collection: ADDRESS.test(collection) ? collection : undefined,
    creator: ADDRESS.test(creator) ? creator : undefined,
  };
  const query = useExploreItems(filters as never);
  const categories = useCategories();
  const nfts = query.data?.pages.flatMap((p) => p.nfts) ?? [];
  const { active, clear } = useActiveFilters(params, setParams, FILTERS);

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Marketplace</h1>
        <SelectFilter
          label="Sort by"
          value={sort}
          onChange={param("sort").set}
          options={ITEM_SORTS.filter((s) => s !== "none").map((s) => ({
            value: s,
            label: ITEM_SORT_LABELS[s],
          }))}
        />
      </div>
      <div className="mt-8 grid gap-8 lg:grid-cols-[16rem_1fr]">
        <FiltersSheet active={active} onClear={clear}>
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold">Status</legend>
            {[
              { value: "", label: "All" },
              ...ITEM_STATUSES.map((s) => ({ value: s, label: ITEM_STATUS_LABELS[s] })),
            ].map((option) => (
              <label key={option.value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="status"
                  checked={(params.get("status") ?? "") === option.value}
                  onChange={() => param("status").set(option.value)}
                />
                {option.label}
              </label>
            ))}
          </fieldset>
          <RangeFilter legend="Price" unit="ETH" step={0.1} min={param("minPrice")} max={param("maxPrice")} />
          <SelectFilter
            label="Category"
            value={params.get("category") ?? ""}
            onChange={param("category").set}
            options={[
              { value: "", label: "All" },
              ...(categories.data ?? []).map((c) => ({ value: String(c._id), label: c.title })),
            ]}
          />
          <NamePicker
            label="Collection"
            kind="collection"
            value={collection}
            onChange={param("collection").set}
          />
          <NamePicker label="Creator" kind="creator" value={creator} onChange={param("creator").set} />
        </FiltersSheet>
        <CardGrid
          label="Items"
          query={query}
          items={nfts}
          render={(n, i) => <NftCard key={n._id} nft={n} priority={cardPriority(i)} />}
          empty="No items match these filters."
          loadingLabel="Loading more items"
          twoOnPhones
        />
      </div>
    </div>
  );
}
