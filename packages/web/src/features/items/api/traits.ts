import type { ItemTraitsResponse } from "@easel/common";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";
import { queryString } from "../../browse/api/browse.ts";

/** Query keys of an item's traits (apart from the item's own key: chain events about the token need not refetch them). */
export const itemTraitsKeys = {
  all: ["item-traits"] as const,
  item: (collection: string, tokenId: string) => ["item-traits", collection.toLowerCase(), tokenId] as const,
};

/** GET /api/nft/traits: an item's properties, each with how many items of its collection share that value. */
export const itemTraitsQuery = (collection: string, tokenId: string) =>
  queryOptions({
    queryKey: itemTraitsKeys.item(collection, tokenId),
    queryFn: async () =>
      (await apiFetch<ItemTraitsResponse>(`/api/nft/traits?${queryString({ collection, tokenId })}`)).data
        .traits,
    staleTime: 60_000,
    retry: false,
  });
export const useItemTraits = (collection: string, tokenId: string) =>
  useQuery(itemTraitsQuery(collection, tokenId));
