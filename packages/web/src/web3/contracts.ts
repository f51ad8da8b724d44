import { easelCollectionAbi, easelFactoryAbi, easelMarketAbi } from "@easel/contracts/abis";
import { useAppConfig } from "../api/appConfig.tsx";

type Address = `0x${string}`;

/** The market contract's address from GET /api/config, if the server names one. */
export function useMarketAddress(): Address | undefined {
  const config = useAppConfig();
  return config.contracts.market as Address | undefined;
}

/**
 * The market bound once: address, ABI and chain, ready to spread into a read or a write step
 * (`{ ...market, functionName, args }`). `undefined` while the server names no market.
 */
export function useMarket() {
  const address = useMarketAddress();
  const { chainId } = useAppConfig();
  return address ? ({ address, abi: easelMarketAbi, chainId } as const) : undefined;
}

/** The collection factory bound the same way. */
export function useFactory() {
  const { contracts, chainId } = useAppConfig();
  const address = contracts.factory as Address | undefined;
  return address ? ({ address, abi: easelFactoryAbi, chainId } as const) : undefined;
}

/** A collection bound the same way. */
export function collectionContract(address: Address, chainId: number) {
  return { address, abi: easelCollectionAbi, chainId } as const;
}
