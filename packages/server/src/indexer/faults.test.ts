/**
 * The indexer against a faulty RPC, through a JSON-RPC proxy in front of a private anvil: a node behind the
 * chain that answers `[]` for the logs of blocks it does not have yet, a node that fails, a node that hangs; and
 * a database that is away. Each ends with the index equal to a fresh one, the lease and the metrics telling the
 * truth meanwhile, and failures logged as warnings at a backoff.
 */
import type { Health } from "@easel/common";
import { http } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../app.ts";
import { createDatabase, type Database } from "../db/client.ts";
import { freePort } from "../embedded/process.ts";
import { registry } from "../metrics.ts";
import { type Indexer, startIndexer } from "./indexer.ts";
import type { IndexerOptions } from "./options.ts";
import {
  admin,
  artist,
  configFor,
  createScratchDatabase,
  driver,
  dumpTables,
  indexerOptions,
  indexToHead,
  publicClientFor,
  startTestChain,
  type TestChain,
} from "./testing.ts";
import { startRpcProxy } from "./testing-rpc.ts";

let t: TestChain;
let proxy: Awaited<ReturnType<typeof startRpcProxy>>;

beforeAll(async () => {
  t = await startTestChain();
  proxy = await startRpcProxy(t.url);
  await driver(t).market(admin, "setArtistVerified", [artist.address, true]);
}, 120_000);
afterAll(async () => {
  await proxy?.stop();
  await t?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(50);
  }
  throw new Error("condition not met in time");
}

/** A chain client through the proxy that gives up at once (the transport's retries would only slow the tests). */
const proxied = () => publicClientFor(t, http(proxy.url, { retryCount: 0, timeout: 2_000 }));

type Line = { at: number; level: string; message: string };

function recorder() {
  const lines: Line[] = [];
  return {
    lines,
    log: ((message: string, level?: "warn") => {
      lines.push({ at: Date.now(), level: level ?? "info", message });
    }) satisfies IndexerOptions["log"],
  };
}

const indexedBlock = async (db: Database) =>
  BigInt((await db.$client.query("SELECT indexed_block FROM indexer_state")).rows[0]?.indexed_block ?? -1);

const heartbeatAge = async (db: Database) =>
  Number(
    (
      await db.$client.query(
        "SELECT extract(epoch FROM now() - heartbeat_at)::float8 AS age FROM indexer_leader",
      )
    ).rows[0]?.age ?? -1,
  );

const metric = async (name: string) => {
  const line = (await registry.metrics()).split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
};

async function caughtUp(db: Database) {
  const head = await t.publicClient.getBlockNumber({ cacheTime: 0 });
  await waitFor(async () => (await indexedBlock(db)) >= head);
}

