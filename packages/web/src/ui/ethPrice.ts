import type { EthPriceResponse } from "@easel/common";
import { useQuery } from "@tanstack/react-query";
import { parseUnits } from "viem";
import { apiFetch } from "../api/client.ts";

/** GET /api/nft/eth-price: USD per ETH from the chain's price feed (the server reads it once a minute). */
export function useEthPrice() {
  return useQuery({
    queryKey: ["eth-price"],
    queryFn: async () => (await apiFetch<EthPriceResponse>("/api/nft/eth-price")).data,
    staleTime: 60_000,
    retry: false,
  });
}

const usdFormat = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** A wei amount in US dollars at `usdPerEth` (a decimal string), e.g. "$1,234.56". Integer arithmetic, rounded down to the cent. */
export function weiToUsd(wei: bigint, usdPerEth: string): string {
  const cents = (wei * parseUnits(usdPerEth, 8)) / 10n ** 24n;
  return usdFormat.format(Number(cents) / 100);
}
