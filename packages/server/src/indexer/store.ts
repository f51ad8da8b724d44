import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/** Runs one statement: a connection, or `Statements` in front of one. */
export type Runner = {
  query<R extends pg.QueryResultRow = Row>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
};

/**
 * Statements for one connection, run strictly one after another while the caller keeps adding: each
 * statement's parameters (the JSON of thousands of rows) are built when it is added, so JavaScript
 * prepares the next statements while PostgreSQL executes the current one, and the connection never
 * has two queries in flight. After a failure the later statements are not sent; they reject with it.
 */
export class Statements implements Runner {
  /** Told how long each statement ran on the connection (`bench:indexer` uses it to say where time goes). */
  static timer: ((text: string, ms: number) => void) | null = null;
  #tail: Promise<unknown> = Promise.resolve();
  #closed = false;
  constructor(readonly client: pg.ClientBase) {}

  /** Waits for every statement added so far; rejects with the first failure. */
  async done(): Promise<void> {
    await this.#tail;
  }

  /**
   * Sends nothing more: the statements still waiting and any added later reject. Resolves when the one
   * running is over, so a ROLLBACK sent after it ends the transaction with nothing of this chain after it.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#tail.catch(() => {});
  }

  query<R extends pg.QueryResultRow = Row>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return this.#next(text, () => this.client.query<R>(text, values));
  }

  /** `COPY … FROM STDIN` (text format) with `data` as its lines (see `copyData`), in turn like any statement. */
  copy(text: string, data: Buffer): Promise<void> {
    return this.#next(text, () => pipeline(Readable.from([data]), this.client.query(copyFrom(text))));
  }

  #next<T>(text: string, start: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(async () => {
      if (this.#closed) throw new Error("the batch's statements were closed");
      const timer = Statements.timer;
      if (!timer) return start();
      const began = performance.now();
      try {
        return await start();
      } finally {
        timer(text, performance.now() - began);
      }
    });
    this.#tail = run;
    // A statement queued while the batch goes on is awaited later: if its connection dies first, its
    // failure must reach that await, not end the process as an unhandled rejection.
    run.catch(() => {});
    return run;
  }
}

/** Rows per COPY statement: PostgreSQL takes one while the next is built. */
export const COPY_ROWS = 10_000;

/**
 * The lines of a COPY, as the bytes sent. Joined (not concatenated one by one: encoding such a string
 * first flattens it, 15 ms per 10,000 rows) and encoded when built, so a statement starts by writing them.
 */
export const copyData = (lines: string[]) => Buffer.from(lines.join(""));

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped. */
export const copyValue = (value: string) =>
  /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) =>
        c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r",
      )
    : value;

/** Lets the event loop run (a connection sends its next statement) between two pieces of long work. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Longest run of synchronous work between two yields of a long loop (see `Pace`). */
const SLICE_MS = 0.5;

/**
 * Paces a long loop on the event loop: `due()` says when the work since the last yield has run for SLICE_MS,
 * and `next()` yields. PostgreSQL gets the rest of a COPY's data, its answers are read and the next statement
 * is sent only while the event loop is free: on this 2-core machine a COPY beside JavaScript that held the
 * loop for 30 ms at a time took 1.5× as long as alone, and the 100,000-event backfill of `bench:indexer` took
 * about 4.6 s with 4 ms slices, 4.2 s with 1 ms and 4.0 s with 0.5 ms (a yield costs microseconds).
 */
export class Pace {
  #since = performance.now();

  due(): boolean {
    return performance.now() - this.#since >= SLICE_MS;
  }

  async next(): Promise<void> {
    await yieldToEventLoop();
    this.#since = performance.now();
  }
}

/** A row as PostgreSQL returns it and as json_populate_recordset reads it: snake_case columns, JSON values. */
export type Row = Record<string, unknown>;

/**
 * The rows of one table that a batch touches, held in memory while the handlers run, then written back
 * in one statement (`json_populate_recordset`). Every row it writes is complete, so an upsert replaces
 * the stored row with exactly what the handlers made of it.
 */
