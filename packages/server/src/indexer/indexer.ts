import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { BlockNotFoundError, formatLog, type Log, type PublicClient, type RpcLog, toHex } from "viem";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { indexerBatchDuration, indexerEvents, indexerLeader, observeIndexer } from "../metrics.ts";
import { lockProjections, projectSignedListings } from "../trading/signedListings.ts";
import { APPEND_TABLES, Batch, PROJECTION_TABLES } from "./batch.ts";
import { type ChainEvent, COLLECTION_CREATED_TOPIC, decodeLogs, sortEvents } from "./decode.ts";
import { applyEvent } from "./handlers/index.ts";
import { blockText, timeText } from "./keys.ts";
import { readNotifications, storeNotifications } from "./notifications.ts";
import { refreshCollectionStats } from "./stats.ts";
import {
  COPY_ROWS,
  copyData,
  copyValue,
  Pace,
  type Row,
  type Runner,
  Statements,
  yieldToEventLoop,
} from "./store.ts";

/** Advisory lock key: the one indexer that holds it is the leader; the others wait. */
const LEADER_LOCK_KEY = 7_340_002;
/** Blocks per getLogs request: small enough for public RPC limits. */
const BLOCK_RANGE = 2_000n;
/** Block hashes kept below the cursor for finding the common ancestor after a reorg. */
const KEEP_BLOCKS = 1_000n;
/** Addresses per getLogs request. */
const ADDRESS_CHUNK = 500;
/** Events replayed per in-memory batch (about: chunks end on block boundaries). */
export const REPLAY_CHUNK = 20_000;
/** How often the leader renews its lease while it makes progress. */
const HEARTBEAT_MS = 1_000;
const DEFAULT_LEASE_MS = 10_000;
/** How long a stopping indexer waits for its batch in flight before rolling it back. */
const STOP_MS = 10_000;
/** Channel of the NOTIFY sent after every committed batch (read by the API's SSE endpoint). */
export const CHAIN_CHANNEL = "easel_chain";

export type IndexerOptions = {
  db: Database;
  chain: PublicClient;
  config: Config;
  log: (message: string) => void;
  pollIntervalMs?: number;
  /** Blocks per batch (default 2000). */
  blockRange?: bigint;
  /** Called inside every batch's transaction, after the batch was applied (tests count batches with it). */
  applyLogs?: (tx: Database, logs: Log[]) => Promise<void>;
  /** Called after every committed batch. */
  onCommit?: (info: { from: bigint; to: bigint; events: number }) => void;
  /** How long a leader may make no progress before a standby takes over (default 10 s). */
  leaseMs?: number;
  /** Called whenever indexing moves on (the leader's lease is renewed only while it does). */
  onProgress?: () => void;
  /** How long `stop()` waits for a batch in flight before rolling it back (default 10 s). */
  stopMs?: number;
};

export type Indexer = {
  stop(): Promise<void>;
  /** Why the indexer stopped by itself (a reorg it cannot follow), or null while it runs. */
  halted(): IndexerHalted | null;
};

/** What a committed batch touched, published with NOTIFY. */
export type ChainNotice = {
  from: string;
  to: string;
  collections?: string[];
  tokens?: string[];
  accounts?: string[];
  /** Too much to list, or a reorg: everything may have changed. */
  all?: boolean;
  reorg?: boolean;
};

/**
 * Follows the chain from the deployment block to the head, reading the logs of Easel's contracts
 * in block ranges and advancing its cursor in the same transaction as what it writes.
 * Only the process holding the leader lock indexes (on the connection that holds the lock); the others
 * stand by and take over if it dies.
 */
