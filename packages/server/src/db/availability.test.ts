import { writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
import pg from "pg";
import { createPublicClient, http, parseAbi } from "viem";
import { describe, expect, inject, it } from "vitest";
import { failingRpc, freezableProxy } from "../../test/fault-helpers.ts";
import { createChainClient } from "../chain/client.ts";
import { freePort } from "../embedded/process.ts";
import {
  CONNECT_TIMEOUT_MS,
  isChainUnavailable,
  isDatabaseUnavailable,
  isStorageUnavailable,
  QUERY_TIMEOUT_GRACE_MS,
} from "./availability.ts";
import { createDatabase, migrateDatabase } from "./client.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("knows a server that is away, restarting or ending sessions, however the driver says it", () => {
    expect(
      isDatabaseUnavailable(withCode("terminating connection due to administrator command", "57P01")),
    ).toBe(true);
    expect(isDatabaseUnavailable(withCode("the database system is starting up", "57P03"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    // Wrapped by Drizzle, and as the AggregateError of a host tried on several addresses.
    const refused = withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED");
    expect(isDatabaseUnavailable(new DrizzleQueryError("select 1", [], refused))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused], "connect failed"))).toBe(true);
  });

  it("does not take a wrong query, a constraint or bad credentials for an outage", () => {
    expect(isDatabaseUnavailable(withCode('relation "nope" does not exist', "42P01"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("duplicate key value", "23505"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("password authentication failed", "28P01"))).toBe(false);
    expect(isDatabaseUnavailable(new DrizzleQueryError("select", [], withCode("syntax", "42601")))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("Connection terminated")).toBe(false);
  });

  it("recognises what node-postgres really throws for a port where nothing listens", async () => {
    const url = new URL(inject("databaseUrl"));
    url.port = String(await freePort());
    const pool = new pg.Pool({ connectionString: url.toString(), connectionTimeoutMillis: 1_000 });
    const error = await pool.query("SELECT 1").catch((e: unknown) => e);
    await pool.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});

describe("a database that takes connections and never answers", () => {
  it("fails a query as unavailable once the connection attempt times out, instead of hanging", async () => {
    // A server behind a failover in progress, or a cut network: the TCP connection opens, nothing comes back.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const db = createDatabase(`postgres://easel:easel@127.0.0.1:${port}/easel`);
    try {
      const started = Date.now();
      const error = await db.execute(sql`SELECT 1`).catch((e: unknown) => e);
      const waited = Date.now() - started;
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(waited).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 50);
      expect(waited).toBeLessThan(CONNECT_TIMEOUT_MS + 1_000);
    } finally {
      await db.$client.end();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});

describe("isChainUnavailable", () => {
  it("knows an RPC that does not answer, and not a plain error", async () => {
    const chain = createPublicClient({
      transport: http(`http://127.0.0.1:${await freePort()}`, { retryCount: 0 }),
    });
    const error = await chain.getBlockNumber().catch((e: unknown) => e);
    expect(isChainUnavailable(error)).toBe(true);
    expect(isChainUnavailable(new Error("fetch failed"))).toBe(false);
  });
});

describe("isStorageUnavailable", () => {
  it("knows a full disk from what the filesystem really throws, bare or wrapped by the blockstore", async () => {
    // /dev/full answers every write with ENOSPC, as a full media volume does.
    const full = await writeFile("/dev/full", "artwork").then(
      () => null,
      (error: unknown) => error,
    );
    expect((full as { code?: string }).code).toBe("ENOSPC");
    expect(isStorageUnavailable(full)).toBe(true);
    // blockstore-fs throws `new PutFailedError(String(err))`: only the message carries the code.
    expect(isStorageUnavailable(new Error(String(full)))).toBe(true);
    expect(isStorageUnavailable(new Error("upload failed", { cause: full }))).toBe(true);
    expect(isStorageUnavailable(withCode("read-only file system", "EROFS"))).toBe(true);
  });

  it("knows a folder this process may no longer write (a volume remounted read-only for it)", async () => {
    // sysfs refuses writes to a read-only attribute with EACCES, even to root (chmod would not stop root).
    const denied = await writeFile("/sys/kernel/notes", "artwork").then(
      () => null,
      (error: unknown) => error,
    );
    expect((denied as { code?: string }).code).toBe("EACCES");
    expect(isStorageUnavailable(denied)).toBe(true);
    expect(isStorageUnavailable(new Error(String(denied)))).toBe(true);
    expect(isStorageUnavailable(withCode("operation not permitted", "EPERM"))).toBe(true);
  });

  it("does not take a missing file, a bad request or a bug for a full disk", () => {
    expect(isStorageUnavailable(withCode("no such file or directory", "ENOENT"))).toBe(false);
    expect(isStorageUnavailable(new Error("Unsupported file type"))).toBe(false);
    expect(isStorageUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isStorageUnavailable(null)).toBe(false);
  });
});

/** How long `promise` took to settle, and its error (null when it resolved). */
async function timed(promise: Promise<unknown>) {
  const started = Date.now();
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  return { ms: Date.now() - started, error };
}

describe("a database that stops answering on open connections", () => {
  it("fails a statement, a transaction and a pipelined read as unavailable within the query timeout", async () => {
    const proxy = await freezableProxy(inject("databaseUrl"));
    const db = createDatabase(proxy.url, { queryTimeoutMs: 1_000, readConnections: 1 });
    try {
      // Open connections first: two of the pool's and the pipelined one.
      await Promise.all([db.execute(sql`SELECT pg_sleep(0.05)`), db.execute(sql`SELECT pg_sleep(0.05)`)]);
      expect(db.$client.idleCount).toBe(2);
      await db.$repeated.execute(sql`SELECT 1`);
      proxy.freeze();
      const bound = 1_000 + QUERY_TIMEOUT_GRACE_MS;
      // A transaction on an open connection: its BEGIN times out, and the connection is cut, so its ROLLBACK
      // fails at once instead of waiting as long again behind it (which took 2 × bound).
      const transaction = await timed(db.transaction(async (tx) => tx.execute(sql`SELECT 1`)));
      expect(isDatabaseUnavailable(transaction.error)).toBe(true);
      expect(transaction.ms).toBeGreaterThanOrEqual(bound - 50);
      expect(transaction.ms).toBeLessThan(bound + 900);
      const statement = await timed(db.execute(sql`SELECT 1`));
      expect(isDatabaseUnavailable(statement.error)).toBe(true);
      expect(statement.ms).toBeLessThan(bound + 900);
      const pipelined = await timed(db.$repeated.execute(sql`SELECT 1`));
      expect(isDatabaseUnavailable(pipelined.error)).toBe(true);
      expect(pipelined.ms).toBeLessThan(bound + 900);
      // Both cut connections left the pool, the transaction's too (whose failed BEGIN Drizzle never releases).
      expect(db.$client.totalCount).toBe(0);
      // Back: the connections cut are gone from the pool, new ones work.
      proxy.thaw();
      expect((await db.execute<{ n: number }>(sql`SELECT 1 AS n`)).rows[0]?.n).toBe(1);
      expect((await db.$repeated.execute<{ n: number }>(sql`SELECT 2 AS n`)).rows[0]?.n).toBe(2);
    } finally {
      proxy.thaw();
      await db.$client.end();
      await proxy.close();
    }
  }, 30_000);

  it("has PostgreSQL cancel a statement past the timeout, as unavailable, and keeps the connection", async () => {
    const db = createDatabase(inject("databaseUrl"), { queryTimeoutMs: 300, max: 1 });
    try {
      const slow = await timed(db.execute(sql`SELECT pg_sleep(3)`));
      expect((slow.error as { cause?: { code?: string } }).cause?.code).toBe("57014");
      expect(isDatabaseUnavailable(slow.error)).toBe(true);
      expect(slow.ms).toBeLessThan(1_500);
      expect((await db.execute<{ n: number }>(sql`SELECT 1 AS n`)).rows[0]?.n).toBe(1);
    } finally {
      await db.$client.end();
    }
  });

  it("turns TCP keepalive on for every connection", async () => {
    const db = createDatabase(inject("databaseUrl"), { queryTimeoutMs: 1_000, readConnections: 1 });
    try {
      await db.$repeated.execute(sql`SELECT 1`);
      const client = await db.$client.connect();
      const options = client as unknown as { connection: { _keepAlive: boolean } };
      expect(options.connection._keepAlive).toBe(true);
      client.release();
      expect(db.$client.options).toMatchObject({ keepAlive: true, statement_timeout: 1_000 });
    } finally {
      await db.$client.end();
    }
  });

  it("migrates without the statement timeout: a migration may wait on another's lock for longer", async () => {
    const db = createDatabase(inject("databaseUrl"), { queryTimeoutMs: 200 });
    const other = new pg.Client({ connectionString: inject("databaseUrl") });
    await other.connect();
    try {
      // Another process migrating (the lock of db/client.ts's migrateDatabase) for a second.
      await other.query("SELECT pg_advisory_lock(7340001)");
      setTimeout(() => void other.query("SELECT pg_advisory_unlock(7340001)"), 1_000);
      await migrateDatabase(db);
    } finally {
      await other.end();
      await db.$client.end();
    }
  });
});

describe("PostgreSQL out of room", () => {
  it("takes a full disk, lack of memory and an ended pool for unavailable, as the server says them", async () => {
    const db = createDatabase(inject("databaseUrl"));
    for (const code of ["53100", "53200"]) {
      const error = await db
        .execute(sql.raw(`DO $$ BEGIN RAISE EXCEPTION 'out of room' USING ERRCODE = '${code}'; END $$`))
        .catch((e: unknown) => e);
      expect((error as { cause?: { code?: string } }).cause?.code).toBe(code);
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
    await db.$client.end();
    // A request that outlives the pool's end (a stop) is a database away, not a bug.
    const ended = await db.$client.query("SELECT 1").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(ended)).toBe(true);
  });
});

const decimalsOf = (chain: ReturnType<typeof createChainClient>) =>
  chain.readContract({
    address: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    abi: parseAbi(["function decimals() view returns (uint8)"]),
    functionName: "decimals",
  });

describe("isChainUnavailable, for the JSON-RPC errors of a provider", () => {
  it("knows an internal error, a rate limit and a lagging node, on calls and on contract reads", async () => {
    for (const answer of [
      { code: -32603, message: "Internal error" },
      { code: -32005, message: "daily request count exceeded, request rate limited" },
      { code: -32000, message: "header not found" },
      429,
    ]) {
      const rpc = await failingRpc(answer);
      try {
        const chain = createChainClient(31337, [rpc.url], { deadlineMs: 2_000 });
        expect(isChainUnavailable(await chain.getBlockNumber().catch((e: unknown) => e))).toBe(true);
        expect(
          isChainUnavailable(await decimalsOf(chain).catch((e: unknown) => e)),
          JSON.stringify(answer),
        ).toBe(true);
      } finally {
        rpc.close();
      }
    }
  }, 30_000);

  it("does not take a revert for an outage, whatever code the node wraps it in", async () => {
    for (const answer of [
      { code: 3, message: "execution reverted", data: "0x" },
      { code: -32603, message: "execution reverted" },
    ]) {
      const rpc = await failingRpc(answer);
      try {
        const chain = createChainClient(31337, [rpc.url], { deadlineMs: 2_000 });
        expect(isChainUnavailable(await decimalsOf(chain).catch((e: unknown) => e))).toBe(false);
      } finally {
        rpc.close();
      }
    }
  });

  it("gives up a hanging RPC at the deadline, retries included, as unavailable", async () => {
    const rpc = await failingRpc("hang");
    try {
      const chain = createChainClient(31337, [rpc.url], { deadlineMs: 800 });
      const read = await timed(decimalsOf(chain));
      expect(isChainUnavailable(read.error)).toBe(true);
      expect(read.ms).toBeGreaterThanOrEqual(750);
      expect(read.ms).toBeLessThan(2_000);
    } finally {
      rpc.close();
    }
  });
});
