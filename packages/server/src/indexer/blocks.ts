import { BlockNotFoundError, type PublicClient } from "viem";

/** What the indexer reads of the chain besides logs: block headers, and the sizes of its requests. */

/** Block hashes kept below the cursor for finding the common ancestor after a reorg. */
export const KEEP_BLOCKS = 1_000n;
/** Addresses per getLogs request. */
export const ADDRESS_CHUNK = 500;

/** What the indexer reads of a block header. */
export type ChainBlock = { hash: string; parent: string; time: number; bloom: `0x${string}` | null };

/** The chain's hash and parent hash of a block, or null when the chain has no such block (it got shorter). */
export async function chainBlock(chain: PublicClient, number: bigint): Promise<ChainBlock | null> {
  try {
    const block = await chain.getBlock({ blockNumber: number });
    return block.hash
      ? {
          hash: block.hash.toLowerCase(),
          parent: block.parentHash.toLowerCase(),
          time: Number(block.timestamp),
          bloom: block.logsBloom,
        }
      : null;
  } catch (error) {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  }
}

export async function chainHash(chain: PublicClient, number: bigint): Promise<string | null> {
  return (await chainBlock(chain, number))?.hash ?? null;
}
