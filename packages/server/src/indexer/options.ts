import type { Log, PublicClient } from "viem";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";

/** What an indexer works with: every part of it (the loop, the follower, the backfill, reorgs) takes these. */
export type IndexerOptions = {
  db: Database;
  chain: PublicClient;
  config: Config;
  /** Progress at info level; failures the indexer retries at "warn". */
  log: (message: string, level?: "warn") => void;
  pollIntervalMs?: number;
  /** Blocks per batch (default 2000). */
  blockRange?: bigint;
  /** Called inside every batch's transaction, after the batch was applied (tests count batches with it). */
  applyLogs?: (tx: Database, logs: Log[]) => Promise<void>;
  /** Called after every committed batch. */
  onCommit?: (info: { from: bigint; to: bigint; events: number }) => void;
  /** How long a leader may make no progress before a standby takes over (default 10 s). */
  leaseMs?: number;
  /** Called whenever indexing moves on: a range read, handlers run, a batch committed (the lease records it). */
  onProgress?: () => void;
  /** How long `stop()` waits for a batch in flight before rolling it back (default 10 s). */
  stopMs?: number;
};
