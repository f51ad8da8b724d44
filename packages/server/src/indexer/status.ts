import type { Health } from "@easel/common";
import { sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { IndexerStatusRead } from "../metrics.ts";

/**
 * Where the indexer stands against the chain, as every API process sees it: `/api/health` shows it, and the
 * metrics export the same figures (`easel_indexer_lag_blocks`, `easel_indexer_last_progress_timestamp_seconds`),
 * so an alert and the health check never disagree.
 */

/** The indexer counts as stale when it is this far behind the chain and its cursor has not moved for this long. */
const STALE_BLOCKS = 3n;
const STALE_MS = 30_000;

export type IndexerRow = {
  head_block: string;
  indexed_block: string;
  /** When the cursor last moved, in ms since the epoch. */
  updated_ms: number;
  /**
   * Seconds since the leader last made progress reading the chain (its lease; PostgreSQL's clock for both ends);
   * null with no leader yet.
   */
  heartbeat_age: number | null;
};

/** The indexer's cursor and its leader's lease, or null before the first batch. */
export async function readIndexerRow(db: Database, chainId: number): Promise<IndexerRow | null> {
  const result = await db.execute<IndexerRow>(
    sql`SELECT s.head_block, s.indexed_block, (extract(epoch FROM s.updated_at) * 1000)::float8 AS updated_ms,
               extract(epoch FROM now() - l.heartbeat_at)::float8 AS heartbeat_age
        FROM indexer_state s LEFT JOIN indexer_leader l ON l.id = 1
        WHERE s.chain_id = ${chainId}`,
  );
  return result.rows[0] ?? null;
}

/**
 * Where the indexer stands against the chain's head (the newer of the API's last read and the indexer's):
 * stale when it is behind and not catching up.
 */
export function indexerHealth(
  state: IndexerRow | null,
  chainHead: string | null,
  confirmations: number,
): Health["indexer"] {
  if (!state) return null;
  const indexed = BigInt(state.indexed_block);
  const recorded = BigInt(state.head_block);
  const head = chainHead !== null && BigInt(chainHead) > recorded ? BigInt(chainHead) : recorded;
  const behind = head > indexed ? head - indexed : 0n;
  const age = state.heartbeat_age;
  const updatedAt = new Date(state.updated_ms);
  return {
    headBlock: head.toString(),
    indexedBlock: indexed.toString(),
    lag: Number(behind),
    updatedAt: updatedAt.toISOString(),
    stale: behind > BigInt(confirmations) + STALE_BLOCKS && Date.now() - state.updated_ms > STALE_MS,
    leaderHeartbeatAge: age === null ? null : Math.round(age * 10) / 10,
  };
}

/**
 * What the metrics read when scraped: the health check's lag, from the same reads (`readChain` is the health
 * check's cached read of the chain's head, so a scrape spends no more RPC quota), and when the leader last made
 * progress.
 */
export function indexerStatusReader(
  db: Database,
  config: Config,
  readChain: () => Promise<{ headBlock: string | null }>,
): IndexerStatusRead {
  return async () => {
    const [chain, state] = await Promise.all([readChain(), readIndexerRow(db, config.chainId)]);
    const health = indexerHealth(state, chain.headBlock, config.indexerConfirmations);
    if (!health || !state) return null;
    return {
      lagBlocks: health.lag,
      lastProgress: state.heartbeat_age === null ? null : Date.now() / 1000 - state.heartbeat_age,
    };
  };
}
