import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { fillPlaceholders, type SQL, sql } from "drizzle-orm";
import { type MigrationMeta, readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { trackPipelines, trackPool } from "../metrics.ts";
import {
  boundedConnection,
  CONNECT_TIMEOUT_MS,
  CuttingClient,
  surviveLostConnections,
} from "./availability.ts";
import { defaultReadConnections, PipelinedConnections } from "./pipelined.ts";
import * as schema from "./schema.ts";
import { columnReaders } from "./timestamps.ts";

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool; $repeated: RepeatedQueries };

/**
 * A whole number written into a repeated statement's text, so its generic plan knows it: a row count (LIMIT,
 * OFFSET; with a parameter the planner assumes a tenth of the rows and may sort everything instead of walking
 * an index), or a category (its size decides the plan). Only for validated integers.
 */
export function literalInteger(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a whole number: ${n}`);
  return sql.raw(String(n));
}

/**
 * Read queries whose few shapes run thousands of times (the browse lists, search, the collection page), run
 * as named prepared statements with generic plans, so PostgreSQL plans each shape once per connection: at
 * full size, planning an NFT card query cost about 40 ms and running it about 2 ms. They have connections of
 * their own because the plan settings must not reach other queries, whose plans depend on their values, and
 * those connections are pipelined (pipelined.ts): each is a single statement that leaves nothing in its session.
 */
export type RepeatedQueries = {
  execute<T extends Record<string, unknown> = Record<string, unknown>>(query: SQL): Promise<{ rows: T[] }>;
  /**
   * A statement whose text is built once per `shape`, a name the caller gives each statement it builds (from
   * its own code, never a client's input: the texts are kept for the life of the process):
   * `build` writes the values as `sql.placeholder(name)`, and each run fills them from `values`. For the
   * cheapest statements, run thousands of times a second (the header search): writing their text again on
   * every request (drizzle's walk of the SQL tree) cost about a third of such a request's JavaScript.
   */
  run<T extends Record<string, unknown> = Record<string, unknown>>(
    shape: string,
    build: () => SQL,
    values: Record<string, unknown>,
  ): Promise<{ rows: T[] }>;
};

const MIGRATIONS_FOLDER = fileURLToPath(new URL("../../drizzle", import.meta.url));
/** Advisory lock key that serialises migrations when several processes start at once. */
const MIGRATION_LOCK_KEY = 7_340_001;

/**
 * How many statement shapes `$repeated` prepares at most. Every connection keeps each statement it prepared
 * until it closes, and some texts hold numbers a client chooses (a page's offset, a category): without a bound,
 * a client walking through them would grow every session's memory without end. A shape past the bound runs
 * unnamed, planned for that run only; the shapes prepared before it stay prepared.
 */
const MAX_PREPARED_SHAPES = 1_000;
/**
 * How long a `$repeated` connection takes new statements. Its prepared statements (and their plans' memory) go with it, and
 * the shape slots start again every such period: shapes a client made up cannot hold the slots, or a session's
 * memory, for the life of the process.
 */
const REPEATED_CONNECTION_LIFETIME_S = 600;

export function createDatabase(
  databaseUrl: string,
  options: {
    /** The main pool's connections. */
    max?: number;
    /** `$repeated`'s pipelined connections (DATABASE_READ_CONNECTIONS; by default, see `defaultReadConnections`). */
    readConnections?: number;
    maxPreparedShapes?: number;
    repeatedLifetimeSeconds?: number;
    /**
     * How long a statement may run (`statement_timeout`) before it fails as unavailable, and, a second later,
     * how long the connection waits for an answer before it is cut (a frozen or blackholed server); 0 or unset:
     * unbounded (one-off tools such as resync). The roles pass DATABASE_QUERY_TIMEOUT_SECONDS (roles.ts).
     */
    queryTimeoutMs?: number;
  } = {},
): Database {
  const bounds = boundedConnection(options.queryTimeoutMs ?? 0);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types: columnReaders,
    Client: CuttingClient,
    ...bounds,
  });
  // A client that loses its server, idle or checked out, must not crash the process; the next query reconnects.
  surviveLostConnections(pool);
  trackPool("main", pool);
  const db = drizzle(pool, { schema }) as Database;
  let repeated: PipelinedConnections | null = null;
  const dialect = new PgDialect();
  /** The prepared shapes' texts and their statements' names. */
  let preparedShapes = new Map<string, string>();
  const maxPreparedShapes = options.maxPreparedShapes ?? MAX_PREPARED_SHAPES;
  const lifetimeS = options.repeatedLifetimeSeconds ?? REPEATED_CONNECTION_LIFETIME_S;
  let slotsSince = Date.now();
  /** The texts of `run`'s shapes, with their parameters (placeholders among them), by shape. */
  const built = new Map<string, { sql: string; params: unknown[] }>();
  const send = async <T extends Record<string, unknown>>(text: string, params: unknown[]) => {
    if (!repeated) {
      repeated = new PipelinedConnections({
        connectionString: databaseUrl,
        size: options.readConnections ?? defaultReadConnections(),
        types: columnReaders,
        // Memoize is off in these plans: a generic plan cannot tell that a page's 26 tokens have 26 keys,
        // sizes each Memoize node's cache for many, and building those caches on every run cost more than
        // the lookups they save (a card page ran at 1,200 a second with them, 7,400 without).
        options: "-c plan_cache_mode=force_generic_plan -c enable_memoize=off",
        lifetimeSeconds: lifetimeS,
        connection: bounds,
      });
      trackPipelines("repeated", repeated);
    }
    // A connection prepared before this period takes no statements in the next one.
    if (Date.now() - slotsSince > lifetimeS * 1000) {
      preparedShapes = new Map();
      slotsSince = Date.now();
    }
    // The prepared shapes keep their names: hashing a statement's text on every run showed in the API's
    // CPU profile under load.
    let name = preparedShapes.get(text);
    if (name === undefined && preparedShapes.size < maxPreparedShapes) {
      name = `r${createHash("sha1").update(text).digest("base64url").slice(0, 24)}`;
      preparedShapes.set(text, name);
    }
    const result = await repeated.query<T>(
      name === undefined ? { text, values: params } : { name, text, values: params },
    );
    return { rows: result.rows };
  };
  db.$repeated = {
    async execute<T extends Record<string, unknown>>(query: SQL) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return send<T>(text, params);
    },
    async run<T extends Record<string, unknown>>(
      shape: string,
      build: () => SQL,
      values: Record<string, unknown>,
    ) {
      let statement = built.get(shape);
      if (!statement) {
        statement = dialect.sqlToQuery(build());
        built.set(shape, statement);
      }
      return send<T>(statement.sql, fillPlaceholders(statement.params, values));
    },
  };
  // Ending the database ends the pool and the pipelined connections.
  const end = pool.end.bind(pool);
  pool.end = (async () => {
    const ending = repeated;
    repeated = null;
    await Promise.all([ending?.end(), end()]);
  }) as typeof pool.end;
  return db;
}

/**
 * Applies pending migrations; safe to call from several processes at once. On a connection of its own, without
 * the pool's statement timeout: a migration may rebuild an index for minutes, and a process waits on the lock
 * for as long as another migrates.
 */
export async function migrateDatabase(db: Database): Promise<void> {
  const client = new pg.Client({
    connectionString: db.$client.options.connectionString,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...boundedConnection(0),
  });
  // A lost session fails the migration's statement (its transaction rolls back), not the process.
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}

/** Easel's migrations, oldest first (drizzle's own reading of the `drizzle/` folder). */
export function codeMigrations(): MigrationMeta[] {
  return readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER });
}

/**
 * Applies `migrations` in the caller's transaction, recording each in drizzle's own table as its migrator
 * does (hash and time of the file), so `migrateDatabase` later continues after them. A restore uses it to
 * build the schema of a snapshot's level, load the data and migrate forward all in one transaction.
 */
export async function applyMigrations(client: pg.ClientBase, migrations: MigrationMeta[]): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
  await client.query('CREATE SCHEMA IF NOT EXISTS "drizzle"');
  await client.query(
    'CREATE TABLE IF NOT EXISTS "drizzle"."__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
  );
  for (const migration of migrations) {
    for (const statement of migration.sql) await client.query(statement);
    await client.query(
      'INSERT INTO "drizzle"."__drizzle_migrations" ("hash", "created_at") VALUES ($1, $2)',
      [migration.hash, migration.folderMillis],
    );
  }
}
