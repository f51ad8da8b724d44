import type { PublicClient, RpcLog } from "viem";
import { ADDRESS_CHUNK, type ChainBlock, chainBlock } from "./blocks.ts";
import { bloomBytes, inBloom } from "./bloom.ts";

/**
 * The logs of blocks near the head, checked against the blocks' headers: an RPC node a few blocks behind the
 * chain (behind a load balancer, a fallback) answers `[]` for the blocks it does not have yet, and a batch that
 * took that answer would lose those blocks' events for good.
 */

/** Blocks this close to the head have their logs checked against their headers (see `verifyLogs`). */
export const VERIFY_BLOCKS = 256n;
/** Headers read at once for that check. */
const HEADER_READS = 16;

/**
 * What the RPC answered for the blocks of a range near the head, and so which of its blocks must be checked
 * against their headers. A node answers for the blocks it has, which are all those up to its head: a request
 * that answered a log of block n was answered whole up to n, and only its blocks after the last one with a log
 * may be missing logs (those of a node a few blocks behind). Far from the head (a backfill) every node has the
 * blocks: nothing is checked there, so the backfill reads no header more.
 */
export class Checked {
  /** The first block checked (blocks further from the head are not). */
  readonly from: bigint;
  /** Per block, the addresses whose logs there may be missing from an answer. */
  readonly suspect = new Map<bigint, Set<string>>();

  constructor(
    rangeFrom: bigint,
    readonly to: bigint,
    head: bigint,
    /** Headers read already (the range's first and last blocks). */
    readonly known: Map<bigint, ChainBlock>,
  ) {
    const near = head - VERIFY_BLOCKS + 1n;
    this.from = near > rangeFrom ? near : rangeFrom;
  }

  /** Notes one answer (nothing during a backfill far from the head: it costs nothing there). */
  saw(addresses: string[], fromBlock: bigint, toBlock: bigint, logs: RpcLog[]): void {
    if (toBlock < this.from) return;
    let answered = fromBlock - 1n;
    let raw: string | null = null;
    let header: ChainBlock | undefined;
    for (const l of logs) {
      if (l.blockNumber === null) continue;
      // One bigint per run of logs of one block (they come in block order).
      if (l.blockNumber !== raw) {
        raw = l.blockNumber;
        const n = BigInt(raw);
        if (n > answered) answered = n;
        header = this.known.get(n);
      }
      // The logs must all come from one chain: those of a block whose header was read, from that block.
      if (header && l.blockHash?.toLowerCase() !== header.hash)
        throw new Error(`a log of block ${BigInt(raw)} from another fork; reading again`);
    }
    for (let n = answered + 1n > this.from ? answered + 1n : this.from; n <= toBlock; n++) {
      const set = this.suspect.get(n) ?? new Set<string>();
      this.suspect.set(n, set);
      for (const a of addresses) set.add(a.toLowerCase());
    }
  }
}

/**
 * Refuses a range whose logs near the head the chain contradicts, so the batch is read again (with backoff)
 * until they agree: an address of ours in the `logsBloom` of a block whose logs may be missing from an answer
 * (see `Checked`). A bloom also matches addresses that logged nothing (the busier the block, the more
 * often): such a block is asked again by its hash (EIP-234), which a node without the block refuses instead of
 * answering `[]`, and only logs in that answer fail the range. The headers are read only for those blocks: a
 * batch of one block (following the head) reads none more.
 */
export async function verifyLogs(chain: PublicClient, checked: Checked): Promise<void> {
  const blocks = [...checked.suspect.keys()];
  for (let i = 0; i < blocks.length; i += HEADER_READS) {
    const part = blocks.slice(i, i + HEADER_READS);
    await Promise.all(
      part.map(async (n) => {
        const header = checked.known.get(n) ?? (await chainBlock(chain, n));
        if (!header) throw new Error(`block ${n} is not available yet`);
        if (!header.bloom) return;
        const bloom = bloomBytes(header.bloom);
        const unanswered = [...(checked.suspect.get(n) ?? [])].filter((a) => inBloom(bloom, a));
        for (let j = 0; j < unanswered.length; j += ADDRESS_CHUNK) {
          const logs = (await chain
            .request({
              method: "eth_getLogs",
              params: [
                {
                  address: unanswered.slice(j, j + ADDRESS_CHUNK) as `0x${string}`[],
                  blockHash: header.hash as `0x${string}`,
                },
              ],
            })
            .catch((error: unknown) => {
              throw new Error(
                `the RPC answered no logs of block ${n}, whose header says it may have some, and refuses the block by its hash (${firstLine(error)}): a node behind the chain?; reading again`,
              );
            })) as RpcLog[];
          if (logs.length > 0)
            throw new Error(
              `the RPC answered no logs of block ${n} for ${logs[0]?.address} though the block has some (a node behind the chain?); reading again`,
            );
        }
      }),
    );
  }
}

const firstLine = (error: unknown) => (error instanceof Error ? error.message.split("\n")[0] : String(error));
