import { CHAIN_IDS } from "@easel/common";
import {
  type Chain,
  createPublicClient,
  defineChain,
  fallback,
  http,
  type PublicClient,
  webSocket,
} from "viem";
import { mainnet, sepolia } from "viem/chains";

export const localChain = defineChain({
  id: CHAIN_IDS.local,
  name: "Easel Local",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
});

export function chainFor(chainId: number): Chain {
  if (chainId === CHAIN_IDS.mainnet) return mainnet;
  if (chainId === CHAIN_IDS.sepolia) return sepolia;
  return localChain;
}

/**
 * A public client over every configured RPC URL, falling back from one to the next.
 * Retries with backoff on timeouts and rate limits (viem's defaults, made explicit).
 */
export function createChainClient(chainId: number, rpcUrls: string[]): PublicClient {
  const transports = rpcUrls.map((url) =>
    url.startsWith("ws")
      ? webSocket(url, { retryCount: 3, timeout: 10_000 })
      : http(url, { retryCount: 3, retryDelay: 250, timeout: 10_000 }),
  );
  return createPublicClient({
    chain: chainFor(chainId),
    transport: transports.length === 1 ? (transports[0] as (typeof transports)[0]) : fallback(transports),
  });
}
