/**
 * Easel's database in a backup: every table of Easel's schema copied out (`COPY … TO STDOUT`, text format)
 * inside one read-only REPEATABLE READ transaction, so the tables form one consistent snapshot while Easel
 * runs; and put back by building the schema with Easel's own migrations and copying in, all in one
 * transaction. No pg_dump: nothing here depends on the server's version beyond COPY's text format.
 */
import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { MigrationMeta } from "drizzle-orm/migrator";
import type pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { applyMigrations, codeMigrations } from "../db/client.ts";

/**
 * Tables left out, and why: each is rebuilt or refilled by use, and restoring it would bring back what
 * users and operators expect gone.
 */
export const EXCLUDED_TABLES: Record<string, string> = {
  sessions:
    "sign-ins: a restore must not revive sessions signed out or revoked (a ban) since; everyone signs in again",
  auth_nonces: "single-use sign-in nonces, valid for minutes",
  rate_limit_counters: "rate-limit windows of a minute or so",
  indexer_leader: "the running indexer's lease",
};

/** Tables whose rows a fresh database already has (written by the migrations), not counted as data. */
const SEEDED_TABLES = new Set(["categories"]);

/** Uncompressed bytes per archive entry of a table's COPY data. */
const PART_BYTES = 8 * 1024 * 1024;

export type TableInfo = { name: string; columns: string[] };

export type DatabaseManifest = {
  server: string;
  /** drizzle's record of the migrations applied (the schema's level), oldest first. */
  migrations: { hash: string; createdAt: number }[];
  /** The indexer's cursor, and the hash it stored for that block (null before the first batch). */
  indexed: { chainId: number; block: string; hash: string | null } | null;
  /** In load order: a table comes after the tables its foreign keys point to. */
  tables: TableInfo[];
};

export type TableSummary = { rows: number; bytes: number; sha256: string };

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Easel's tables (schema `public`), parents before children, and their stored (not generated) columns. */
async function listTables(client: pg.ClientBase): Promise<TableInfo[]> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(
    `SELECT c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
      GROUP BY c.relname ORDER BY c.relname`,
  );
  const { rows: keys } = await client.query<{ child: string; parent: string }>(
    `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent
       FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace`,
  );
  const unquote = (name: string) => name.replace(/^"|"$/g, "").replaceAll('""', '"');
  const parents = new Map<string, string[]>();
  for (const k of keys) {
    if (k.child === k.parent) continue;
    parents.set(unquote(k.child), [...(parents.get(unquote(k.child)) ?? []), unquote(k.parent)]);
  }
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const byName = new Map(rows.map((r) => [r.name, r]));
  const place = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const parent of parents.get(name) ?? []) place(parent, path);
    const table = byName.get(name);
    if (table) ordered.push({ name: table.name, columns: table.columns });
    placed.add(name);
  };
  for (const r of rows) place(r.name, new Set());
  return ordered;
}

/**
 * Copies the database out inside one read-only REPEATABLE READ transaction. `describe` receives the
 * manifest before any data (it goes first in the archive); `part` receives each table's COPY text in parts
 * of at most 8 MiB, in order. Returns each table's row count, size and SHA-256. After a failure the caller
 * must end the connection (which ends the transaction).
 */
export async function snapshotDatabase(
  client: pg.ClientBase,
  describe: (manifest: DatabaseManifest) => Promise<void>,
  part: (table: string, index: number, data: Buffer) => Promise<void>,
): Promise<Record<string, TableSummary>> {
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
  let complete = false;
  try {
    const tables = (await listTables(client)).filter((t) => !(t.name in EXCLUDED_TABLES));
    if (!tables.some((t) => t.name === "profiles"))
      throw new Error("this database holds no Easel schema (no profiles table)");
    const { rows: migrations } = await client.query<{ hash: string; created_at: string }>(
      'SELECT hash, created_at FROM "drizzle"."__drizzle_migrations" ORDER BY created_at',
    );
    const { rows: cursor } = await client.query<{ chain_id: number; block: string; hash: string | null }>(
      `SELECT s.chain_id, s.indexed_block::text AS block, b.hash
         FROM indexer_state s LEFT JOIN chain_blocks b ON b.number = s.indexed_block`,
    );
    const { rows: version } = await client.query<{ server_version: string }>("SHOW server_version");
    const indexed = cursor[0]
      ? { chainId: cursor[0].chain_id, block: cursor[0].block, hash: cursor[0].hash }
      : null;
    await describe({
      server: `PostgreSQL ${version[0]?.server_version}`,
      migrations: migrations.map((m) => ({ hash: m.hash, createdAt: Number(m.created_at) })),
      indexed,
      tables,
    });
    const summary: Record<string, TableSummary> = {};
    for (const table of tables) {
      const hash = createHash("sha256");
      let rows = 0;
      let bytes = 0;
      let index = 0;
      let chunks: Buffer[] = [];
      let pending = 0;
      const flush = async () => {
        await part(table.name, index++, Buffer.concat(chunks));
        chunks = [];
        pending = 0;
      };
      const stream = client.query(
        copyTo(`COPY ${ident(table.name)} (${table.columns.map(ident).join(", ")}) TO STDOUT`),
      );
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        bytes += chunk.length;
        // COPY's text format writes one line per row (newlines inside values are escaped).
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
        chunks.push(chunk);
        pending += chunk.length;
        if (pending >= PART_BYTES) await flush();
      }
      // Every table has at least one part, so the archive names each table it holds.
      if (pending > 0 || index === 0) await flush();
      summary[table.name] = { rows, bytes, sha256: hash.digest("hex") };
    }
    complete = true;
    return summary;
  } finally {
    // Not after a failure: a COPY abandoned half-way (the archive could not be written) leaves the
    // connection mid-protocol, and a query queued behind it would wait for ever. The caller ends the
    // connection, which ends the transaction.
    if (complete) await client.query("ROLLBACK").catch(() => {});
  }
}

