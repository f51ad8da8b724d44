import type { EthPriceResponse } from "@easel/common";
import { useQuery } from "@tanstack/react-query";
import { parseUnits } from "viem";
import { apiFetch } from "../api/client.ts";
import { groupDigits } from "../lib/dates.ts";

/** GET /api/nft/eth-price: USD per ETH from the chain's price feed (the server reads it once a minute). */
export function useEthPrice() {
  return useQuery({
    queryKey: ["eth-price"],
    queryFn: async () => (await apiFetch<EthPriceResponse>("/api/nft/eth-price")).data,
    staleTime: 60_000,
    retry: false,
  });
}

/** A wei amount in US dollars at `usdPerEth` (a decimal string), e.g. "$1,234.56". Integer arithmetic, rounded down to the cent. */
export function weiToUsd(wei: bigint, usdPerEth: string): string {
  return usdCents((wei * parseUnits(usdPerEth, 8)) / 10n ** 24n);
}

/**
 * Whole cents as en-US dollars ("$1,234.56", "-$0.50"), written out by hand: an `Intl.NumberFormat` in the
 * currency style loads the locale's currency data when it is made, which was most of the app's start on a
 * phone (about 10 ms of a 12 ms task on a fast machine, many times that on a phone).
 */
export function usdCents(cents: bigint): string {
  const sign = cents < 0n ? "-" : "";
  const whole = cents < 0n ? -cents : cents;
  const dollars = groupDigits((whole / 100n).toString());
  return `${sign}$${dollars}.${(whole % 100n).toString().padStart(2, "0")}`;
}