describe("an RPC node behind the chain", () => {
  it("answers [] for blocks it does not have: the indexer reads them again until the chain agrees, and ends equal to a fresh index", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const fresh = await createScratchDatabase(inject("databaseUrl"));
    const config = configFor(t, scratch.url);
    const app = await buildApp(
      { config, db: scratch.db, chain: t.publicClient },
      { logger: false, health: { leaderSilenceMs: 1_000, chainReadMs: 0 } },
    );
    const { lines, log } = recorder();
    let batches = 0;
    const indexer = startIndexer({
      ...indexerOptions(scratch.db, config, proxied()),
      log,
      pollIntervalMs: 50,
      onCommit: () => void batches++,
    });
    const d = driver(t);
    try {
      await caughtUp(scratch.db);
      const before = batches;
      // The node falls behind: every block mined from now on is one it answers `[]` for, over several batches.
      proxy.set("lagging");
      const laggingSince = Date.now();
      const created: string[] = [];
      for (let i = 0; i < 6; i++) {
        const collection = await d.createCollection(artist, `Lagging ${i}`, `LAG${i}`);
        created.push(collection.toLowerCase());
        await d.mint(artist, collection, 1n);
        await sleep(150);
      }
      // The node stays behind for 3 s (25 s in the incident), over several attempts to read the new blocks.
      await sleep(laggingSince + 3_000 - Date.now());
      expect(
        lines.filter((l) => l.level === "warn" && l.message.includes("a node behind the chain?")).length,
      ).toBeGreaterThanOrEqual(3);
      // Several range reads were answered `[]` meanwhile, and none of them was committed.
      expect(proxy.counts.getLogsByRange).toBeGreaterThan(10);
      expect(proxy.counts.getLogsByHash).toBeGreaterThanOrEqual(2);
      const { rows: missing } = await scratch.db.$client.query(
        "SELECT count(*)::int AS n FROM chain_collections WHERE address = ANY($1)",
        [created],
      );
      expect(missing[0].n).toBe(0);
      // No progress reading the chain: health says so.
      const health = (await app.inject({ method: "GET", url: "/api/health" })).json() as Health;
      expect(health.status).toBe("degraded");
      expect(health.indexer?.leaderHeartbeatAge).toBeGreaterThan(2);
      expect(health.indexer?.lag).toBeGreaterThanOrEqual(12);

      proxy.set("pass");
      await caughtUp(scratch.db);
      expect(batches).toBeGreaterThan(before);
      expect(lines.some((l) => l.level === "warn" && l.message.includes("a node behind the chain?"))).toBe(
        true,
      );
      await indexToHead(indexerOptions(fresh.db, configFor(t, fresh.url), t.publicClient));
      expect(await dumpTables(scratch.db)).toEqual(await dumpTables(fresh.db));
      const { rows } = await scratch.db.$client.query(
        "SELECT count(*)::int AS n FROM chain_collections WHERE address = ANY($1)",
        [created],
      );
      expect(rows[0].n).toBe(created.length);
    } finally {
      proxy.set("pass");
      await indexer.stop();
      await app.close();
      await Promise.all([scratch.drop(), fresh.drop()]);
    }
  }, 90_000);
});

describe("an RPC node whose head is below the index", () => {
  it("is waited for, not taken for a reorg: nothing is rolled back, and the index goes on once the node has caught up", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const fresh = await createScratchDatabase(inject("databaseUrl"));
    const config = configFor(t, scratch.url);
    const { lines, log } = recorder();
    const indexer = startIndexer({
      ...indexerOptions(scratch.db, config, proxied()),
      log,
      pollIntervalMs: 50,
    });
    const d = driver(t);
    const count = async (table: string) =>
      (await scratch.db.$client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;
    try {
      const collection = await d.createCollection(artist, "Behind", "BHD");
      await d.mint(artist, collection, 1n);
      await caughtUp(scratch.db);
      const indexed = await indexedBlock(scratch.db);
      const events = await count("chain_events");
      const blocks = await count("chain_blocks");
      // The node answers a head 3 blocks below the cursor and no header above it: the cursor's block is missing.
      proxy.behind(indexed - 3n);
      await waitFor(() => lines.filter((l) => l.message.includes(`has no block ${indexed}`)).length >= 2);
      expect(
        lines.filter((l) => l.message.includes("a node behind the chain?")).every((l) => l.level === "warn"),
      ).toBe(true);
      expect(lines.some((l) => l.message.includes("reorg"))).toBe(false);
      expect(await indexedBlock(scratch.db)).toBe(indexed);
      expect(await count("chain_events")).toBe(events);
      expect(await count("chain_blocks")).toBe(blocks);

      proxy.set("pass");
      await d.mint(artist, collection, 2n);
      await caughtUp(scratch.db);
      expect(lines.some((l) => l.message.includes("reorg"))).toBe(false);
      await indexToHead(indexerOptions(fresh.db, configFor(t, fresh.url), t.publicClient));
      expect(await dumpTables(scratch.db)).toEqual(await dumpTables(fresh.db));
    } finally {
      proxy.set("pass");
      await indexer.stop();
      await Promise.all([scratch.drop(), fresh.drop()]);
    }
  }, 90_000);
});

