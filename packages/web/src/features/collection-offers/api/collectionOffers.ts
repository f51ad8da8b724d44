import type {
  bestCollectionOfferResponseSchema,
  CollectionOffer,
  collectionOffersResponseSchema,
  traitRootResponseSchema,
} from "@easel/common";
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "../../../api/client.ts";

type ListResponse = z.infer<typeof collectionOffersResponseSchema>;
type BestResponse = z.infer<typeof bestCollectionOfferResponseSchema>;
export type TraitRoot = z.infer<typeof traitRootResponseSchema>["data"];
export type BestCollectionOffer = NonNullable<BestResponse["data"]>;
export type { CollectionOffer };

/** Query keys: a collection's offers, a buyer's, and the best offer of one work. */
export const collectionOfferKeys = {
  all: ["collection-offers"] as const,
  collection: (collection: string) => ["collection-offers", "collection", collection.toLowerCase()] as const,
  buyer: (buyer: string) => ["collection-offers", "buyer", buyer.toLowerCase()] as const,
  best: (collection: string, tokenId: string) =>
    ["collection-offers", "best", collection.toLowerCase(), tokenId] as const,
};

/**
 * POST /api/collection-offers/roots: the server finds the collection's works with the trait and answers their
 * token root (and keeps the ids, so their owners get proofs). 400 in words for a trait no work has.
 */
export const postTraitRoot = async (input: { collection: string; traitType: string; traitValue: string }) =>
  (
    await apiFetch<{ data: TraitRoot }>("/api/collection-offers/roots", {
      method: "POST",
      body: input,
    })
  ).data;

/** GET /api/collection-offers?buyer=: a buyer's collection offers, newest first. */
export const buyerCollectionOffersQuery = (buyer: string) =>
  queryOptions({
    queryKey: collectionOfferKeys.buyer(buyer),
    queryFn: async () =>
      (await apiFetch<ListResponse>(`/api/collection-offers?buyer=${encodeURIComponent(buyer)}`)).data,
  });
export const useBuyerCollectionOffers = (buyer: string) => useQuery(buyerCollectionOffersQuery(buyer));

/** GET /api/collection-offers/best: the best live offer this work can accept, with its proof (null: none). */
export const bestCollectionOfferQuery = (collection: string, tokenId: string) =>
  queryOptions({
    queryKey: collectionOfferKeys.best(collection, tokenId),
    queryFn: async () =>
      (
        await apiFetch<BestResponse>(
          `/api/collection-offers/best?collection=${encodeURIComponent(collection)}&tokenId=${encodeURIComponent(tokenId)}`,
        )
      ).data,
    staleTime: 15_000,
  });
export const useBestCollectionOffer = (collection: string, tokenId: string, enabled = true) =>
  useQuery({ ...bestCollectionOfferQuery(collection, tokenId), enabled });