export class Store {
  readonly rows = new Map<string, Row>();
  readonly dirty = new Set<string>();
  readonly deleted = new Set<string>();
  /**
   * The stored rows as loaded, before any handler changed them: what undoing the batch restores. Kept
   * only when the batch records undo (`keepLoaded`); a backfill far from the head skips the copies.
   */
  readonly loaded = new Map<string, Row>();
  /**
   * Every key whose stored state the batch read (found or absent), when it keeps loaded rows: a row changed
   * outside it has no known prior, and undo refuses it rather than record "created" for a row that existed.
   */
  readonly read = new Set<string>();
  /**
   * Keys `load` looked for and did not find: rows the batch creates with these keys cannot conflict (the
   * batch holds the projections' lock, and the indexer's leader is the only other writer), so they go in
   * with COPY instead of an upsert.
   */
  readonly absent = new Set<string>();
  keepLoaded = false;

  constructor(
    readonly table: string,
    /** Primary-key columns, in order. */
    readonly keyColumns: string[],
    /** Every column, for the upsert's SET list. */
    readonly columns: string[],
  ) {}

  keyOf(row: Row): string {
    // Called for every change a handler makes: a loop, not map and join.
    let key = String(row[this.keyColumns[0] as string]);
    for (let i = 1; i < this.keyColumns.length; i++) key += `:${row[this.keyColumns[i] as string]}`;
    return key;
  }

  get(key: string): Row | undefined {
    return this.rows.get(key);
  }

  set(row: Row): Row {
    const key = this.keyOf(row);
    this.rows.set(key, row);
    this.dirty.add(key);
    this.deleted.delete(key);
    return row;
  }

  /** Marks a row changed after editing it in place. */
  touch(row: Row): void {
    this.dirty.add(this.keyOf(row));
  }

  delete(key: string): void {
    if (this.rows.delete(key)) this.deleted.add(key);
    this.dirty.delete(key);
  }

  /** Takes a stored row read elsewhere as loaded. */
  adopt(row: Row): void {
    const key = this.keyOf(row);
    this.rows.set(key, row);
    this.absent.delete(key);
    if (!this.keepLoaded) return;
    this.loaded.set(key, structuredClone(row));
    this.read.add(key);
  }

  /** A key's column values, from the key string. */
  keyRow(key: string): Row {
    const parts = key.split(":");
    return Object.fromEntries(this.keyColumns.map((c, i) => [c, parts[i]]));
  }

  /** Every row this batch changes, with what was stored before (null: the batch creates it). */
  changes(): { key: string; prior: Row | null }[] {
    if (!this.keepLoaded) throw new Error(`${this.table}: undo asked of a batch that kept no loaded rows`);
    return [...new Set([...this.dirty, ...this.deleted])].map((key) => {
      if (!this.read.has(key)) {
        throw new Error(`${this.table}: row ${key} changed without its stored row loaded (see Batch.load)`);
      }
      return { key, prior: this.loaded.get(key) ?? null };
    });
  }

  /** Loads the stored rows whose key is in `keys` (each key given as its column values). */
  async load(client: Runner, keys: Row[]): Promise<void> {
    if (keys.length === 0) return;
    const asked = keys.map((key) => this.keyOf(key));
    if (this.keepLoaded) for (const key of asked) this.read.add(key);
    const types = await columnTypes(client, this.table);
    const cols = this.keyColumns.map((c) => `${c} ${types.get(c) ?? "text"}`).join(", ");
    const keyList = this.keyColumns.join(", ");
    const { rows } = await client.query(
      `SELECT t.* FROM ${this.table} t
       WHERE (${this.keyColumns.map((c) => `t.${c}`).join(", ")}) IN (SELECT ${keyList} FROM json_to_recordset($1::json) AS x(${cols}))`,
      [JSON.stringify(keys)],
    );
    for (const key of asked) if (!this.rows.has(key)) this.absent.add(key);
    for (const row of rows) this.adopt(row);
  }

