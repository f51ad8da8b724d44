import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import type { Database } from "../db/client.ts";
import { indexerBatchDuration, indexerEvents, observeIndexer } from "../metrics.ts";
import { lockProjections } from "../trading/signedListings.ts";
import { applyEvents, type RangeRead, rangeSeen, readRange, recordBatch, storeEvents } from "./backfill.ts";
import { chainBlock, KEEP_BLOCKS } from "./blocks.ts";
import type { ChainEvent } from "./decode.ts";
import { type ChainNotice, publish } from "./notice.ts";
import type { IndexerOptions } from "./options.ts";
import { rollBack } from "./reorg.ts";
import { Statements } from "./store.ts";

/**
 * One step of following the chain, on the leader's connection: read the head, check that the block the cursor
 * stands on is still the chain's (else roll the reorg back), then index the next range of blocks up to the final
 * head (`backfill.ts`) and move the cursor in the same transaction. The loop (`indexer.ts`) runs it again and
 * again; far behind the head each step is a batch of the backfill, at the head it follows the new blocks.
 */

/** Blocks per getLogs request: small enough for public RPC limits. */
const BLOCK_RANGE = 2_000n;

type State = { indexed: bigint | null; head: bigint | null };

async function readState(client: pg.ClientBase, chainId: number): Promise<State> {
  const { rows } = await client.query<{ indexed_block: string; head_block: string }>(
    "SELECT indexed_block, head_block FROM indexer_state WHERE chain_id = $1",
    [chainId],
  );
  return {
    indexed: rows[0] ? BigInt(rows[0].indexed_block) : null,
    head: rows[0] ? BigInt(rows[0].head_block) : null,
  };
}

async function writeState(client: pg.ClientBase, chainId: number, head: bigint, indexed: bigint | null) {
  if (indexed === null) return;
  await client.query(
    `INSERT INTO indexer_state (chain_id, head_block, indexed_block, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (chain_id) DO UPDATE SET head_block = $2, indexed_block = $3, updated_at = now()`,
    [chainId, head.toString(), indexed.toString()],
  );
}

/**
 * Indexes the next range of blocks (or rolls back a reorg) on the leader's connection.
 * Returns true when the indexer has reached the final head.
 */
