import type { PublicClient } from "viem";
import { normalize } from "viem/ens";
import type { Config } from "../config.ts";

/** A profile's ENS name is checked again when it is shown after this long. */
export const ENS_RECHECK_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the chain says `name` belongs to `address`: the name resolves to the address and the
 * address's primary (reverse) name is the name. Typing a name proves nothing; only both directions
 * together show that the wallet's owner controls the name and chose it. RPC failures throw.
 */
export async function ensNameBelongsTo(
  chain: PublicClient,
  config: Pick<Config, "ensUniversalResolver">,
  name: string,
  address: string,
): Promise<boolean> {
  let normalized: string;
  try {
    normalized = normalize(name);
  } catch {
    return false;
  }
  const universalResolverAddress = config.ensUniversalResolver;
  const [forward, reverse] = await Promise.all([
    chain.getEnsAddress({ name: normalized, universalResolverAddress }),
    chain.getEnsName({ address: address as `0x${string}`, universalResolverAddress }),
  ]);
  return forward?.toLowerCase() === address.toLowerCase() && reverse === normalized;
}
