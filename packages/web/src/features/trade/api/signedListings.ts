import type {
  mySignedListingsResponseSchema,
  SignedListingInput,
  SignedListingOrder,
  signedListingFillResponseSchema,
  signedListingResponseSchema,
} from "@easel/common";
import { packBulkSignature } from "@easel/contracts/orders";
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "../../../api/client.ts";

/** The signed-in seller's signed listings (the book's answers change with every fill, hide and cancel). */
export const signedListingKeys = {
  all: ["signed-listings"] as const,
  mine: ["signed-listings", "mine"] as const,
};

type SignedListingResponse = z.infer<typeof signedListingResponseSchema>;
type FillResponse = z.infer<typeof signedListingFillResponseSchema>;
export type MySignedListings = z.infer<typeof mySignedListingsResponseSchema>;
export type MySignedListing = MySignedListings["data"][number];

/** POST /api/signed-listings: the API checks the order and its signature on chain, then shows it. */
export const postSignedListing = async (input: SignedListingInput) =>
  (
    await apiFetch<SignedListingResponse>("/api/signed-listings", {
      method: "POST",
      body: input as unknown as Record<string, unknown>,
    })
  ).data;

/**
 * GET /api/signed-listings/fill: the token's best order with its signature, rechecked on chain just now (a
 * buyer asks right before the wallet opens). 404 "This listing is no longer available." when none is live.
 */
export const fetchSignedListingFill = async (collection: string, tokenId: string) =>
  (
    await apiFetch<FillResponse>(
      `/api/signed-listings/fill?collection=${encodeURIComponent(collection)}&tokenId=${encodeURIComponent(tokenId)}`,
    )
  ).data;

/** DELETE /api/signed-listings/:id: hides an order in the app (it stays valid on chain until cancelled). */
export const hideSignedListing = async (id: string) =>
  (
    await apiFetch<SignedListingResponse>(`/api/signed-listings/${encodeURIComponent(id)}`, {
      method: "DELETE",
    })
  ).data;

/** GET /api/signed-listings/mine: the seller's orders still fillable on chain (shown or hidden) and counter. */
export const mySignedListingsQuery = () =>
  queryOptions({
    queryKey: signedListingKeys.mine,
    queryFn: () => apiFetch<MySignedListings>("/api/signed-listings/mine"),
  });

export function useMySignedListings(enabled = true) {
  return useQuery({ ...mySignedListingsQuery(), enabled });
}

/**
 * The seller's orders of one token that the chain still fills below `price` (shown, hidden or paused: all
 * valid on chain until cancelled there), lowest first. Listing the token higher leaves each of them buyable.
 */
export function signedListingsBelow(
  rows: readonly MySignedListing[],
  token: { collection: string; tokenId: string },
  price: bigint,
): MySignedListing[] {
  return rows
    .filter(
      (row) =>
        row.order.collection.toLowerCase() === token.collection.toLowerCase() &&
        BigInt(row.order.tokenId) === BigInt(token.tokenId) &&
        BigInt(row.order.price) < price,
    )
    .sort((a, b) => (BigInt(a.order.price) < BigInt(b.order.price) ? -1 : 1));
}

/** The order as `fillSignedListing` takes it: every uint256 a bigint (`maxFeeBps`, a uint16, a number). */
export const orderArgs = (order: SignedListingOrder) => ({
  collection: order.collection as `0x${string}`,
  tokenId: BigInt(order.tokenId),
  price: BigInt(order.price),
  seller: order.seller as `0x${string}`,
  transferCount: BigInt(order.transferCount),
  counter: BigInt(order.counter),
  expiresAt: BigInt(order.expiresAt),
  maxFeeBps: order.maxFeeBps,
});

type SignedListingFill = FillResponse["data"];

/**
 * The market call that fills `fill`: `fillSignedListing(order, signature)`, or for an order from a bulk
 * signature `fillBulkSignedListing(order, bulkSignature)`, the signature packed with the leaf the API handed out.
 */
export const fillCall = (fill: SignedListingFill) =>
  fill.bulk
    ? ({
        functionName: "fillBulkSignedListing",
        args: [
          orderArgs(fill.order),
          packBulkSignature(
            fill.signature as `0x${string}`,
            BigInt(fill.bulk.index),
            fill.bulk.proof as `0x${string}`[],
          ),
        ],
      } as const)
    : ({
        functionName: "fillSignedListing",
        args: [orderArgs(fill.order), fill.signature as `0x${string}`],
      } as const);
