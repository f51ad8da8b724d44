import type { ItemResponse, MintCollection, MintResponse, UserSearchResponse } from "@easel/common";
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";
import { useChainEvents } from "../../../api/live.ts";
import { postForm } from "../../../api/media.ts";
import { queryString } from "../../browse/api/browse.ts";

/** What the item page URL names: `/{creator}/{collection}/{id}`, or `/{creator}/{id}` in the default collection. */
export type ItemKey = { creator: string; collection?: string | undefined; tokenId: string };

/** Query keys of items and minting. */
export const itemKeys = {
  all: ["items"] as const,
  item: (key: ItemKey) =>
    ["items", "item", key.creator.toLowerCase(), (key.collection ?? "").toLowerCase(), key.tokenId] as const,
  mintCollections: (category: number | null) => ["items", "mint-collections", category] as const,
  users: (text: string) => ["items", "users", text.trim().toLowerCase()] as const,
};

/** GET /api/nft: the item page's data (404 when the item does not exist for Easel). */
export const itemQuery = (key: ItemKey) =>
  queryOptions({
    queryKey: itemKeys.item(key),
    queryFn: async () =>
      (
        await apiFetch<ItemResponse>(
          `/api/nft?${queryString({ creator: key.creator, collection: key.collection, tokenId: key.tokenId })}`,
        )
      ).data,
    retry: false,
  });
export const useItem = (key: ItemKey) => useQuery(itemQuery(key));

/**
 * Keeps an item's page live: every batch the indexer commits about the token (a bid, an outbid, a sale, a
 * cancelled listing, an extended auction) refetches it, for every viewer, without a reload.
 */
export function useLiveItem(item: ItemResponse["data"]) {
  const queryClient = useQueryClient();
  const token = `${item.nftCollection.contract_address}:${item.nft.tokenId}`;
  useChainEvents(
    item.nft.status === "lazy" ? { collection: item.nftCollection.contract_address } : { token },
    () => {
      void queryClient.invalidateQueries({ queryKey: itemKeys.all });
    },
  );
}

/** GET /api/mint/collections: the artist's collections of an artwork type, and the default collection. */
export const mintCollectionsQuery = (category: number | null) =>
  queryOptions({
    queryKey: itemKeys.mintCollections(category),
    queryFn: async () =>
      (
        await apiFetch<{ data: { collections: MintCollection[] } }>(
          `/api/mint/collections?${queryString({ category_web2_id: category })}`,
        )
      ).data.collections,
    enabled: category !== null,
  });
export const useMintCollections = (category: number | null) => useQuery(mintCollectionsQuery(category));

/** GET /api/profile/search-complete-users: people to split with, by address (0x…) or username prefix. */
export const userSearchQuery = (text: string) =>
  queryOptions({
    queryKey: itemKeys.users(text),
    queryFn: async () =>
      (
        await apiFetch<UserSearchResponse>(
          `/api/profile/search-complete-users?${queryString({ userKey: text.trim() })}`,
        )
      ).data.users,
    enabled: text.trim().length > 0,
    staleTime: 30_000,
  });
export const useUserSearch = (text: string) => useQuery(userSearchQuery(text));

/** POST /api/mint or /api/mint/lazymint with the artwork, reporting the upload's percent. */
export const uploadMint = (lazy: boolean, form: FormData, onProgress: (percent: number) => void) =>
  postForm<MintResponse>(lazy ? "/api/mint/lazymint" : "/api/mint", form, onProgress).then(
    (r) => r.data.newNft,
  );
