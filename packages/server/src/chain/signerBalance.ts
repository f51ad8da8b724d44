import type { PublicClient } from "viem";
import { parseEther } from "viem";
import { sharedFor } from "../sharedFor.ts";

/**
 * Below this the platform signer is reported low (`/api/health`'s `signer.low`): it pays for every voucher
 * revocation (`revokeVouchers()`, about 36,000 gas), so 0.05 ETH is some 25 of them at 50 gwei. Without ETH a
 * lazy price raise over open vouchers is refused until they expire.
 */
export const SIGNER_LOW_BALANCE_WEI = parseEther("0.05");

/**
 * The signer's balance in wei, read from the chain at most once per `ttlMs` whatever the number of health checks
 * and scrapes (reads that arrive during one wait for it; it moves only when the signer sends a revocation); null
 * when the chain cannot answer, which is kept as long (a dead RPC is not asked again at every check).
 */
export function signerBalanceReader(
  chain: PublicClient,
  address: `0x${string}`,
  ttlMs = 30_000,
): () => Promise<bigint | null> {
  return sharedFor(() => chain.getBalance({ address }).catch(() => null), ttlMs);
}
