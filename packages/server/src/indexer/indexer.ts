import { eq, sql } from "drizzle-orm";
import type { Log, PublicClient } from "viem";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { indexerState } from "../db/schema.ts";

/** Advisory lock key: the one indexer that holds it is the leader; the others wait. */
const LEADER_LOCK_KEY = 7_340_002;
/** Blocks per getLogs request: small enough for public RPC limits. */
const BLOCK_RANGE = 2_000n;

export type IndexerOptions = {
  db: Database;
  chain: PublicClient;
  config: Config;
  log: (message: string) => void;
  pollIntervalMs?: number;
  /** Applies one batch of logs inside the batch's transaction. */
  applyLogs?: (tx: Database, logs: Log[]) => Promise<void>;
};

export type Indexer = { stop(): Promise<void> };

/**
 * Follows the chain from the deployment block to the head, reading the logs of Easel's contracts
 * in block ranges and advancing its cursor in the same transaction as what it writes.
 * Only the process holding the leader lock indexes; the others stand by and take over if it dies.
 */
export function startIndexer(options: IndexerOptions): Indexer {
  const { db, log } = options;
  const pollMs = options.pollIntervalMs ?? 1000;
  let stopping = false;
  let wake: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const run = async () => {
    let backoffMs = pollMs;
    while (!stopping) {
      const client = await db.$client.connect().catch((error: unknown) => {
        log(`indexer: database unavailable (${String(error)}); retrying`);
        return null;
      });
      if (!client) {
        await sleep(backoffMs);
        continue;
      }
      try {
        const { rows } = await client.query<{ locked: boolean }>(
          "SELECT pg_try_advisory_lock($1) AS locked",
          [LEADER_LOCK_KEY],
        );
        if (!rows[0]?.locked) {
          await sleep(5 * pollMs);
          continue;
        }
        log("indexer: leader; following the chain");
        while (!stopping) {
          const caughtUp = await step(options);
          backoffMs = pollMs;
          if (caughtUp) await sleep(pollMs);
        }
      } catch (error) {
        // RPC and database faults never crash the process; the batch rolled back, so retry it.
        log(`indexer: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}; retrying`);
        backoffMs = Math.min(backoffMs * 2, 30_000);
        await sleep(backoffMs);
      } finally {
        await client.query("SELECT pg_advisory_unlock_all()").catch(() => {});
        client.release();
      }
    }
  };
  const done = run();

  return {
    async stop() {
      stopping = true;
      (wake as (() => void) | null)?.();
      await done;
    },
  };
}

/** Indexes the next range of blocks. Returns true when the indexer has reached the final head. */
async function step({ db, chain, config, applyLogs }: IndexerOptions): Promise<boolean> {
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  const final = head - BigInt(config.indexerConfirmations);
  const [state] = await db.select().from(indexerState).where(eq(indexerState.chainId, config.chainId));
  const from = state ? state.indexedBlock + 1n : config.deployBlock;
  if (from > final) {
    await db
      .insert(indexerState)
      .values({ chainId: config.chainId, headBlock: head, indexedBlock: from - 1n })
      .onConflictDoUpdate({ target: indexerState.chainId, set: { headBlock: head, updatedAt: sql`now()` } });
    return true;
  }
  const to = from + BLOCK_RANGE - 1n < final ? from + BLOCK_RANGE - 1n : final;
  const logs = await chain.getLogs({
    address: Object.values(config.contracts),
    fromBlock: from,
    toBlock: to,
  });
  await db.transaction(async (tx) => {
    if (applyLogs) await applyLogs(tx as unknown as Database, logs);
    await tx
      .insert(indexerState)
      .values({ chainId: config.chainId, headBlock: head, indexedBlock: to })
      .onConflictDoUpdate({
        target: indexerState.chainId,
        set: { headBlock: head, indexedBlock: to, updatedAt: sql`now()` },
      });
  });
  return to >= final;
}
