import type pg from "pg";
import { projectLazyItems } from "../browse/lazyCards.ts";
import { lockProjections, projectSignedListings } from "../trading/signedListings.ts";
import { applyEvents, recordBatch } from "./backfill.ts";
import { APPEND_TABLES, Batch, PROJECTION_TABLES } from "./batch.ts";
import { chainHash, KEEP_BLOCKS } from "./blocks.ts";
import type { ChainEvent } from "./decode.ts";
import { publish } from "./notice.ts";
import type { IndexerOptions } from "./options.ts";
import { refreshCollectionStats } from "./stats.ts";
import { type Row, Statements } from "./store.ts";

/**
 * Reorgs and starting over: when the block the cursor stands on is no longer the chain's, the events above the
 * common ancestor are forgotten and the projections brought back by the undo records of the undone batches (or
 * rebuilt from every stored event); a reorg deeper than the kept block hashes halts the indexer with how to
 * resync, and `resetChainData` is that resync.
 */

/** Events replayed per in-memory batch (about: chunks end on block boundaries). */
export const REPLAY_CHUNK = 20_000;

/** The indexer cannot go on by itself: an operator must act (the message says how). */
export class IndexerHalted extends Error {
  override name = "IndexerHalted";
}

/** How an operator starts the index again from the deployment block. */
export const RESYNC_HELP =
  "Resync: stop Easel, run `npm run indexer:resync -w @easel/server` with the production environment " +
  "(it empties the chain tables; `npm start -- --reset` does the same for the local stack), then start again: " +
  "the indexer reads the chain again from DEPLOY_BLOCK.";

/**
 * The cursor's block is no longer the chain's: find the highest stored block the chain still has (the
 * common ancestor), forget every event above it, and bring the projections back to the ancestor. Near the
 * head every batch is undoable (`chain_batches`, `chain_undo`): restore the rows the undone batches
 * changed, drop the appended rows above the first undone batch, then replay the stored events between that
 * batch's first block and the ancestor. The cost follows the reorg's depth, not the chain's history. If the
 * reorg reaches a batch indexed without undo records, the projections are rebuilt from all stored events.
 */
export async function rollBack(
  options: IndexerOptions,
  client: pg.ClientBase,
  cursor: bigint,
  head: bigint,
): Promise<void> {
  const { chain, config, log } = options;
  const { rows } = await client.query<{ number: string; hash: string }>(
    "SELECT number, hash FROM chain_blocks WHERE number <= $1 ORDER BY number DESC",
    [cursor.toString()],
  );
  let ancestor: bigint | null = null;
  for (const r of rows) {
    if ((await chainHash(chain, BigInt(r.number))) === r.hash) {
      ancestor = BigInt(r.number);
      break;
    }
  }
  if (ancestor === null) {
    // No stored block survived. That is an ancestor at the deployment only if no hash was ever pruned.
    if (cursor - KEEP_BLOCKS > config.deployBlock) {
      throw new IndexerHalted(
        `the chain reorganised deeper than the ${KEEP_BLOCKS} blocks whose hashes are kept (below block ${cursor - KEEP_BLOCKS}); the indexed data no longer matches the chain. ${RESYNC_HELP}`,
      );
    }
    ancestor = config.deployBlock - 1n;
  }
  const { rows: batches } = await client.query<{ from_block: string }>(
    "SELECT from_block FROM chain_batches WHERE to_block > $1 ORDER BY from_block LIMIT 1",
    [ancestor.toString()],
  );
  const first = batches[0] ? BigInt(batches[0].from_block) : null;
  const undoable = first !== null && first <= ancestor + 1n;
  log(
    `indexer: reorg at block ${cursor}; rolling back to ${ancestor} ` +
      (undoable ? `(undoing batches from block ${first})` : "(rebuilding from every stored event)"),
  );
  await client.query("BEGIN");
  await lockProjections(client);
  await client.query("DELETE FROM chain_events WHERE block_number > $1", [ancestor.toString()]);
  await client.query("DELETE FROM chain_blocks WHERE number > $1", [ancestor.toString()]);
  await client.query(
    "DELETE FROM notifications WHERE source_key LIKE 'chain:%' AND (data->>'block')::bigint > $1",
    [ancestor.toString()],
  );
  if (undoable) {
    const from = first as bigint;
    const collections = await undoBatches(client, from);
    await client.query("DELETE FROM chain_batches WHERE from_block >= $1", [from.toString()]);
    await client.query("DELETE FROM chain_undo WHERE batch_from >= $1", [from.toString()]);
    if (ancestor >= from) await recordBatch(new Statements(client), from, ancestor);
    await replay(options, client, { from, to: ancestor, ...(ancestor >= from ? { undoFrom: from } : {}) });
    if (collections.length > 0) await refreshCollectionStats(client, collections);
  } else {
    await client.query(`TRUNCATE ${PROJECTION_TABLES.join(", ")}, chain_batches, chain_undo`);
    await replay(options, client);
  }
  // Restored or replayed token rows show the signed-listing book as it stands now.
  const shown = await projectSignedListings(client, "all");
  // And the unsold lazy items: a lazy mint the reorg undid is for sale again.
  for (const c of await projectLazyItems(client, "all")) if (!shown.includes(c)) shown.push(c);
  if (shown.length > 0) await refreshCollectionStats(client, shown);
  await client.query(
    `INSERT INTO indexer_state (chain_id, head_block, indexed_block, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (chain_id) DO UPDATE SET head_block = $2, indexed_block = $3, updated_at = now()`,
    [config.chainId, head.toString(), ancestor.toString()],
  );
  await publish(client, { from: (ancestor + 1n).toString(), to: cursor.toString(), all: true, reorg: true });
  await client.query("COMMIT");
}

