import type { CartQuote } from "@easel/common";
import { type CartWork, workKey } from "./cartStore.ts";

export const RECONCILE_TEXT = {
  sold: (name: string, message: string) => `${name}: ${message} while in your cart`,
  unlisted: (name: string) => `${name}: Unlisted while in your cart`,
  gone: (name: string, message: string) => `${name}: ${message}, so it left your cart`,
} as const;

/**
 * What a quote changes in a cart: the works sold, unlisted, gone or now the buyer's own leave it, each with a
 * sentence that says why ("Harbour #4: Sold to 0x3c…93bc while in your cart"); a work the market refuses for
 * now (a lock, a ban) stays, its line says why.
 */
export function reconcile(
  works: readonly CartWork[],
  quote: CartQuote,
): { remove: string[]; notices: string[] } {
  const inCart = new Map(works.map((w) => [workKey(w), w]));
  const remove: string[] = [];
  const notices: string[] = [];
  for (const line of quote.lines) {
    const key = workKey(line);
    const work = inCart.get(key);
    if (!work || line.unavailable === null || line.unavailable === "refused") continue;
    const name = work.name || line.name;
    remove.push(key);
    if (line.unavailable === "sold") notices.push(RECONCILE_TEXT.sold(name, line.message ?? "Sold"));
    else if (line.unavailable === "unlisted") notices.push(RECONCILE_TEXT.unlisted(name));
    else notices.push(RECONCILE_TEXT.gone(name, line.message ?? "Not for sale"));
  }
  return { remove, notices };
}
