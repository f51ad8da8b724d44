import { CHAIN_IDS } from "@easel/common";
import {
  type Chain,
  createPublicClient,
  defineChain,
  fallback,
  http,
  type PublicClient,
  TimeoutError,
  type Transport,
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

/** Each attempt's timeout, and how many retries, for the indexer and the worker (reads of many blocks' logs). */
const BACKGROUND_TIMEOUT_MS = 10_000;

export type ChainClientOptions = {
  /**
   * The longest one call may take, retries and fallbacks included (the API: RPC_TIMEOUT_SECONDS); past it the
   * call fails with viem's TimeoutError, which the API answers 503. Unset: viem's own bounds
   * (10 s an attempt, 3 retries), for the indexer.
   */
  deadlineMs?: number;
};

/**
 * A public client over every configured RPC URL, falling back from one to the next.
 * Retries with backoff on timeouts and rate limits (viem's defaults, made explicit).
 */
export function createChainClient(
  chainId: number,
  rpcUrls: string[],
  options: ChainClientOptions = {},
): PublicClient {
  const { deadlineMs } = options;
  // Under a deadline an attempt may not take all of it, so a fallback or a retry still has time.
  const timeout = deadlineMs ? Math.max(500, Math.floor(deadlineMs / 2)) : BACKGROUND_TIMEOUT_MS;
  const transports = rpcUrls.map((url) =>
    url.startsWith("ws")
      ? webSocket(url, { retryCount: 3, timeout })
      : http(url, { retryCount: 3, retryDelay: 250, timeout }),
  );
  const transport =
    transports.length === 1 ? (transports[0] as (typeof transports)[0]) : fallback(transports);
  return createPublicClient({
    chain: chainFor(chainId),
    transport: deadlineMs ? withDeadline(transport, deadlineMs) : transport,
  });
}

/**
 * A transport whose every request fails with viem's TimeoutError once `ms` have passed, whatever its retries
 * and fallbacks are still doing: a request of the API never waits longer than that for the chain.
 */
export function withDeadline(transport: Transport, ms: number): Transport {
  return (parameters) => {
    const inner = transport(parameters);
    const request = (async (args, requestOptions) => {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new TimeoutError({ body: { method: args.method }, url: "the chain's RPC" })),
          ms,
        );
      });
      try {
        return await Promise.race([inner.request(args, requestOptions), deadline]);
      } finally {
        clearTimeout(timer);
      }
    }) as typeof inner.request;
    return { ...inner, request };
  };
}
