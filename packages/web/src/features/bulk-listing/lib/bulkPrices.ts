import { PRICE_MESSAGES, parseEthAmount, priceError } from "../../../lib/eth.ts";

/** How the seller prices the works chosen: one price for all, or a price each. */
export type PriceMode = "one" | "each";

export const BULK_PRICE_TEXT = {
  nothingChosen: "Choose at least one work",
} as const;

/**
 * The price of each chosen work in wei, or the errors to show beside the fields: `one` (the shared price), or
 * each work's key (a price each). The minimum is the market's listing minimum (0 while it is not read yet: the
 * API still refuses a lower price, in its words).
 */
export function bulkPrices(
  keys: readonly string[],
  mode: PriceMode,
  one: string,
  each: Readonly<Record<string, string>>,
  minimum: bigint,
): { prices: Map<string, bigint>; errors: Record<string, string> } {
  const prices = new Map<string, bigint>();
  const errors: Record<string, string> = {};
  if (keys.length === 0) return { prices, errors: { selection: BULK_PRICE_TEXT.nothingChosen } };
  if (mode === "one") {
    const problem = priceError(one, minimum);
    if (problem) return { prices, errors: { one: problem } };
    for (const key of keys) prices.set(key, parseEthAmount(one) as bigint);
    return { prices, errors };
  }
  for (const key of keys) {
    const text = each[key] ?? "";
    const problem = priceError(text, minimum);
    if (problem) errors[key] = problem;
    else prices.set(key, parseEthAmount(text) as bigint);
  }
  return { prices, errors };
}

export { PRICE_MESSAGES };
