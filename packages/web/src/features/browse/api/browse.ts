import type {
  ActivityFilter,
  CollectionActivityResponse,
  CollectionEdit,
  CollectionHistoryResponse,
  CollectionResponse,
  ExploreCollectionsQuery,
  ExploreCollectionsResponse,
  ExploreItemsQuery,
  ExploreItemsResponse,
  HistoryRange,
  HomeResponse,
  ItemFavoriteResponse,
  ItemSort,
  LazyVoucherResponse,
  RegisterCollection,
  RegisterCollectionResponse,
  SearchResponse,
} from "@easel/common";
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";

/** A query string from the defined, non-empty values. */
export function queryString(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") search.set(key, String(value));
  }
  return search.toString();
}

export type CollectionTab = "liveAuction" | "buyNow" | "offer";
/** The collection page's trait filter: items whose property `type` is `value`. */
export type TraitChoice = { type: string; value: string };
type Filters = Record<string, string | number | undefined>;

/** Query keys of everything people browse. */
export const browseKeys = {
  all: ["browse"] as const,
  categories: () => ["browse", "categories"] as const,
  exploreCollections: (filters: Filters) => ["browse", "explore-collections", filters] as const,
  exploreItems: (filters: Filters) => ["browse", "explore-items", filters] as const,
  collections: () => ["browse", "collection"] as const,
  collection: (name: string, sort: ItemSort, tab: CollectionTab | undefined, trait?: TraitChoice) =>
    [
      "browse",
      "collection",
      name.toLowerCase(),
      sort,
      tab ?? "all",
      ...(trait ? [trait.type, trait.value] : []),
    ] as const,
  search: (text: string) => ["browse", "search", text.trim().toLowerCase()] as const,
  home: () => ["browse", "home"] as const,
  activity: (address: string, kind: ActivityFilter | undefined) =>
    ["browse", "activity", address, kind ?? "all"] as const,
  history: (address: string, range: HistoryRange) => ["browse", "history", address, range] as const,
};

export const categoriesQuery = () =>
  queryOptions({
    queryKey: browseKeys.categories(),
    queryFn: async () =>
      (await apiFetch<{ data: { category_web2: { _id: number; title: string }[] } }>("/api/category-web2"))
        .data.category_web2,
    staleTime: 10 * 60_000,
  });

/** GET /api/explore/collections, page by page (the spec's page and lastPage). */
export const exploreCollectionsQuery = (filters: Omit<ExploreCollectionsQuery, "page" | "limit">) =>
  infiniteQueryOptions({
    queryKey: browseKeys.exploreCollections(filters as Filters),
    queryFn: ({ pageParam }) =>
      apiFetch<ExploreCollectionsResponse>(
        `/api/explore/collections?${queryString({ ...(filters as Filters), page: pageParam })}`,
      ),
    initialPageParam: 1,
    getNextPageParam: (last, _all, page) => (last.lastPage ? undefined : page + 1),
  });

