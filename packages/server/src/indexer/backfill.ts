import type pg from "pg";
import { formatLog, type Log, type RpcLog, toHex } from "viem";
import { lockProjections } from "../trading/signedListings.ts";
import { Batch } from "./batch.ts";
import { ADDRESS_CHUNK, type ChainBlock, chainBlock, chainHash, KEEP_BLOCKS } from "./blocks.ts";
import { type ChainEvent, COLLECTION_CREATED_TOPIC, decodeLogs, sortEvents } from "./decode.ts";
import { applyEvent } from "./handlers/index.ts";
import { blockText, timeText } from "./keys.ts";
import type { ChainNotice } from "./notice.ts";
import { readNotifications, storeNotifications } from "./notifications.ts";
import type { IndexerOptions } from "./options.ts";
import { COPY_ROWS, copyData, copyValue, Pace, type Runner, Statements, yieldToEventLoop } from "./store.ts";
import { Checked, verifyLogs } from "./verify.ts";

/**
 * Reading and applying a range of blocks in bulk, what a backfill from DEPLOY_BLOCK is made of (and each batch
 * that follows the head, see `follower.ts`): the range's logs read in parallel parts and decoded as they arrive,
 * the events COPY'd while the rest is read, the handlers run over them and the projections written in a few
 * statements.
 */

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

/** A block range read from the chain: its events decoded in chain order, and the logs they came from. */
export type RangeRead = { events: ChainEvent[]; logs: Log[]; before: string; time: number };

/**
 * The logs of a block range, all from one chain: the factory's first (to discover collections created in
 * the range), then the market's and every collection's, checking that the range's last block did not
 * change meanwhile. Each response is decoded as it arrives and its events given to `onEvents` (while the
 * other parts are still read); the events returned are all of them, in chain order.
 */
export async function readRange(
  options: IndexerOptions,
  client: Runner,
  from: bigint,
  to: bigint,
  head: bigint,
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
  const headers = new Map<bigint, ChainBlock>([[to, last]]);
  if (storedParent) {
    const first = from === to ? last : await chainBlock(chain, from);
    if (first) headers.set(from, first);
    if (first?.parent !== storedParent)
      throw new Error(`reorg below block ${from}; rolling back on the next pass`);
  }
  // Near the head, an RPC node a few blocks behind (behind a load balancer, a fallback) answers `[]` for the
  // blocks it does not have yet: the logs of those blocks are checked against their headers (`verifyLogs`).
  const checked = new Checked(from, to, head, headers);
  // Block times, for an RPC whose logs do not carry `blockTimestamp`: one read per block, none for the headers
  // read above (the range's last block, the one a batch following the head reads).
  const times = new Map<bigint, Promise<Date>>();
  const timeOf = (n: bigint) => {
    let t = times.get(n);
    if (!t) {
      const header = headers.get(n);
      t = header
        ? Promise.resolve(new Date(header.time * 1000))
        : chain.getBlock({ blockNumber: n }).then((b) => new Date(Number(b.timestamp) * 1000));
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
    (
      chain.request({
        method: "eth_getLogs",
        params: [{ address: address as `0x${string}`, fromBlock: toHex(fromBlock), toBlock: toHex(toBlock) }],
      }) as Promise<RpcLog[]>
    ).then((logs) => {
      checked.saw(typeof address === "string" ? [address] : address, fromBlock, toBlock, logs);
      return logs;
    });
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
  // Every log near the head that its block's header says is there was answered.
  await verifyLogs(chain, checked);
  // The range's last block did not change while we read.
  const after = await chainHash(chain, to);
  if (after !== before) throw new Error(`the chain changed while reading blocks ${from}-${to}`);
  return { events: sortEvents(events), logs, before, time: last.time };
}

/** Whether some events of the batch's blocks are stored already (a range applied again). */
export async function rangeSeen(client: pg.ClientBase, from: bigint, to: bigint): Promise<boolean> {
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
export async function storeEvents(
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
export async function recordBatch(client: Statements, from: bigint, to: bigint): Promise<void> {
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
export async function applyEvents(
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
      if (pace.due()) {
        options.onProgress?.();
        await pace.next();
      }
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