  /**
   * Writes the changed rows and deletes the removed ones: rows new to the table (`absent`) with COPY when
   * `client` is a `Statements`, the others with an upsert.
   */
  async flush(client: Runner): Promise<void> {
    if (this.deleted.size > 0) {
      const types = await columnTypes(client, this.table);
      const cols = this.keyColumns.map((c) => `${c} ${types.get(c) ?? "text"}`).join(", ");
      const keys = [...this.deleted].map((key) => this.keyRow(key));
      await client.query(
        `DELETE FROM ${this.table} WHERE (${this.keyColumns.join(", ")}) IN
         (SELECT ${this.keyColumns.join(", ")} FROM json_to_recordset($1::json) AS x(${cols}))`,
        [JSON.stringify(keys)],
      );
    }
    const fresh: Row[] = [];
    const stored: Row[] = [];
    for (const key of this.dirty) {
      const row = this.rows.get(key);
      if (row) (this.absent.has(key) && client instanceof Statements ? fresh : stored).push(row);
    }
    this.dirty.clear();
    this.deleted.clear();
    await Promise.all([
      fresh.length > 0 ? copyRows(client as Statements, this.table, this.columns, fresh) : undefined,
      stored.length > 0 ? upsertRows(client, this.table, this.keyColumns, this.columns, stored) : undefined,
    ]);
  }
}

const typeCache = new Map<string, Map<string, string>>();

/** Column types of a table (cached per process), for json_to_recordset column lists. */
async function columnTypes(client: Runner, table: string): Promise<Map<string, string>> {
  let types = typeCache.get(table);
  if (!types) {
    const { rows } = await client.query<{ name: string; type: string }>(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
       WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
      [table],
    );
    types = new Map(rows.map((r) => [r.name, r.type]));
    typeCache.set(table, types);
  }
  return types;
}

/** A column value in COPY's text format (NULL as `\N`, JSON for objects). */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  if (value instanceof Date) return value.toISOString();
  return copyValue(typeof value === "object" ? JSON.stringify(value) : String(value));
}

/**
 * Appends rows that cannot exist yet (their keys come from events new to `chain_events`) with `COPY`,
 * PostgreSQL's bulk path: no conflict checks, no JSON to parse.
 */
export async function copyRows(statements: Statements, table: string, columns: string[], rows: Row[]) {
  const copies: Promise<void>[] = [];
  const list = columns.map((c) => `"${c}"`).join(", ");
  const pace = new Pace();
  for (let i = 0; i < rows.length; i += COPY_ROWS) {
    const lines: string[] = [];
    for (let j = i; j < i + COPY_ROWS && j < rows.length; j++) {
      const row = rows[j] as Row;
      let line = copyField(row[columns[0] as string]);
      for (let k = 1; k < columns.length; k++) line += `\t${copyField(row[columns[k] as string])}`;
      lines.push(`${line}\n`);
      if (pace.due()) await pace.next();
    }
    copies.push(statements.copy(`COPY ${table} (${list}) FROM STDIN`, copyData(lines)));
    await pace.next();
  }
  await Promise.all(copies);
}

const CHUNK = 5_000;

/** Inserts complete rows, replacing existing ones with the same key (or keeping them with `keep`). */
export async function upsertRows(
  client: Runner,
  table: string,
  keyColumns: string[],
  columns: string[],
  rows: Row[],
  options: { keep?: boolean } = {},
): Promise<void> {
  const set = columns
    .filter((c) => !keyColumns.includes(c))
    .map((c) => `"${c}" = EXCLUDED."${c}"`)
    .join(", ");
  const conflict = options.keep || !set ? "DO NOTHING" : `DO UPDATE SET ${set}`;
  const inserts: Promise<unknown>[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    // With `Statements`, each chunk is serialised now and sent when the previous one is done; the
    // yield lets the first one go out before the next is built.
    inserts.push(
      client.query(
        `INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)
         ON CONFLICT (${keyColumns.join(", ")}) ${conflict}`,
        [JSON.stringify(rows.slice(i, i + CHUNK))],
      ),
    );
    await yieldToEventLoop();
  }
  await Promise.all(inserts);
}