/** Thrown when a restore is refused before anything changed; its message tells the user what to do. */
export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

/** The migrations a snapshot's schema was at, from this code's list; refuses a history this code lacks. */
export function migrationsUpTo(manifest: DatabaseManifest): {
  level: MigrationMeta[];
  later: MigrationMeta[];
} {
  const code = codeMigrations();
  const snapshot = manifest.migrations;
  if (snapshot.length > code.length)
    throw new RestoreRefused(
      `This snapshot was taken by a newer Easel: its database schema has ${snapshot.length} migrations and this ` +
        `code knows ${code.length}. Update Easel to the version that took it (or later), then restore.`,
    );
  snapshot.forEach((m, i) => {
    if (code[i]?.folderMillis !== m.createdAt)
      throw new RestoreRefused(
        `This snapshot's database schema does not match this code's migrations (migration ${i + 1} differs): ` +
          "restore it with the Easel version that took it.",
      );
  });
  return { level: code.slice(0, snapshot.length), later: code.slice(snapshot.length) };
}

/** The other sessions connected to the database: a restore under a running Easel would be overwritten. */
async function otherSessions(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ who: string }>(
    `SELECT coalesce(nullif(application_name, ''), host(client_addr), 'local') || ' (process ' || pid || ')' AS who
       FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
  );
  return rows.map((r) => r.who);
}

/**
 * The other sessions still connected after up to `graceMs`: a session that is closing (Easel just stopped, its
 * pool ended) leaves `pg_stat_activity` a moment after its client let go, so a restore right after a stop must
 * not take it for one that stays.
 */
export async function lingeringSessions(client: pg.ClientBase, graceMs = 3_000): Promise<string[]> {
  const deadline = Date.now() + graceMs;
  let others = await otherSessions(client);
  while (others.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    others = await otherSessions(client);
  }
  return others;
}

/** The tables that hold rows a fresh database would not have (the data a restore would replace). */
export async function tablesWithData(client: pg.ClientBase): Promise<string[]> {
  const tables = (await listTables(client)).filter(
    (t) => !(t.name in EXCLUDED_TABLES) && !SEEDED_TABLES.has(t.name),
  );
  const found: string[] = [];
  for (const t of tables) {
    const { rows } = await client.query(`SELECT 1 FROM ${ident(t.name)} LIMIT 1`);
    if (rows.length > 0) found.push(t.name);
  }
  return found;
}

/**
 * Drops Easel's objects (every table, view, sequence, function and type of schema `public` that no
 * extension owns, and drizzle's record of migrations), in the caller's transaction. Extensions (pg_trgm)
 * stay: the migrations create them only if missing, and a user without the right to create them can
 * still restore.
 */
async function dropEaselObjects(client: pg.ClientBase): Promise<void> {
  // Objects of an extension stay; objects that belong to another (a column's sequence) go with it.
  const notExtension = (catalog: string, oid: string) =>
    `NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${oid} AND d.deptype IN ('e', 'a', 'i'))`;
  const { rows } = await client.query<{ statement: string }>(
    `SELECT format('DROP %s IF EXISTS %s CASCADE',
                   CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE'
                                  WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
                   c.oid::regclass) AS statement
       FROM pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
        AND ${notExtension("pg_class", "c.oid")}
     UNION ALL
     SELECT format('DROP ROUTINE IF EXISTS %s CASCADE', p.oid::regprocedure)
       FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace AND p.prokind IN ('f', 'p') AND ${notExtension("pg_proc", "p.oid")}
     UNION ALL
     SELECT format('DROP TYPE IF EXISTS %s CASCADE', t.oid::regtype)
       FROM pg_type t
      WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd', 'r', 'm')
        AND ${notExtension("pg_type", "t.oid")}`,
  );
  for (const r of rows) await client.query(r.statement);
  await client.query('DROP SCHEMA IF EXISTS "drizzle" CASCADE');
}

/**
 * Restores the database in one transaction on `client`: drops Easel's objects, applies the migrations up to
 * the snapshot's level, copies each table in (its triggers off: the rows are already what they produced),
 * sets sequences after the highest ids, and applies the migrations added since. Returns a loader that takes
 * the archive's table parts in order, and `finish`, which checks every table against the archive's summary
 * and commits (or `abort`, which rolls everything back: the database is then as it was).
 */
export async function beginRestore(client: pg.ClientBase, manifest: DatabaseManifest) {
  const { level, later } = migrationsUpTo(manifest);
  await client.query("BEGIN");
  await dropEaselObjects(client);
  await applyMigrations(client, level);
  const tables = await listTables(client);
  const known = new Map(tables.map((t) => [t.name, t]));
  for (const t of manifest.tables) {
    const here = known.get(t.name);
    if (!here || here.columns.join() !== t.columns.join())
      throw new Error(`table ${t.name} of the snapshot does not match the schema its migrations build`);
  }
  // The migrations seed some rows (categories): the snapshot's rows replace them.
  if (manifest.tables.length > 0)
    await client.query(`TRUNCATE ${manifest.tables.map((t) => ident(t.name)).join(", ")}`);
  // Indexes are built once after the rows are in, rather than entry by entry as they arrive (the trigram
  // and full-text GIN indexes above all); those behind a primary key or unique constraint stay, as foreign
  // keys need them.
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
      WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [manifest.tables.map((t) => t.name)],
  );
  for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);

  const loaded: Record<string, TableSummary> = {};
  let current: {
    table: string;
    next: number;
    copy: Writable;
    done: Promise<void>;
    hash: ReturnType<typeof createHash>;
    summary: TableSummary;
  } | null = null;
  const closeTable = async () => {
    if (!current) return;
    const { table, copy, done, hash, summary } = current;
    current = null;
    copy.end();
    await done;
    await client.query(`ALTER TABLE ${ident(table)} ENABLE TRIGGER USER`);
    loaded[table] = { ...summary, sha256: hash.digest("hex") };
  };
  const order = manifest.tables.map((t) => t.name);

  return {
    /** Part `index` of `table`'s COPY data (parts come in order, tables in the manifest's order). */
    async part(table: string, index: number, data: AsyncIterable<Buffer>): Promise<void> {
      const info = known.get(table);
      if (!info || !order.includes(table))
        throw new Error(`the backup holds data of an unknown table ${table}`);
      if (current?.table !== table) {
        await closeTable();
        if (index !== 0 || table in loaded)
          throw new Error(`the backup's parts of ${table} are out of order`);
        await client.query(`ALTER TABLE ${ident(table)} DISABLE TRIGGER USER`);
        const copy = client.query(
          copyFrom(`COPY ${ident(table)} (${info.columns.map(ident).join(", ")}) FROM STDIN`),
        ) as unknown as Writable;
        const done = new Promise<void>((resolve, reject) => {
          copy.once("finish", resolve);
          copy.once("error", reject);
        });
        done.catch(() => {});
        current = {
          table,
          next: 0,
          copy,
          done,
          hash: createHash("sha256"),
          summary: { rows: 0, bytes: 0, sha256: "" },
        };
      }
      const c = current as NonNullable<typeof current>;
      if (index !== c.next) throw new Error(`the backup's parts of ${table} are out of order`);
      c.next++;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          c.hash.update(chunk);
          c.summary.bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) c.summary.rows++;
          if (c.copy.write(chunk)) callback();
          else c.copy.once("drain", () => callback());
        },
      });
      await Promise.race([pipeline(data, sink), c.done.then(() => {})]);
    },

    /** Checks what was loaded against the archive's summary, finishes the schema and commits. */
    async finish(expected: Record<string, TableSummary>): Promise<void> {
      await closeTable();
      for (const name of order) {
        const want = expected[name];
        const got = loaded[name];
        if (!want || !got || want.sha256 !== got.sha256 || want.rows !== got.rows)
          throw new Error(
            `the backup is damaged: table ${name} does not match its checksum (${got?.rows ?? 0} rows read, ${want?.rows ?? "?"} written)`,
          );
      }
      await client.query("SET LOCAL maintenance_work_mem = '256MB'");
      for (const index of indexes) await client.query(index.definition);
      // Identity and serial columns continue after the highest restored value.
      const { rows: sequences } = await client.query<{ tbl: string; col: string; seq: string }>(
        `SELECT c.oid::regclass::text AS tbl, quote_ident(a.attname) AS col,
                pg_get_serial_sequence(c.oid::regclass::text, a.attname) AS seq
           FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
          WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
            AND pg_get_serial_sequence(c.oid::regclass::text, a.attname) IS NOT NULL`,
      );
      for (const s of sequences)
        await client.query(
          `SELECT setval($1, coalesce((SELECT max(${s.col}) FROM ${s.tbl}), 0) + 1, false)`,
          [s.seq],
        );
      // Migrations newer than the snapshot run on its data, as they would have on the live database.
      await applyMigrations(client, later);
      await client.query("COMMIT");
      await client.query("ANALYZE");
    },

    async abort(): Promise<void> {
      current?.copy.destroy();
      await client.query("ROLLBACK").catch(() => {});
    },
  };
}