export async function step(options: IndexerOptions, client: pg.ClientBase): Promise<boolean> {
  const { chain, config } = options;
  const started = performance.now();
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  const final = head - BigInt(config.indexerConfirmations);
  const { indexed, head: storedHead } = await readState(client, config.chainId);
  const from = indexed !== null ? indexed + 1n : config.deployBlock;
  const pollMs = options.pollIntervalMs ?? 1000;

  // Reorg check: the block the cursor stands on must still be the chain's.
  if (indexed !== null) {
    const stored = await storedHash(client, indexed);
    if (stored) {
      const cursor = await chainBlock(chain, indexed);
      if (cursor === null) {
        // No block at the cursor: a reorg onto a shorter branch, or a node behind the chain (a load balancer's
        // lagging node). The node's own head tells them apart: on another branch its hash differs from the one
        // stored for that height; on ours it is the same, and rolling back would undo good blocks. A head below
        // the kept hashes cannot be told apart: it is rolled back as before (or halts with how to resync), never
        // waited for without end.
        if (head < indexed) {
          const ours = await storedHash(client, head);
          const theirs = ours ? (await chainBlock(chain, head))?.hash : undefined;
          if (!ours || (theirs && ours !== theirs)) {
            await rollBack(options, client, indexed, head);
            return false;
          }
        }
        throw new Error(
          `the RPC has no block ${indexed}, where the index stands (its head: ${head}): a node behind the chain?; reading again`,
        );
      }
      if (stored !== cursor.hash) {
        await rollBack(options, client, indexed, head);
        return false;
      }
      // How far behind the head the index stands (a new leader's first step, a catch-up after an outage).
      observeIndexer({ head, indexed, indexedTime: cursor.time, caughtUp: from > final, pollMs });
    }
  }

  if (from > final) {
    if (head !== storedHead) await writeState(client, config.chainId, head, indexed);
    observeIndexer({ head, indexed, caughtUp: true, pollMs });
    return true;
  }
  const maxRange = options.blockRange ?? BLOCK_RANGE;
  const range = ranges.get(options) ?? maxRange;
  let to = from + range - 1n < final ? from + range - 1n : final;
  let read: RangeRead;
  let seen: boolean;
  let statements: Statements;
  let locked: Promise<void> | undefined;
  for (;;) {
    await client.query("BEGIN");
    // One ordered chain of statements for the whole batch, on the leader's connection.
    const attempt = new Statements(client);
    statements = attempt;
    try {
      seen = await rangeSeen(client, from, to);
      // A new range (the usual case): each part's events go in with COPY as soon as it is read and decoded,
      // while the other parts are still read; a range applied again is sorted first. A failed COPY fails
      // the statements after it too, so the batch sees it there. The projections' lock goes first, before
      // the first COPY: the batch then loads its rows beside the COPYs instead of behind them (`locked`).
      let lock: Promise<void> | undefined;
      const copy = seen
        ? undefined
        : (part: ChainEvent[]) => {
            if (part.length > 0 && !lock) {
              lock = lockProjections(attempt);
              lock.catch(() => {}); // awaited by applyEvents
            }
            void storeEvents(attempt, part, false).catch(() => {});
          };
      read = await readRange(options, attempt, from, to, head, copy);
      locked = lock;
      break;
    } catch (error) {
      // Nothing queued may run after the ROLLBACK (outside the transaction).
      await attempt.close();
      await client.query("ROLLBACK");
      // Too many logs for one response: halve the range (down to one block) and remember it.
      if (!isTooLarge(error) || to === from) throw error;
      to = from + (to - from) / 2n;
      ranges.set(options, to - from + 1n);
    }
  }
  if (range < maxRange && to - from + 1n === range)
    ranges.set(options, range * 2n > maxRange ? maxRange : range * 2n);
  const { events, logs, before, time } = read;
  options.onProgress?.();
  let stored: ChainEvent[];
  let notice: Omit<ChainNotice, "from" | "to">;
  try {
    stored = seen ? await storeEvents(statements, events, true) : events;
    const blocks = new Map<string, string>([[to.toString(), before]]);
    for (const e of events) blocks.set(e.blockNumber.toString(), e.blockHash);
    // Queued behind the events' COPY, not awaited: a failure fails the statements after it.
    const queued = (promise: Promise<unknown>) => void promise.catch(() => {});
    queued(
      statements.query(
        `INSERT INTO chain_blocks (number, hash) SELECT n::bigint, h FROM unnest($1::text[], $2::text[]) AS x(n, h)
         ON CONFLICT (number) DO UPDATE SET hash = EXCLUDED.hash`,
        [[...blocks.keys()], [...blocks.values()]],
      ),
    );
    queued(statements.query("DELETE FROM chain_blocks WHERE number < $1", [(to - KEEP_BLOCKS).toString()]));
    // Near the head, where a reorg can reach, record how to undo the batch; far behind it, skip the cost.
    const undoable = to + KEEP_BLOCKS >= head;
    if (undoable) queued(recordBatch(statements, from, to));
    notice = await applyEvents(options, client, stored, {
      notify: true,
      statements,
      ...(locked ? { locked } : {}),
      ...(undoable ? { undoFrom: from } : {}),
      ...(seen ? {} : { fresh: true }),
    });
    // Whatever is still queued (the events' COPY when no handler wrote anything).
    await statements.done();
    if (options.applyLogs)
      await options.applyLogs(drizzle(client as pg.PoolClient) as unknown as Database, logs);
  } catch (error) {
    await statements.close();
    throw error;
  }
  await writeState(client, config.chainId, head, to);
  // Batches without events change nothing anyone watches: no notice.
  if (stored.length > 0) await publish(client, { from: from.toString(), to: to.toString(), ...notice });
  await client.query("COMMIT");
  indexerBatchDuration.observe((performance.now() - started) / 1000);
  indexerEvents.inc(stored.length);
  observeIndexer({ head, indexed: to, indexedTime: time, caughtUp: to >= final, pollMs });
  options.onCommit?.({ from, to, events: stored.length });
  return to >= final;
}

/** Current batch size per indexer, shrunk when an RPC refuses a response as too large. */
const ranges = new WeakMap<IndexerOptions, bigint>();

function isTooLarge(error: unknown): boolean {
  const text =
    error instanceof Error ? `${error.message} ${(error as { details?: string }).details ?? ""}` : "";
  return /size limit|too large|too many|exceed|range|10000 results|query returned more/i.test(text);
}

/** The hash stored for block `number`, if the index kept it. */
async function storedHash(client: pg.ClientBase, number: bigint): Promise<string | undefined> {
  const { rows } = await client.query<{ hash: string }>("SELECT hash FROM chain_blocks WHERE number = $1", [
    number.toString(),
  ]);
  return rows[0]?.hash;
}
