import type { CartItem, CartQuote, cartQuoteResponseSchema } from "@easel/common";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "../../../api/client.ts";

type QuoteResponse = z.infer<typeof cartQuoteResponseSchema>;

/** Carts' answers change with every sale and listing: never cached long, keyed by what was asked and by whom. */
export const cartKeys = {
  all: ["cart"] as const,
  quote: (buyer: string, items: readonly CartItem[]) =>
    ["cart", "quote", buyer, items.map((i) => `${i.collection}:${i.tokenId}`).join(",")] as const,
  sweep: (buyer: string, collection: string, count: number, maxPriceWei: string | null) =>
    ["cart", "sweep", buyer, collection.toLowerCase(), count, maxPriceWei] as const,
};

/** POST /api/cart/quote: every work rechecked on chain just now, what `buyMany` takes and the total. */
export const fetchCartQuote = async (items: readonly CartItem[]): Promise<CartQuote> =>
  (
    await apiFetch<QuoteResponse>("/api/cart/quote", {
      method: "POST",
      body: { items: items.map((i) => ({ collection: i.collection, tokenId: i.tokenId })) },
    })
  ).data;

/** GET /api/cart/sweep: the collection's `count` cheapest works at or below the cap, quoted as a cart. */
export const fetchSweep = async (collection: string, count: number, maxPriceWei: string | null) => {
  const params = new URLSearchParams({ collection, count: String(count) });
  if (maxPriceWei !== null) params.set("maxPriceWei", maxPriceWei);
  return (await apiFetch<QuoteResponse>(`/api/cart/sweep?${params}`)).data;
};

/** A quote is fresh for a few seconds: the checkout asks again right before the wallet opens. */
const QUOTE_FRESH_MS = 10_000;

export const cartQuoteQueryOptions = (buyer: string, items: readonly CartItem[]) =>
  queryOptions({
    queryKey: cartKeys.quote(buyer, items),
    queryFn: () => fetchCartQuote(items),
    enabled: items.length > 0,
    staleTime: QUOTE_FRESH_MS,
    retry: false,
  });

/** The quote of `items` for the signed-in `buyer`; null items: nothing asked yet. */
export function useCartQuote(buyer: string, items: readonly CartItem[], enabled = true) {
  return useQuery({ ...cartQuoteQueryOptions(buyer, items), enabled: enabled && items.length > 0 });
}

export const sweepQueryOptions = (
  buyer: string,
  collection: string,
  count: number,
  maxPriceWei: string | null,
) =>
  queryOptions({
    queryKey: cartKeys.sweep(buyer, collection, count, maxPriceWei),
    queryFn: () => fetchSweep(collection, count, maxPriceWei),
    staleTime: QUOTE_FRESH_MS,
    // While the number or the cap changes, the last works stay (marked as updating) instead of flashing away.
    placeholderData: keepPreviousData,
    retry: false,
  });

export function useSweep(
  buyer: string,
  collection: string,
  count: number,
  maxPriceWei: string | null,
  enabled = true,
) {
  return useQuery({ ...sweepQueryOptions(buyer, collection, count, maxPriceWei), enabled });
}
