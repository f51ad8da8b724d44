import { formatEther, parseEther } from "viem";

/** An amount of ETH typed by a person, in wei; null when the text is not an amount (at most 18 decimals). */
export function parseEthAmount(text: string): bigint | null {
  const trimmed = text.trim();
  if (!/^\d+(\.\d{1,18})?$/.test(trimmed) && !/^\.\d{1,18}$/.test(trimmed)) return null;
  return parseEther(trimmed.startsWith(".") ? `0${trimmed}` : trimmed);
}

export const PRICE_MESSAGES = {
  required: "Enter a value",
  invalid: "Enter a valid price!",
  min: (minimum: bigint) => `Price must be at least ${formatEther(minimum)} ETH`,
} as const;

/** The price's problem in the spec's words, or null: empty, not a number or zero, under the minimum. */
export function priceError(text: string, minimum: bigint): string | null {
  if (text.trim() === "") return PRICE_MESSAGES.required;
  const wei = parseEthAmount(text);
  if (wei === null || wei === 0n) return PRICE_MESSAGES.invalid;
  if (wei < minimum) return PRICE_MESSAGES.min(minimum);
  return null;
}

/** An amount of ETH in wei, as text (exact, or cut to `decimals` places); "—" for none. */
export const ethText = (wei: bigint | string | null | undefined, decimals?: number) => {
  if (wei === null || wei === undefined) return "—";
  const text = formatEther(BigInt(wei));
  if (decimals === undefined) return `${text} ETH`;
  const [whole, fraction = ""] = text.split(".");
  return `${whole}.${fraction.padEnd(decimals, "0").slice(0, decimals)} ETH`;
};
