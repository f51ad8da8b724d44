import type { CollectionTraitsResponse } from "@easel/common";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";
import { browseKeys, queryString } from "./browse.ts";

/** Query key of a collection's traits (under the browse keys, so what refreshes browsing refreshes them). */
export const collectionTraitsKey = (address: string) =>
  [...browseKeys.all, "collection-traits", address.toLowerCase()] as const;

/** GET /api/collection/traits: each trait type of a collection's items, with its values and their counts. */
export const collectionTraitsQuery = (address: string) =>
  queryOptions({
    queryKey: collectionTraitsKey(address),
    queryFn: async () =>
      (await apiFetch<CollectionTraitsResponse>(`/api/collection/traits?${queryString({ id: address })}`))
        .data,
    staleTime: 60_000,
  });
export const useCollectionTraits = (address: string) => useQuery(collectionTraitsQuery(address));
