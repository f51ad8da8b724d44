import type { PublicConfig } from "@easel/common";
import { type Chain, defineChain } from "viem";
import { mainnet, sepolia } from "viem/chains";
import { createConfig, createStorage, http, injected } from "wagmi";
import { STORAGE_KEYS } from "../lib/storage.ts";

/** The default RPC of anvil when the server does not name one. */
const LOCAL_RPC_FALLBACK = "http://127.0.0.1:8545";

function absoluteUrl(url: string): string {
  if (typeof window === "undefined") return url;
  return new URL(url, window.location.origin).toString();
}

/** The chain Easel runs on, from the server's public config. */
export function chainFromConfig(config: PublicConfig): Chain {
  const rpcUrl = config.rpcUrl ? absoluteUrl(config.rpcUrl) : null;
  const known = [mainnet, sepolia].find((chain) => chain.id === config.chainId);
  if (known && !config.localChain) {
    return rpcUrl ? { ...known, rpcUrls: { default: { http: [rpcUrl] } } } : known;
  }
  return defineChain({
    id: config.chainId,
    name: "Easel Local",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl ?? LOCAL_RPC_FALLBACK] } },
    testnet: true,
  });
}

/**
 * Builds the wagmi config for the configured chain: every browser wallet that announces itself (EIP-6963,
 * one connector each, by its own name and icon), the injected `window.ethereum` connector for wallets that do
 * not announce, WalletConnect when the server names a project (walletConnect.ts), plus the Dev wallet on the
 * local chain only.
 */
export async function createWagmiConfig(config: PublicConfig) {
  const chain = chainFromConfig(config);
  // The Dev wallet (and its key derivation code) is loaded only on the local chain.
  const dev = config.localChain ? [(await import("../wallet/devWallet.ts")).devWallet({ chain })] : [];
  const projectId = config.walletConnectProjectId;
  const relayed = projectId
    ? [await (await import("./walletConnect.ts")).walletConnectConnector(projectId)]
    : [];
  return createConfig({
    chains: [chain],
    connectors: [injected(), ...relayed, ...dev],
    transports: { [chain.id]: http(chain.rpcUrls.default.http[0]) },
    multiInjectedProviderDiscovery: true,
    storage: createStorage({
      key: STORAGE_KEYS.wagmi,
      storage: typeof window !== "undefined" ? window.localStorage : undefined,
    }),
  });
}

export type EaselWagmiConfig = Awaited<ReturnType<typeof createWagmiConfig>>;
