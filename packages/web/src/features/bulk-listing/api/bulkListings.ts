import type {
  BulkListingInput,
  bulkListingResponseSchema,
  ListableWork,
  listableWorksResponseSchema,
} from "@easel/common";
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "../../../api/client.ts";

export type BulkListingResult = z.infer<typeof bulkListingResponseSchema>["data"];
export type { ListableWork };

/** The signed-in seller's works that can be listed by signature, per collection (or all: `null`). */
export const listableKeys = {
  all: ["listable-works"] as const,
  of: (collection: string | null) => ["listable-works", collection ?? "all"] as const,
};

/** GET /api/signed-listings/listable: the seller's works it can list now (owned, no auction, not listed on chain). */
export const listableWorksQuery = (collection: string | null) =>
  queryOptions({
    queryKey: listableKeys.of(collection),
    queryFn: async () =>
      (
        await apiFetch<z.infer<typeof listableWorksResponseSchema>>(
          `/api/signed-listings/listable${collection ? `?collection=${encodeURIComponent(collection)}` : ""}`,
        )
      ).data,
  });

export function useListableWorks(collection: string | null) {
  return useQuery(listableWorksQuery(collection));
}

/**
 * POST /api/signed-listings/bulk: the orders of one signature, in the order signed. Each is checked as a single
 * listing and on chain; the answer says which were listed and which refused, and why.
 */
export const postBulkListing = async (input: BulkListingInput): Promise<BulkListingResult> =>
  (
    await apiFetch<z.infer<typeof bulkListingResponseSchema>>("/api/signed-listings/bulk", {
      method: "POST",
      body: input as unknown as Record<string, unknown>,
    })
  ).data;
