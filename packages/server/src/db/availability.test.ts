import { writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";
import pg from "pg";
import { createPublicClient, http } from "viem";
import { describe, expect, inject, it } from "vitest";
import { freePort } from "../embedded/process.ts";
import {
  CONNECT_TIMEOUT_MS,
  isChainUnavailable,
  isDatabaseUnavailable,
  isStorageUnavailable,
} from "./availability.ts";
import { createDatabase } from "./client.ts";

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

  it("does not take a missing file, a bad request or a bug for a full disk", () => {
    expect(isStorageUnavailable(withCode("no such file or directory", "ENOENT"))).toBe(false);
    expect(isStorageUnavailable(new Error("Unsupported file type"))).toBe(false);
    expect(isStorageUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isStorageUnavailable(null)).toBe(false);
  });
});