export function startIndexer(options: IndexerOptions): Indexer {
  const { db, log } = options;
  const pollMs = options.pollIntervalMs ?? 1000;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  let lastProgress = Date.now();
  const leaderOptions: IndexerOptions = {
    ...options,
    onProgress: () => {
      lastProgress = Date.now();
      options.onProgress?.();
    },
  };
  let stopping = false;
  let halted: IndexerHalted | null = null;
  let wake: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** The leader's connection while it holds one: its session is ended if a stop cannot wait for its batch. */
  let session: pg.PoolClient | null = null;

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
      session = client;
      let broken = false;
      let heartbeat: NodeJS.Timeout | null = null;
      // A session ended from outside (a standby taking over from this process after it froze) must not
      // crash the process: the next query fails and the loop starts over as a standby.
      const onError = (error: Error) => {
        broken = true;
        log(`indexer: database session lost (${error.message})`);
      };
      client.on("error", onError);
      try {
        const { rows } = await client.query<{ locked: boolean }>(
          "SELECT pg_try_advisory_lock($1) AS locked",
          [LEADER_LOCK_KEY],
        );
        if (!rows[0]?.locked) {
          // Another instance leads. If it stopped making progress, end its session (which frees the lock).
          if (!(await takeOverFrozenLeader(client, leaseMs, log))) await sleep(5 * pollMs);
          continue;
        }
        const { rows: me } = await client.query<{ pid: number }>(
          `INSERT INTO indexer_leader (id, backend_pid, heartbeat_at) VALUES (1, pg_backend_pid(), now())
           ON CONFLICT (id) DO UPDATE SET backend_pid = EXCLUDED.backend_pid, heartbeat_at = now()
           RETURNING backend_pid AS pid`,
        );
        const pid = me[0]?.pid;
        lastProgress = Date.now();
        // The lease is renewed from the pool (the lock's connection may be inside a long batch), and
        // only while indexing moves on: a frozen or stuck leader lets it lapse.
        heartbeat = setInterval(() => {
          if (Date.now() - lastProgress > leaseMs) return;
          db.$client
            .query("UPDATE indexer_leader SET heartbeat_at = now() WHERE backend_pid = $1", [pid])
            .catch(() => {});
        }, HEARTBEAT_MS);
        heartbeat.unref();
        log("indexer: leader; following the chain");
        indexerLeader.set(1);
        while (!stopping) {
          const caughtUp = await step(leaderOptions, client);
          lastProgress = Date.now();
          backoffMs = pollMs;
          if (caughtUp) await sleep(pollMs);
        }
      } catch (error) {
        // RPC and database faults never crash the process; the batch rolled back, so retry it.
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
        if (error instanceof IndexerHalted) {
          log(`indexer: stopped: ${error.message}`);
          halted = error;
          stopping = true;
          continue;
        }
        log(`indexer: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}; retrying`);
        backoffMs = Math.min(backoffMs * 2, 30_000);
        await sleep(backoffMs);
      } finally {
        if (heartbeat) clearInterval(heartbeat);
        indexerLeader.set(0);
        client.off("error", onError);
        await client.query("SELECT pg_advisory_unlock_all()").catch(() => {
          broken = true;
        });
        session = null;
        client.release(broken);
      }
    }
  };
  const done = run();

  return {
    // A batch in flight commits before the indexer stops; one still running after `stopMs` is rolled
    // back by ending its session (which also frees the leader lock for a standby).
    async stop() {
      stopping = true;
      (wake as (() => void) | null)?.();
      const timer = setTimeout(() => {
        const pid = (session as (pg.PoolClient & { processID?: number }) | null)?.processID;
        if (!pid) return;
        log("indexer: the batch in flight did not finish in time; rolling it back");
        db.$client.query("SELECT pg_terminate_backend($1)", [pid]).catch(() => {});
      }, options.stopMs ?? STOP_MS);
      await done;
      clearTimeout(timer);
    },
    halted: () => halted,
  };
}

/**
 * A standby's check of the leader: when the lease's last renewal is older than `leaseMs` and the session
 * named in it really holds the leader lock, that session is ended (a frozen process cannot end it
 * itself), so the lock is free on the next try. Returns whether it took that step.
 */
async function takeOverFrozenLeader(
  client: pg.ClientBase,
  leaseMs: number,
  log: (message: string) => void,
): Promise<boolean> {
  const { rows } = await client.query<{ pid: number; age_ms: number }>(
    `SELECT l.backend_pid AS pid, (extract(epoch FROM now() - l.heartbeat_at) * 1000)::float8 AS age_ms
     FROM indexer_leader l JOIN pg_locks k
       ON k.pid = l.backend_pid AND k.locktype = 'advisory' AND k.objid = $1 AND k.objsubid = 1 AND k.granted
     WHERE l.id = 1`,
    [LEADER_LOCK_KEY],
  );
  const leader = rows[0];
  if (!leader || leader.age_ms <= leaseMs) return false;
  log(
    `indexer: the leader (database session ${leader.pid}) has made no progress for ${Math.round(leader.age_ms / 1000)} s; taking over`,
  );
  await client.query("SELECT pg_terminate_backend($1)", [leader.pid]);
  return true;
}

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