describe("failures", () => {
  it("are logged as warnings, retried with exponential backoff while the database is away", async () => {
    const away = createDatabase(`postgres://easel:easel@127.0.0.1:${await freePort()}/easel`);
    const { lines, log } = recorder();
    const indexer = startIndexer({
      ...indexerOptions(away, configFor(t, "postgres://unused"), t.publicClient),
      log,
      pollIntervalMs: 100,
    });
    try {
      await sleep(3_500);
    } finally {
      await indexer.stop();
      await away.$client.end();
    }
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.every((l) => l.level === "warn" && l.message.includes("database unavailable"))).toBe(true);
    // 200, 400, 800, 1600 ms apart: a handful of lines, not one every 200 ms.
    expect(lines.length).toBeLessThanOrEqual(6);
    const gaps = lines.slice(1).map((l, i) => l.at - (lines[i] as Line).at);
    for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeGreaterThan((gaps[i - 1] as number) * 1.5);
  });

  it("of the chain's RPC back off too, and the backoff starts over after a success", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const config = configFor(t, scratch.url);
    const { lines, log } = recorder();
    const indexer = startIndexer({
      ...indexerOptions(scratch.db, config, proxied()),
      log,
      pollIntervalMs: 50,
    });
    try {
      await caughtUp(scratch.db);
      const retries = () => lines.filter((l) => l.message.includes("retrying in"));
      proxy.set("fail");
      await sleep(3_000);
      const during = retries();
      expect(during.length).toBeGreaterThan(2);
      // 100, 200, 400, 800, 1600 ms apart: at most about six retries in 3 s, not one every 100 ms.
      expect(during.length).toBeLessThanOrEqual(7);
      expect(during.every((l) => l.level === "warn")).toBe(true);
      proxy.set("pass");
      await driver(t).increaseTime(1);
      await caughtUp(scratch.db);
      // A success resets the backoff: the first retry of the next failure comes after twice the poll interval.
      const seen = retries().length;
      proxy.set("fail");
      await waitFor(() => retries().length > seen);
      expect(retries()[seen]?.message).toMatch(/retrying in 100 ms$/);
    } finally {
      proxy.set("pass");
      await indexer.stop();
      await scratch.drop();
    }
  });
});

