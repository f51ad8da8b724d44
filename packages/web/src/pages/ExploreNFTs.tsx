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
import { RangeFilter, SelectFilter, useUrlParam } from "../features/browse/components/FilterPanel.tsx";
import { cardPriority, NftCard } from "../features/browse/components/NftCard.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

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
        <aside aria-label="Filters" className="space-y-6">
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
          <AddressFilter label="Collection address" value={collection} onChange={param("collection").set} />
          <AddressFilter label="Creator address" value={creator} onChange={param("creator").set} />
        </aside>
        <CardGrid
          label="Items"
          query={query}
          items={nfts}
          render={(n, i) => <NftCard key={n._id} nft={n} priority={cardPriority(i)} />}
          empty="No items match these filters."
          loadingLabel="Loading more items"
        />
      </div>
    </div>
  );
}

function AddressFilter({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const invalid = value !== "" && !ADDRESS.test(value);
  return (
    <label className="block space-y-1 text-sm">
      <span className="font-semibold">{label}</span>
      <input
        value={value}
        onChange={(e) => onChange(e.target.value.trim())}
        placeholder="0x…"
        aria-invalid={invalid}
        className="w-full rounded-lg border border-neutral-300 bg-white px-2 py-1.5 font-mono text-xs dark:border-neutral-700 dark:bg-neutral-950"
      />
      {invalid ? (
        <span className="text-red-700 dark:text-red-300">Enter a 0x address of 40 hex digits.</span>
      ) : null}
    </label>
  );
}