/** GET /api/explore, following keyset cursors. */
export const exploreItemsQuery = (filters: Omit<ExploreItemsQuery, "cursor" | "limit">) =>
  infiniteQueryOptions({
    queryKey: browseKeys.exploreItems(filters as Filters),
    queryFn: async ({ pageParam }) =>
      (
        await apiFetch<ExploreItemsResponse>(
          `/api/explore?${queryString({ ...(filters as Filters), cursor: pageParam })}`,
        )
      ).data,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** GET /api/collection: the collection and its NFTs (tab, sort and a trait), following cursors. */
export const collectionQuery = (
  name: string,
  sort: ItemSort,
  tab: CollectionTab | undefined,
  trait?: TraitChoice,
) =>
  infiniteQueryOptions({
    queryKey: browseKeys.collection(name, sort, tab, trait),
    queryFn: async ({ pageParam }) =>
      (
        await apiFetch<CollectionResponse>(
          `/api/collection?${queryString({ name, sort, filter: tab, traitType: trait?.type, traitValue: trait?.value, cursor: pageParam })}`,
        )
      ).data,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // A new tab or sort keeps the page and its current cards on screen (dimmed) until its cards arrive.
    placeholderData: keepPreviousData,
    retry: false,
  });

export const searchQuery = (text: string) =>
  queryOptions({
    queryKey: browseKeys.search(text),
    queryFn: async () =>
      (await apiFetch<SearchResponse>(`/api/search?${queryString({ searchItem: text.trim() })}`)).data,
    enabled: text.trim().length > 0,
    staleTime: 30_000,
  });

export const homeQuery = () =>
  queryOptions({
    queryKey: browseKeys.home(),
    queryFn: async () => (await apiFetch<HomeResponse>("/api/home")).data,
  });

/** GET /api/collection/activity, newest first, following cursors. */
export const collectionActivityQuery = (address: string, kind: ActivityFilter | undefined) =>
  infiniteQueryOptions({
    queryKey: browseKeys.activity(address, kind),
    queryFn: async ({ pageParam }) =>
      (
        await apiFetch<CollectionActivityResponse>(
          `/api/collection/activity?${queryString({ id: address, kind, cursor: pageParam })}`,
        )
      ).data,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    placeholderData: keepPreviousData,
  });

/** GET /api/collection/stats: volume, sales and floor per day. */
export const collectionHistoryQuery = (address: string, range: HistoryRange) =>
  queryOptions({
    queryKey: browseKeys.history(address, range),
    queryFn: async () =>
      (
        await apiFetch<CollectionHistoryResponse>(
          `/api/collection/stats?${queryString({ id: address, range })}`,
        )
      ).data.days,
    placeholderData: keepPreviousData,
  });

export const useCategories = () => useQuery(categoriesQuery());
export const useExploreCollections = (filters: Parameters<typeof exploreCollectionsQuery>[0]) =>
  useInfiniteQuery(exploreCollectionsQuery(filters));
export const useExploreItems = (filters: Parameters<typeof exploreItemsQuery>[0]) =>
  useInfiniteQuery(exploreItemsQuery(filters));
export const useCollection = (
  name: string,
  sort: ItemSort,
  tab: CollectionTab | undefined,
  trait?: TraitChoice,
) => useInfiniteQuery(collectionQuery(name, sort, tab, trait));
export const useSearch = (text: string) => useQuery(searchQuery(text));
export const useHome = () => useQuery(homeQuery());
export const useCollectionActivity = (address: string, kind: ActivityFilter | undefined) =>
  useInfiniteQuery(collectionActivityQuery(address, kind));
export const useCollectionHistory = (address: string, range: HistoryRange) =>
  useQuery(collectionHistoryQuery(address, range));

/**
 * POST /api/collection/favorite with the wanted state. The page shows it at once and puts it back if the
 * call fails (the spec's favourite toggle).
 */
export function useFavoriteCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ collectionId, favorite }: { collectionId: string; favorite: boolean }) =>
      apiFetch<{ data: { favorite: boolean; favorites: number } }>("/api/collection/favorite", {
        method: "POST",
        body: { collectionId, favorite },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: browseKeys.collections() }),
  });
}

/** POST /api/collection/check_name: resolves when the name (and symbol) can be used; 400 names the field. */
export const checkCollectionName = (name: string, symbol: string) =>
  apiFetch("/api/collection/check_name", { method: "POST", body: { name, symbol } });

/** GET /api/collection/lazy-voucher: the platform's signature for one lazy collection from this wallet. */
export const fetchLazyVoucher = async (query: {
  name: string;
  symbol: string;
  catWeb2_id: number;
  maximumSupply: number;
}) =>
  (
    await apiFetch<LazyVoucherResponse>(
      `/api/collection/lazy-voucher?${queryString(query as Record<string, string | number>)}`,
    )
  ).data.voucher;

/** POST /api/collection: attaches Easel's details to a collection the wallet created; answers its slug. */
export const registerCollection = async (body: RegisterCollection) =>
  (await apiFetch<RegisterCollectionResponse>("/api/collection", { method: "POST", body })).data;

/** POST /api/nft/favorite with the wanted state; lists refresh afterwards so counts and sorts agree. */
export function useFavoriteItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { collection: string; tokenId: string; favorite: boolean }) =>
      apiFetch<ItemFavoriteResponse>("/api/nft/favorite", { method: "POST", body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: browseKeys.all }),
  });
}

/** POST /api/nft/view: counts this visit (the server keeps one per viewer a day). */
export const recordItemView = (collection: string, tokenId: string) =>
  apiFetch("/api/nft/view", { method: "POST", body: { collection, tokenId } });

/** PUT /api/collection/edit: the owner's description, images and social links. */
export function useEditCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CollectionEdit) =>
      apiFetch<{ data: { message: string } }>("/api/collection/edit", { method: "PUT", body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: browseKeys.all }),
  });
}