describe("the leader's lease", () => {
  it("records progress, not liveness: a leader that cannot read the chain looks stalled, and a standby whose RPC works takes over", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const config = configFor(t, scratch.url);
    const app = await buildApp(
      { config, db: scratch.db, chain: t.publicClient },
      { logger: false, health: { leaderSilenceMs: 2_000, chainReadMs: 0 } },
    );
    const health = async () => (await app.inject({ method: "GET", url: "/api/health" })).json() as Health;
    const commits = { blind: 0, standby: 0 };
    const blind = startIndexer({
      ...indexerOptions(scratch.db, config, proxied()),
      pollIntervalMs: 50,
      leaseMs: 1_500,
      onCommit: () => void commits.blind++,
    });
    let standby: Indexer | null = null;
    try {
      await caughtUp(scratch.db);
      expect((await health()).status).toBe("ok");
      // Its RPC fails: it goes on retrying, and its lease shows when it last made progress.
      proxy.set("fail");
      await sleep(3_000);
      expect(await heartbeatAge(scratch.db)).toBeGreaterThan(2.5);
      const during = await health();
      expect(during.status).toBe("degraded");
      expect(during.indexer?.leaderHeartbeatAge).toBeGreaterThan(2.5);

      // A standby whose RPC works takes over and indexes; the blind one does not take the lease back.
      standby = startIndexer({
        ...indexerOptions(scratch.db, config, t.publicClient),
        pollIntervalMs: 50,
        leaseMs: 1_500,
        onCommit: () => void commits.standby++,
      });
      const blindCommits = commits.blind;
      await driver(t).increaseTime(1);
      await caughtUp(scratch.db);
      expect(commits.standby).toBeGreaterThan(0);
      expect(commits.blind).toBe(blindCommits);
      await waitFor(async () => (await health()).status === "ok", 5_000);

      // Its RPC back, the former leader stands by: only the new leader writes.
      proxy.set("pass");
      await sleep(500);
      const standbyCommits = commits.standby;
      await driver(t).increaseTime(1);
      await caughtUp(scratch.db);
      await sleep(300);
      expect(commits.standby).toBeGreaterThan(standbyCommits);
      expect(commits.blind).toBe(blindCommits);
    } finally {
      proxy.set("pass");
      await Promise.all([blind.stop(), standby?.stop()]);
      await app.close();
      await scratch.drop();
    }
  }, 60_000);

  it("lapses while a chain read hangs: the leader gauge says 0, the lag in seconds grows, and both recover", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const config = configFor(t, scratch.url);
    const leaseMs = 1_500;
    const indexer = startIndexer({
      ...indexerOptions(
        scratch.db,
        config,
        publicClientFor(t, http(proxy.url, { retryCount: 0, timeout: 60_000 })),
      ),
      pollIntervalMs: 50,
      leaseMs,
    });
    try {
      await caughtUp(scratch.db);
      expect(await metric("easel_indexer_leader")).toBe(1);
      expect(await metric("easel_indexer_lag_seconds")).toBe(0);
      proxy.set("hang");
      await sleep(leaseMs + 2_000);
      // The hung leader holds its lock, but it makes no progress: it no longer counts as a leader.
      expect(await metric("easel_indexer_leader")).toBe(0);
      expect(await heartbeatAge(scratch.db)).toBeGreaterThan((leaseMs + 1_500) / 1000);
      proxy.set("pass");
      await driver(t).increaseTime(1);
      await caughtUp(scratch.db);
      await waitFor(async () => (await metric("easel_indexer_leader")) === 1, 5_000);
      // The lease is renewed every second with the time of the last progress.
      await waitFor(async () => (await heartbeatAge(scratch.db)) < 1.2, 3_000);
    } finally {
      proxy.set("pass");
      await indexer.stop();
      await scratch.drop();
    }
  }, 60_000);

  it("a leader that cannot read the chain reports a growing lag in seconds", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const config = configFor(t, scratch.url);
    const indexer = startIndexer({
      ...indexerOptions(
        scratch.db,
        config,
        publicClientFor(t, http(proxy.url, { retryCount: 0, timeout: 60_000 })),
      ),
      pollIntervalMs: 50,
      leaseMs: 10_000,
    });
    try {
      await caughtUp(scratch.db);
      expect(await metric("easel_indexer_lag_seconds")).toBe(0);
      proxy.set("hang");
      await sleep(3_000);
      // Caught up 3 s ago, and not read since: at least 3 s minus the grace of two polls and a second.
      expect(await metric("easel_indexer_lag_seconds")).toBeGreaterThan(1.5);
    } finally {
      proxy.set("pass");
      await indexer.stop();
      await scratch.drop();
    }
  }, 30_000);
});

describe("every API process", () => {
  it("exports the indexer's lag in blocks and its last progress, as its health check computes them", async () => {
    const scratch = await createScratchDatabase(inject("databaseUrl"));
    const config = configFor(t, scratch.url);
    const app = await buildApp(
      { config, db: scratch.db, chain: t.publicClient },
      { logger: false, health: { chainReadMs: 0 } },
    );
    const indexer = startIndexer({
      ...indexerOptions(scratch.db, config, t.publicClient),
      pollIntervalMs: 50,
    });
    try {
      await caughtUp(scratch.db);
      await indexer.stop();
      // The indexer is stopped: the chain moves on without it.
      await t.test.mine({ blocks: 4 });
      await sleep(1_000);
      const health = (await app.inject({ method: "GET", url: "/api/health" })).json() as Health;
      expect(health.indexer?.lag).toBeGreaterThanOrEqual(4);
      expect(await metric("easel_indexer_lag_blocks")).toBe(health.indexer?.lag);
      const lastProgress = (await metric("easel_indexer_last_progress_timestamp_seconds")) as number;
      expect(
        Math.abs(Date.now() / 1000 - lastProgress - (health.indexer?.leaderHeartbeatAge ?? 0)),
      ).toBeLessThan(1);
      expect(Date.now() / 1000 - lastProgress).toBeGreaterThan(0.9);
    } finally {
      await indexer.stop();
      await app.close();
      await scratch.drop();
    }
    // A process that no longer serves the API exports neither.
    expect(await metric("easel_indexer_lag_blocks")).toBeUndefined();
  });
});
