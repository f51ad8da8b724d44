import { COLLECTION_SORT_LABELS, COLLECTION_SORTS, type CollectionSort } from "@easel/common";
import { useSearchParams } from "react-router";
import { useCategories, useExploreCollections } from "../features/browse/api/browse.ts";
import { CardGrid } from "../features/browse/components/CardGrid.tsx";
import { CollectionCard } from "../features/browse/components/CollectionCard.tsx";
import {
  RangeFilter,
  SelectFilter,
  useActiveFilters,
  useUrlParam,
} from "../features/browse/components/FilterPanel.tsx";
import { FiltersSheet } from "../features/browse/components/FiltersSheet.tsx";
import { PullIndicator } from "../features/browse/components/PullIndicator.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { usePullToRefresh } from "../lib/usePullToRefresh.ts";

/** The filters of explore collections (the sort is not one). */
const FILTERS = [
  "collectionType",
  "minNumberOfArtworks",
  "maxNumberOfArtworks",
  "minTotalSales",
  "maxTotalSales",
  "minFloorPrice",
  "maxFloorPrice",
  "category_web2_ids",
] as const;

/**
 * /ExploreCollection: every collection, with the spec's sort, filter side panel and infinite scroll; on touch
 * screens a pull from the top reloads the list.
 */
export function Component() {
  usePageTitle("Collections");
  const [params, setParams] = useSearchParams();
  const param = useUrlParam(params, setParams);
  const sort = (COLLECTION_SORTS as readonly string[]).includes(params.get("sort") ?? "")
    ? (params.get("sort") as CollectionSort)
    : "newest";
  const categoryIds = (params.get("category_web2_ids") ?? "").split(",").filter(Boolean);
  const filters = {
    sort,
    collectionType: (params.get("collectionType") || undefined) as "standard" | "lazyMint" | undefined,
    minNumberOfArtworks: params.get("minNumberOfArtworks") || undefined,
    maxNumberOfArtworks: params.get("maxNumberOfArtworks") || undefined,
    minTotalSales: params.get("minTotalSales") || undefined,
    maxTotalSales: params.get("maxTotalSales") || undefined,
    minFloorPrice: params.get("minFloorPrice") || undefined,
    maxFloorPrice: params.get("maxFloorPrice") || undefined,
    category_web2_ids: categoryIds.length ? categoryIds.join(",") : undefined,
  };
  const query = useExploreCollections(filters as never);
  const categories = useCategories();
  const collections = query.data?.pages.flatMap((p) => p.collections) ?? [];
  const count = query.data?.pages[0]?.headerData.collections;
  const { active, clear } = useActiveFilters(params, setParams, FILTERS);
  const pull = usePullToRefresh(() => query.refetch());
  const toggleCategory = (id: string) => {
    const next = categoryIds.includes(id) ? categoryIds.filter((c) => c !== id) : [...categoryIds, id];
    param("category_web2_ids").set(next.join(","));
  };

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10">
      <PullIndicator pull={pull} />
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">
          Collections <span className="tabular-nums text-neutral-500">{count ?? ""}</span>
        </h1>
        <SelectFilter
          label="Sort by"
          value={sort}
          onChange={param("sort").set}
          options={COLLECTION_SORTS.map((s) => ({ value: s, label: COLLECTION_SORT_LABELS[s] }))}
        />
      </div>
      <div className="mt-8 grid gap-8 lg:grid-cols-[16rem_1fr]">
        <FiltersSheet active={active} onClear={clear}>
          <SelectFilter
            label="Type"
            value={params.get("collectionType") ?? ""}
            onChange={param("collectionType").set}
            options={[
              { value: "", label: "All" },
              { value: "standard", label: "Standard" },
              { value: "lazyMint", label: "Lazy mint" },
            ]}
          />
          <RangeFilter
            legend="Number of artworks"
            min={param("minNumberOfArtworks")}
            max={param("maxNumberOfArtworks")}
          />
          <RangeFilter legend="Total sales" min={param("minTotalSales")} max={param("maxTotalSales")} />
          <RangeFilter
            legend="Floor price"
            unit="ETH"
            step={0.1}
            min={param("minFloorPrice")}
            max={param("maxFloorPrice")}
          />
          <fieldset className="space-y-2">
            <legend className="text-sm font-semibold">Categories</legend>
            {(categories.data ?? []).map((c) => (
              <label key={c._id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={categoryIds.includes(String(c._id))}
                  onChange={() => toggleCategory(String(c._id))}
                />
                {c.title}
              </label>
            ))}
          </fieldset>
        </FiltersSheet>
        <CardGrid
          label="Collections"
          query={query}
          items={collections}
          render={(c) => <CollectionCard key={c._id} collection={c} />}
          empty="No collections match these filters."
          loadingLabel="Loading more collections"
        />
      </div>
    </div>
  );
}
