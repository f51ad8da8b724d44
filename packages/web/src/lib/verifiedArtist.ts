import { easelMarketAbi } from "@easel/contracts/abis";
import { useReadContract } from "wagmi";
import { useAppConfig } from "../app/appConfig.tsx";

/** The market contract's address from GET /api/config, if the server names one. */
export function useMarketAddress(): `0x${string}` | undefined {
  const config = useAppConfig();
  return config.contracts.market as `0x${string}` | undefined;
}

/** Whether the market contract has verified this address as an artist (read from chain). */
export function useIsVerifiedArtist(address: string | null | undefined) {
  const market = useMarketAddress();
  return useReadContract({
    address: market,
    abi: easelMarketAbi,
    functionName: "isVerifiedArtist",
    args: address ? [address as `0x${string}`] : undefined,
    query: { enabled: !!market && !!address },
  });
}