/** The chain's hash and parent hash of a block, or null when the chain has no such block (it got shorter). */
async function chainBlock(
  chain: PublicClient,
  number: bigint,
): Promise<{ hash: string; parent: string; time: number } | null> {
  try {
    const block = await chain.getBlock({ blockNumber: number });
    return block.hash
      ? {
          hash: block.hash.toLowerCase(),
          parent: block.parentHash.toLowerCase(),
          time: Number(block.timestamp),
        }
      : null;
  } catch (error) {
    if (error instanceof BlockNotFoundError) return null;
    throw error;
  }
}

async function chainHash(chain: PublicClient, number: bigint): Promise<string | null> {
  return (await chainBlock(chain, number))?.hash ?? null;
}

/**
 * Indexes the next range of blocks (or rolls back a reorg) on the leader's connection.
 * Returns true when the indexer has reached the final head.
 */
export async function step(options: IndexerOptions, client: pg.ClientBase): Promise<boolean> {
  const { chain, config } = options;
  const started = performance.now();
  options.onProgress?.();
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  const final = head - BigInt(config.indexerConfirmations);
  const { indexed, head: storedHead } = await readState(client, config.chainId);

  // Reorg check: the block the cursor stands on must still be the chain's.
  if (indexed !== null) {
    const { rows } = await client.query<{ hash: string }>("SELECT hash FROM chain_blocks WHERE number = $1", [
      indexed.toString(),
    ]);
    const stored = rows[0]?.hash;
    if (stored && stored !== (await chainHash(chain, indexed))) {
      await rollBack(options, client, indexed, head);
      return false;
    }
  }

  const from = indexed !== null ? indexed + 1n : config.deployBlock;
  if (from > final) {
    if (head !== storedHead) await writeState(client, config.chainId, head, indexed);
    observeIndexer({ head, indexed, caughtUp: true });
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
      read = await readRange(options, attempt, from, to, copy);
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
  observeIndexer({ head, indexed: to, indexedTime: time, caughtUp: to >= final });
  options.onCommit?.({ from, to, events: stored.length });
  return to >= final;
}

/** Events whose appended rows and notifications are written together while the handlers go on (about). */
const APPEND_EVERY = 10_000;
/** Logs decoded between two checks of the event loop's pace. */
const DECODE_SLICE = 500;
/** Parallel getLogs requests per batch (parts of its block range). */
const READ_PARALLEL = 4;

/** `from`..`to` cut into at most `n` consecutive, nearly equal parts. */
function splitRange(from: bigint, to: bigint, n: number): [bigint, bigint][] {
  const blocks = to - from + 1n;
  const count = blocks < BigInt(n) ? blocks : BigInt(n);
  const parts: [bigint, bigint][] = [];
  for (let i = 0n, start = from; i < count; i++) {
    const end = i === count - 1n ? to : start + blocks / count - 1n;
    parts.push([start, end]);
    start = end + 1n;
  }
  return parts;
}

/** Current batch size per indexer, shrunk when an RPC refuses a response as too large. */
const ranges = new WeakMap<IndexerOptions, bigint>();

function isTooLarge(error: unknown): boolean {
  const text =
    error instanceof Error ? `${error.message} ${(error as { details?: string }).details ?? ""}` : "";
  return /size limit|too large|too many|exceed|range|10000 results|query returned more/i.test(text);
}

/** A block range read from the chain: its events decoded in chain order, and the logs they came from. */
type RangeRead = { events: ChainEvent[]; logs: Log[]; before: string; time: number };

/**
 * The logs of a block range, all from one chain: the factory's first (to discover collections created in
 * the range), then the market's and every collection's, checking that the range's last block did not
 * change meanwhile. Each response is decoded as it arrives and its events given to `onEvents` (while the
 * other parts are still read); the events returned are all of them, in chain order.
 */
async function readRange(
  options: IndexerOptions,
  client: Runner,
  from: bigint,
  to: bigint,
  onEvents?: (events: ChainEvent[]) => void,
): Promise<RangeRead> {
  const { chain, config } = options;
  const last = await chainBlock(chain, to);
  if (!last) throw new Error(`block ${to} is not available yet`);
  const before = last.hash;
  // The range must continue the chain we stored: the first block's parent is the cursor's block.
  const { rows: parentRows } = await client.query<{ hash: string }>(
    "SELECT hash FROM chain_blocks WHERE number = $1",
    [(from - 1n).toString()],
  );
  const storedParent = parentRows[0]?.hash;
  if (storedParent) {
    const parent = from === to ? last.parent : (await chainBlock(chain, from))?.parent;
    if (parent !== storedParent) throw new Error(`reorg below block ${from}; rolling back on the next pass`);
  }
  // Block times, for an RPC whose logs do not carry `blockTimestamp`: one read per block.
  const times = new Map<bigint, Promise<Date>>();
  const timeOf = (n: bigint) => {
    let t = times.get(n);
    if (!t) {
      t = chain.getBlock({ blockNumber: n }).then((b) => new Date(Number(b.timestamp) * 1000));
      times.set(n, t);
    }
    return t;
  };
  const decode = async (logs: RpcLog[]) => {
    const untimed = new Map<bigint, Date>();
    let raw: string | null = null;
    let n = 0n;
    for (const l of logs) {
      if (l.blockNumber === null) continue;
      // One bigint per run of logs of one block (they come in block order).
      if (l.blockNumber !== raw) {
        raw = l.blockNumber;
        n = BigInt(raw);
        if (l.blockTimestamp == null && !untimed.has(n)) untimed.set(n, await timeOf(n));
      }
      // The logs must all come from one chain: those of the last block from the block read first.
      if (n === to && l.blockHash?.toLowerCase() !== before)
        throw new Error(`log of block ${to} from another fork`);
    }
    // Decoded a slice at a time, so the events COPY'd meanwhile keep flowing (see `Pace`); every COPY_ROWS
    // events are handed on as they are decoded, so the first COPY of a large part starts before its last log
    // is decoded.
    const events: ChainEvent[] = [];
    let handed = 0;
    const pace = new Pace();
    for (let i = 0; i < logs.length; i += DECODE_SLICE) {
      for (const e of decodeLogs(logs.slice(i, i + DECODE_SLICE), untimed)) events.push(e);
      if (events.length - handed >= COPY_ROWS) {
        onEvents?.(events.slice(handed));
        handed = events.length;
      }
      if (pace.due()) await pace.next();
    }
    if (handed < events.length) onEvents?.(events.slice(handed));
    sortEvents(events);
    // The raw logs are kept only for the tests' hook (a backfill's would fill the heap while the handlers run).
    return { logs: options.applyLogs ? logs.map((l) => formatLog(l)) : [], events };
  };
  /**
   * The logs of `address` in a block range, as the RPC sends them: viem's `getLogs` would copy each into
   * another object with bigints, which the decoder does not need (a backfill reads them by the hundred thousand).
   */
  const getLogs = (address: string | string[], fromBlock: bigint, toBlock: bigint) =>
    chain.request({
      method: "eth_getLogs",
      params: [{ address: address as `0x${string}`, fromBlock: toHex(fromBlock), toBlock: toHex(toBlock) }],
    }) as Promise<RpcLog[]>;
  // Phase 1: the factory's logs, to discover collections created in this range.
  const factoryLogs = await getLogs(config.contracts.factory, from, to);
  const created = factoryLogs
    .filter((l) => l.topics[0] === COLLECTION_CREATED_TOPIC && l.topics[1])
    .map((l) => `0x${(l.topics[1] as string).slice(26)}`.toLowerCase());
  const factory = decode(factoryLogs);
  factory.catch(() => {}); // awaited below, with the other parts
  // Phase 2: the market and every collection, known or just created.
  const { rows: known } = await client.query<{ address: string }>("SELECT address FROM chain_collections");
  const addresses = [
    ...new Set([
      config.contracts.market,
      config.contracts.defaultCollection,
      ...known.map((r) => r.address),
      ...created,
    ]),
  ] as `0x${string}`[];
  // Requests for parts of the range run in parallel: the RPC prepares one answer while the last is parsed.
  const parts = splitRange(from, to, READ_PARALLEL);
  const requests: Promise<{ logs: Log[]; events: ChainEvent[] }>[] = [factory];
  for (let i = 0; i < addresses.length; i += ADDRESS_CHUNK) {
    for (const [fromBlock, toBlock] of parts) {
      requests.push(getLogs(addresses.slice(i, i + ADDRESS_CHUNK), fromBlock, toBlock).then(decode));
    }
  }
  const logs: Log[] = [];
  const events: ChainEvent[] = [];
  for (const part of await Promise.all(requests)) {
    for (const log of part.logs) logs.push(log);
    for (const event of part.events) events.push(event);
  }
  // The range's last block did not change while we read.
  const after = await chainHash(chain, to);
  if (after !== before) throw new Error(`the chain changed while reading blocks ${from}-${to}`);
  return { events: sortEvents(events), logs, before, time: last.time };
}

/** Whether some events of the batch's blocks are stored already (a range applied again). */
async function rangeSeen(client: pg.ClientBase, from: bigint, to: bigint): Promise<boolean> {
  const { rowCount } = await client.query(
    "SELECT 1 FROM chain_events WHERE block_number BETWEEN $1 AND $2 LIMIT 1",
    [from.toString(), to.toString()],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * Inserts events. For a range stored before (`seen`) it skips those already there and returns the new
 * ones, so applying a range twice changes nothing; a new range is inserted without conflict checks.
 */
async function storeEvents(
  statements: Statements,
  events: ChainEvent[],
  seen: boolean,
): Promise<ChainEvent[]> {
  const inserts: Promise<void>[] = [];
  if (!seen) {
    // A new range: COPY, PostgreSQL's bulk path, without conflict checks. The next chunk is built while
    // PostgreSQL takes this one.
    const pace = new Pace();
    for (let i = 0; i < events.length; i += COPY_ROWS) {
      const lines: string[] = [];
      for (let j = i; j < i + COPY_ROWS && j < events.length; j++) {
        const e = events[j] as ChainEvent;
        if (pace.due()) await pace.next();
        lines.push(
          `${blockText(e.blockNumber)}\t${e.logIndex}\t${e.blockHash}\t${e.txHash}\t${e.address}\t${copyValue(e.name)}\t${copyValue(JSON.stringify(e.args))}\t${timeText(e.blockTime)}\n`,
        );
      }
      inserts.push(
        statements.copy(
          "COPY chain_events (block_number, log_index, block_hash, tx_hash, address, name, args, block_time) FROM STDIN",
          copyData(lines),
        ),
      );
      await pace.next();
    }
    await Promise.all(inserts);
    return events;
  }
  const fresh = new Set<string>();
  for (let i = 0; i < events.length; i += 10_000) {
    const rows = events.slice(i, i + 10_000).map((e) => ({
      block_number: e.blockNumber.toString(),
      log_index: e.logIndex,
      block_hash: e.blockHash,
      tx_hash: e.txHash,
      address: e.address,
      name: e.name,
      args: e.args,
      block_time: timeText(e.blockTime),
    }));
    inserts.push(
      statements
        .query<{ block_number: string; log_index: number }>(
          `INSERT INTO chain_events SELECT * FROM json_populate_recordset(NULL::chain_events, $1::json)
           ON CONFLICT DO NOTHING RETURNING block_number, log_index`,
          [JSON.stringify(rows)],
        )
        .then(({ rows: inserted }) => {
          for (const r of inserted) fresh.add(`${r.block_number}:${r.log_index}`);
        }),
    );
    await yieldToEventLoop();
  }
  await Promise.all(inserts);
  return events.filter((e) => fresh.has(`${e.blockNumber}:${e.logIndex}`));
}

/** Remembers an undoable batch and forgets those a reorg can no longer reach. */
async function recordBatch(client: Statements, from: bigint, to: bigint): Promise<void> {
  const cut = (to - KEEP_BLOCKS).toString();
  // Sent together (a connection runs them in this order).
  await Promise.all([
    client.query(
      "INSERT INTO chain_batches (from_block, to_block) VALUES ($1, $2) ON CONFLICT (from_block) DO UPDATE SET to_block = $2",
      [from.toString(), to.toString()],
    ),
    client.query("DELETE FROM chain_batches WHERE to_block < $1", [cut]),
    client.query(
      "DELETE FROM chain_undo WHERE batch_from < coalesce((SELECT min(from_block) FROM chain_batches), $1)",
      [cut],
    ),
  ]);
}

/**
 * Runs the handlers over events (in chain order) and writes the projections; returns what changed.
 * `undoFrom` records the prior rows under that batch (see `chain_undo`).
 */
async function applyEvents(
  options: IndexerOptions,
  client: pg.ClientBase,
  events: ChainEvent[],
  {
    notify,
    undoFrom,
    fresh = false,
    statements = new Statements(client),
    locked,
  }: {
    notify: boolean;
    undoFrom?: bigint;
    /** The events are new to `chain_events` in this transaction (see `Batch.flush`). */
    fresh?: boolean;
    /** The batch's chain of statements, when the caller has added some already (the events' COPY). */
    statements?: Statements;
    /**
     * The projections' lock, taken by the caller on `statements` before the transaction wrote any projection
     * row: the rows to load are then read through the pool, beside what is queued on the batch's connection
     * (another connection sees what this transaction would: the lock keeps the API's writes out, and the
     * leader is the only other writer).
     */
    locked?: Promise<void>;
  },
): Promise<Omit<ChainNotice, "from" | "to">> {
  if (events.length === 0) return {};
  try {
    const batch = new Batch(options.config.contracts.market, { undo: undoFrom !== undefined });
    // The API writes token rows too (the signed-listing book's projection): it waits until this batch commits.
    await (locked ?? lockProjections(statements));
    await batch.load(locked ? options.db.$client : statements, events);
    // While the handlers go on, the rows they appended and the notifications they asked for go in at the
    // first event of a transaction, every APPEND_EVERY events: PostgreSQL writes them while JavaScript
    // computes the next ones.
    const writes: Promise<unknown>[] = [];
    const notified: Promise<string[]>[] = [];
    // Awaited after the handlers: one failing meanwhile must not end the process as an unhandled rejection.
    const later = <T>(promise: Promise<T>) => {
      promise.catch(() => {});
      return promise;
    };
    // The notifications' reads (follows, preferences, keys stored already) run on another connection beside
    // the writes, one part after the other; each part's rows then join the batch's writes.
    let reading: Promise<unknown> = Promise.resolve();
    const send = () => {
      writes.push(later(batch.flushAppended(statements, { fresh })));
      const intents = batch.takeNotifications();
      if (!notify || intents.length === 0) return;
      const read = reading.then(() => readNotifications(options.db.$client, intents));
      reading = read.catch(() => {});
      notified.push(later(read.then((rows) => storeNotifications(statements, rows))));
    };
    let sent = 0;
    const pace = new Pace();
    for (let i = 0; i < events.length; i++) {
      const e = events[i] as ChainEvent;
      if (i - sent >= APPEND_EVERY && e.txHash !== (events[i - 1] as ChainEvent).txHash) {
        send();
        sent = i;
      }
      applyEvent(batch, e);
      // Let the connection send the rest of its COPY and the next statement (and timers run) during a long batch.
      if (pace.due()) await pace.next();
    }
    send();
    // The stats and the book read the appended rows: the flush waits for the writes sent before it.
    const [, accounts] = await Promise.all([
      batch.flush(client, undoFrom, statements, { fresh, after: Promise.all(writes) }),
      Promise.all(notified),
    ]);
    for (const list of accounts) for (const a of list) batch.touched.accounts.add(a);
    return {
      collections: [...batch.touched.collections],
      tokens: [...batch.touched.tokens],
      accounts: [...batch.touched.accounts],
    };
  } catch (error) {
    // Nothing queued may run after the caller's ROLLBACK (outside the transaction).
    await statements.close();
    throw error;
  }
}

/** NOTIFY after the batch (delivered when the transaction commits); too long a list becomes `all`. */
async function publish(client: pg.ClientBase, notice: ChainNotice): Promise<void> {
  let payload = JSON.stringify(notice);
  if (payload.length > 7_500)
    payload = JSON.stringify({ from: notice.from, to: notice.to, all: true, reorg: notice.reorg });
  await client.query("SELECT pg_notify($1, $2)", [CHAIN_CHANNEL, payload]);
}

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
async function rollBack(
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
