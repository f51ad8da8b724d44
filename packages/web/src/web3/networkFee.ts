import gasReport from "@easel/contracts/gas-report.json";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { estimateContractGas, estimateFeesPerGas } from "viem/actions";
import { type Config, useConfig } from "wagmi";
import type { TransactionStep } from "./tx/steps.ts";

/** A contract write as the wallet flows take it (`{ ...market, functionName, args, value }`). */
export type ContractCall = Extract<TransactionStep, { kind: "write" }>["call"];

/**
 * What a transaction's gas is found from:
 * - `call`: the call itself, estimated by the chain (eth_estimateGas) as sent by the buyer: a call that would
 *   revert has no estimate;
 * - `makeCall`: the same, for a call whose arguments come from elsewhere first (a signed order from the API),
 *   named by `key`;
 * - `gas`: a measured figure, for a call that cannot be made before the wallet opens (a lazy mint's voucher is
 *   issued when the buyer presses Mint).
 */
export type GasSource =
  | { call: ContractCall }
  | { key: string; makeCall: () => Promise<ContractCall> }
  | { gas: bigint; chainId: number };

/**
 * Gas of `lazyMint`, measured by `npm run bench:gas` (packages/contracts/gas-report.json, `lazyMint`: one
 * creator), and what each further collaborator adds (`mintSplit5` − `mint`, over 4), read from the report itself.
 */
export const LAZY_MINT_GAS = {
  base: BigInt(gasReport.lazyMint),
  perCollaborator: BigInt(Math.round((gasReport.mintSplit5 - gasReport.mint) / 4)),
} as const;

/** A lazy mint's gas for `collaborators` payees (1 for a creator alone). */
export const lazyMintGas = (collaborators: number) =>
  LAZY_MINT_GAS.base + LAZY_MINT_GAS.perCollaborator * BigInt(Math.max(0, collaborators - 1));

/** How long an estimate stays fresh: fees move with every block, but not by much in this long. */
const FEE_FRESH_MS = 15_000;

/** `JSON.stringify` that writes bigints as text (a query key must be JSON). */
const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v));

/** What a source estimates, as text: the call without its ABI (the address and function name it), or its key. */
function sourceKey(source: GasSource | null): string | null {
  if (source === null) return null;
  if ("makeCall" in source) return source.key;
  if ("gas" in source) return json(source);
  const { address, chainId, functionName, args, value } = source.call;
  return json({ address, chainId, functionName, args, value });
}

/**
 * The network fee of a transaction in wei: its gas × the current fee per gas. The fee per gas is viem's
 * `maxFeePerGas` (the next block's base fee with its margin, plus the priority fee), so the figure is what the
 * transaction may cost at most, seldom much less than what it costs; a chain without EIP-1559 gives its gas price.
 */
export async function estimateNetworkFee(
  config: Config,
  source: GasSource,
  account: `0x${string}`,
): Promise<bigint> {
  const call = "call" in source ? source.call : "makeCall" in source ? await source.makeCall() : null;
  const chainId = call ? call.chainId : (source as { chainId: number }).chainId;
  const client = config.getClient({ chainId });
  const [gas, fees] = await Promise.all([
    call
      ? estimateContractGas(client, {
          address: call.address,
          abi: call.abi as never,
          functionName: call.functionName as never,
          args: call.args as never,
          value: call.value,
          account,
        } as never)
      : (source as { gas: bigint }).gas,
    estimateFeesPerGas(client),
  ]);
  const perGas = fees.maxFeePerGas ?? (fees as { gasPrice?: bigint }).gasPrice;
  if (perGas === undefined) throw new Error("The chain gave no fee per gas.");
  return gas * perGas;
}

/** The query of a transaction's network fee (key: `network-fee`, what is estimated, from whom). */
export function networkFeeQueryOptions(
  config: Config,
  source: GasSource | null,
  account: string | undefined,
) {
  return queryOptions({
    queryKey: ["network-fee", sourceKey(source), account?.toLowerCase() ?? null],
    queryFn: () => estimateNetworkFee(config, source as GasSource, account as `0x${string}`),
    enabled: source !== null && !!account,
    staleTime: FEE_FRESH_MS,
    refetchInterval: FEE_FRESH_MS * 2,
    // While a typed amount changes, the last figure stays (marked as updating) instead of flashing away.
    placeholderData: keepPreviousData,
    // viem's transport retries what may pass on a second try; a revert would fail again.
    retry: false,
  });
}

/**
 * The network fee of a transaction `account` would send, in wei; `source` null: nothing to estimate yet. A source
 * that changes while typing (a bid) is estimated once it has stood still for `settleMs`.
 */
export function useNetworkFee(source: GasSource | null, account: string | undefined, settleMs = 400) {
  const config = useConfig();
  const settled = useSettled(source, settleMs);
  return useQuery(networkFeeQueryOptions(config, settled, account));
}

/** `source` once what it estimates has not changed for `ms` (a new object for the same call is the same). */
function useSettled(value: GasSource | null, ms: number): GasSource | null {
  const [settled, setSettled] = useState(value);
  const now = sourceKey(value);
  const was = sourceKey(settled);
  // The timer restarts when what `value` estimates changes (`now`), not when a new object says the same.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `value` is followed through `now`
  useEffect(() => {
    if (now === was) return;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [now, was, ms]);
  return now === was ? value : settled;
}
