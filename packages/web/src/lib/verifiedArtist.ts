import { useReadContract } from "wagmi";
import { useAppConfig } from "../app/appConfig.tsx";

/**
 * The two functions of the market contract (packages/contracts `easelMarketAbi`) the web app needs for
 * artist verification. Kept as a fragment so the bundle does not carry the contracts' bytecode;
 * `verifiedArtist.test.ts` checks it against the full ABI.
 */
export const marketVerifyAbi = [
  {
    type: "function",
    name: "isVerifiedArtist",
    stateMutability: "view",
    inputs: [{ name: "account", type: "address", internalType: "address" }],
    outputs: [{ name: "", type: "bool", internalType: "bool" }],
  },
  {
    type: "function",
    name: "setArtistVerified",
    stateMutability: "nonpayable",
    inputs: [
      { name: "account", type: "address", internalType: "address" },
      { name: "verified", type: "bool", internalType: "bool" },
    ],
    outputs: [],
  },
] as const;

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
    abi: marketVerifyAbi,
    functionName: "isVerifiedArtist",
    args: address ? [address as `0x${string}`] : undefined,
    query: { enabled: !!market && !!address },
  });
}