/**
 * Brings the projections back to their state before block `from`: every row the batches from `from` on
 * changed gets the value the earliest of them found (or is deleted if it created it), and the appended
 * rows of those blocks are deleted. Returns the collections whose derived stats must be recomputed.
 */
async function undoBatches(client: pg.ClientBase, from: bigint): Promise<string[]> {
  const batch = new Batch("");
  const statements = new Statements(client);
  const collections = new Set<string>();
  for (const store of batch.stores) {
    const { rows } = await client.query<{ key: string; prior: Row | null }>(
      `SELECT DISTINCT ON (key) key, prior FROM chain_undo WHERE batch_from >= $1 AND "table" = $2
       ORDER BY key, batch_from`,
      [from.toString(), store.table],
    );
    for (const { key, prior } of rows) {
      if (prior) store.set(prior);
      else store.deleted.add(key);
      const row = prior ?? store.keyRow(key);
      const collection = store.table === "chain_collections" ? row.address : row.collection;
      if (typeof collection === "string") collections.add(collection);
    }
    await store.flush(statements);
  }
  for (const table of APPEND_TABLES) {
    const { rows } = await client.query<{ collection: string | null }>(
      `DELETE FROM ${table} t WHERE block_number >= $1 RETURNING to_jsonb(t) ->> 'collection' AS collection`,
      [from.toString()],
    );
    for (const r of rows) if (r.collection) collections.add(r.collection);
  }
  return [...collections];
}

/** Events read per chunk when replaying; a chunk always ends on a block boundary. */
type StoredEvent = {
  block_number: string;
  log_index: number;
  block_hash: string;
  tx_hash: string;
  address: string;
  name: string;
  args: Record<string, unknown>;
  block_time: Date;
};

/**
 * Applies the stored events of blocks `from`..`to` (default: all) again, in order, in chunks of about
 * REPLAY_CHUNK events that end on block boundaries: a transaction's events (a sale's Transfer and Sale)
 * always land in one batch, as in normal indexing. Notifications already exist and are not written again.
 */
export async function replay(
  options: IndexerOptions,
  client: pg.ClientBase,
  range: { from?: bigint; to?: bigint; undoFrom?: bigint; chunk?: number } = {},
): Promise<number> {
  const chunk = range.chunk ?? REPLAY_CHUNK;
  let after = ((range.from ?? 0n) - 1n).toString();
  const to = range.to === undefined ? null : range.to.toString();
  let total = 0;
  for (;;) {
    const { rows } = await client.query<StoredEvent>(
      `SELECT * FROM chain_events WHERE block_number > $1 AND ($2::bigint IS NULL OR block_number <= $2)
       ORDER BY block_number, log_index LIMIT ${chunk + 1}`,
      [after, to],
    );
    if (rows.length === 0) return total;
    let chunkRows = rows;
    if (rows.length > chunk) {
      // Keep whole blocks: drop the block the chunk would cut through…
      const cut = (rows[chunk] as StoredEvent).block_number;
      chunkRows = rows.filter((r) => BigInt(r.block_number) < BigInt(cut));
      // …unless it is the only block: then take that block whole, however large.
      if (chunkRows.length === 0) {
        ({ rows: chunkRows } = await client.query<StoredEvent>(
          "SELECT * FROM chain_events WHERE block_number = $1 ORDER BY log_index",
          [cut],
        ));
      }
    }
    const events: ChainEvent[] = chunkRows.map((r) => ({
      blockNumber: BigInt(r.block_number),
      logIndex: r.log_index,
      blockHash: r.block_hash,
      txHash: r.tx_hash,
      address: r.address,
      name: r.name,
      args: r.args,
      blockTime: r.block_time,
    }));
    options.onProgress?.();
    await applyEvents(options, client, events, {
      notify: false,
      ...(range.undoFrom === undefined ? {} : { undoFrom: range.undoFrom }),
    });
    total += chunkRows.length;
    after = (chunkRows[chunkRows.length - 1] as StoredEvent).block_number;
  }
}

/**
 * Forgets everything read from the chain (events, projections, undo records, block hashes and the
 * cursor), so the indexer reads the chain again from DEPLOY_BLOCK. Notifications already sent stay.
 * Run it while no indexer runs (`npm run indexer:resync -w @easel/server`).
 */
export async function resetChainData(pool: pg.Pool | pg.ClientBase): Promise<void> {
  await pool.query(
    `TRUNCATE chain_events, chain_blocks, chain_batches, chain_undo, indexer_state, ${PROJECTION_TABLES.join(", ")}`,
  );
}
