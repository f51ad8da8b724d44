/**
 * SIGTERM to the production roles at the worst moment: the API in the middle of a request and of a live
 * stream, the indexer in the middle of a batch. A lock held by the test keeps the request (or the batch)
 * in flight for as long as the test wants.
 */

import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../src/embedded/process.ts";
import {
  configFor,
  createScratchDatabase,
  dumpTables,
  indexerOptions,
  indexToHead,
  publicClientFor,
  runFullFlow,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { MAIL_JOBS } from "../src/mail/jobs.ts";
import { openStream, type RoleProcess, refused, signIn, sleep, startRole, until } from "./roles-helpers.ts";

let chain: TestChain;
const scratches: Awaited<ReturnType<typeof createScratchDatabase>>[] = [];
const roles: RoleProcess[] = [];

beforeAll(async () => {
  chain = await startTestChain();
}, 120_000);

afterAll(async () => {
  for (const role of roles) if (role.alive()) role.child.kill("SIGKILL");
  for (const scratch of scratches) await scratch.drop();
  await chain?.stop();
});

async function scratch() {
  const created = await createScratchDatabase(inject("databaseUrl"), "stop");
  scratches.push(created);
  return created;
}

/** A session of its own on `url` (the test's side of a lock). */
async function session(url: string) {
  const client = new pg.Client({ connectionString: url });
  // Ended from outside when the scratch database is dropped.
  client.on("error", () => {});
  await client.connect();
  return client;
}

async function startApi(databaseUrl: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const api = startRole("api", {
    ...env,
    ...chain.env(databaseUrl),
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: join(tmpdir(), "easel-test-data"),
  });
  roles.push(api);
  const url = `http://127.0.0.1:${port}`;
  await until(async () => (await fetch(`${url}/api/health`).catch(() => null))?.status === 200, "the API");
  return { api, url, port };
}

/** A signed-in follow whose transaction waits on an advisory lock the test holds until `release()`. */
async function heldFollow(url: string, databaseUrl: string) {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const cookie = await signIn(url, wallet);
  const target = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
  const locker = await session(databaseUrl);
  const key = `follow:${wallet.address.toLowerCase()}:${target}`;
  await locker.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]);
  const response = fetch(`${url}/api/profile/follow`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify({ userAddress: target }),
  });
  response.catch(() => {});
  await until(async () => {
    const { rowCount } = await locker.query(
      "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'",
    );
    return (rowCount ?? 0) > 0;
  }, "the request to wait on the lock");
  return {
    response,
    follower: wallet.address.toLowerCase(),
    target,
    async release() {
      await locker.end();
    },
  };
}

async function follows(databaseUrl: string, follower: string, target: string): Promise<number> {
  const client = await session(databaseUrl);
  try {
    const { rowCount } = await client.query("SELECT 1 FROM follows WHERE follower = $1 AND followee = $2", [
      follower,
      target,
    ]);
    return rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe("SIGTERM to the API", () => {
  it("ends live streams with a retry hint, refuses new connections and finishes the request in flight", async () => {
    const db = await scratch();
    const { api, url, port } = await startApi(db.url);
    const stream = await openStream(`${url}/api/events`);
    await until(() => stream.text().includes("event: ready"), "the live stream");
    const held = await heldFollow(url, db.url);
    expect((await fetch(`${url}/api/ready`)).status).toBe(200);

    api.child.kill("SIGTERM");
    await until(() => stream.ended(), "the stream to end", 5_000);
    expect(stream.text()).toMatch(/retry: \d+\n/);
    expect(stream.text().slice(stream.text().lastIndexOf("retry:"))).toContain("event: closing");
    await until(() => refused(port), "new connections to be refused", 5_000);
    // The request is still in flight, and the process waits for it.
    await sleep(500);
    expect(api.alive()).toBe(true);

    await held.release();
    const response = await held.response;
    const answeredAt = Date.now();
    expect(response.status).toBe(200);
    // The answer closes its connection: the stop does not wait for a keep-alive timeout on it.
    expect(response.headers.get("connection")).toBe("close");
    expect(((await response.json()) as { data: { following: boolean } }).data.following).toBe(true);
    expect(await api.exited).toBe(0);
    expect(Date.now() - answeredAt).toBeLessThan(2_500);
    expect(await follows(db.url, held.follower, held.target)).toBe(1);
  }, 60_000);

  it("cuts a request still running after 10 s, which rolls it back, and exits", async () => {
    const db = await scratch();
    // A statement may wait this long (the default, 5 s, would answer the request 503 first).
    const { api, url } = await startApi(db.url, { DATABASE_QUERY_TIMEOUT_SECONDS: "30" });
    const held = await heldFollow(url, db.url);
    const signalled = Date.now();
    api.child.kill("SIGTERM");
    expect(await api.exited).toBe(0);
    const waited = Date.now() - signalled;
    expect(waited).toBeGreaterThanOrEqual(10_000);
    await expect(held.response).rejects.toThrow();
    await held.release();
    expect(await follows(db.url, held.follower, held.target)).toBe(0);
  }, 60_000);
});

describe("SIGTERM to the indexer", () => {
  let reference: Record<string, unknown[]>;
  let head: bigint;

  beforeAll(async () => {
    await runFullFlow(chain);
    // Not viem's cached block number: the flow's last blocks were mined within its cache time.
    head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
    const db = await scratch();
    const options = indexerOptions(db.db, configFor(chain, db.url), publicClientFor(chain));
    await indexToHead(options);
    reference = await dumpTables(db.db);
  }, 120_000);

  /** Starts the indexer role while the test holds indexer_state against writes: its batch waits on it. */
  async function heldBatch(databaseUrl: string) {
    const locker = await session(databaseUrl);
    await locker.query("BEGIN");
    // Reads of the cursor go through; the batch's write of it (its last statement before COMMIT) waits.
    await locker.query("LOCK TABLE indexer_state IN EXCLUSIVE MODE");
    const indexer = startRole("indexer", chain.env(databaseUrl));
    roles.push(indexer);
    // Watched from another session: inside a transaction, pg_stat_activity stays as it was first read.
    const observer = await session(databaseUrl);
    await until(async () => {
      const { rowCount } = await observer.query(
        "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%indexer_state%'",
      );
      if (!indexer.alive()) throw new Error(`the indexer exited:\n${indexer.output()}`);
      return (rowCount ?? 0) > 0;
    }, "the batch to wait on indexer_state");
    await observer.end();
    // Its events are written inside the batch, not visible outside it.
    const { rows } = await locker.query<{ n: number }>("SELECT count(*)::int AS n FROM chain_events");
    expect(rows[0]?.n).toBe(0);
    return { indexer, locker };
  }

  it("commits the batch in flight, then exits; the tables equal a full index", async () => {
    const db = await scratch();
    const { indexer, locker } = await heldBatch(db.url);
    indexer.child.kill("SIGTERM");
    await sleep(1_000);
    expect(indexer.alive(), "the indexer waits for its batch").toBe(true);
    await locker.query("COMMIT");
    await locker.end();
    expect(await indexer.exited).toBe(0);
    const dump = await dumpTables(db.db);
    expect((dump.indexer_state as { indexed_block: string }[])[0]?.indexed_block).toBe(head.toString());
    expect(dump).toEqual(reference);
  }, 60_000);

  it("rolls back a batch that cannot finish in 10 s, exits, and a restart converges to the same tables", async () => {
    const db = await scratch();
    const { indexer, locker } = await heldBatch(db.url);
    indexer.child.kill("SIGTERM");
    expect(await indexer.exited).toBe(0);
    await locker.query("COMMIT");
    // Nothing of the batch is left: no event, no projection row, no cursor.
    const { rows } = await locker.query<{ events: number; tokens: number; state: number }>(
      `SELECT (SELECT count(*)::int FROM chain_events) AS events, (SELECT count(*)::int FROM chain_tokens) AS tokens,
              (SELECT count(*)::int FROM indexer_state) AS state`,
    );
    await locker.end();
    expect(rows[0]).toEqual({ events: 0, tokens: 0, state: 0 });

    const again = startRole("indexer", chain.env(db.url));
    roles.push(again);
    await until(async () => {
      const { rows: state } = await db.db.$client.query<{ indexed_block: string }>(
        "SELECT indexed_block FROM indexer_state",
      );
      return state[0]?.indexed_block === head.toString();
    }, "the restarted indexer to reach the head");
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
    expect(await dumpTables(db.db)).toEqual(reference);
  }, 60_000);
});

describe("SIGTERM to the worker", () => {
  it("hands back a job it has not finished", async () => {
    const db = await scratch();
    // An SMTP server that takes connections and never answers: a delivery pass hangs in it.
    const sockets: Socket[] = [];
    const smtp = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const smtpPort = (smtp.address() as { port: number }).port;
    await db.db.$client.query(
      `INSERT INTO mail_outbox ("to", subject, text) VALUES ('someone@easel.test', 'Hello', 'Hello')`,
    );
    const worker = startRole("worker", {
      ...chain.env(db.url),
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      DATA_DIR: join(tmpdir(), "easel-test-data"),
    });
    roles.push(worker);
    const boss = new PgBoss({ connectionString: db.url, max: 1, supervise: false, schedule: false });
    boss.on("error", () => {});
    try {
      await until(() => worker.output().includes("worker started"), "the worker");
      await boss.start();
      await boss.send(MAIL_JOBS.deliverMail, {});
      await until(() => sockets.length > 0, "a delivery pass to reach the SMTP server", 30_000);
      const { rows: active } = await db.db.$client.query<{ id: string }>(
        "SELECT id FROM pgboss.job WHERE name = $1 AND state = 'active'",
        [MAIL_JOBS.deliverMail],
      );
      expect(active.length).toBe(1);

      worker.child.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
      // The job is back in its queue for another try, not lost as active or failed for good.
      const { rows } = await db.db.$client.query<{ state: string }>(
        "SELECT state FROM pgboss.job WHERE id = $1",
        [active[0]?.id],
      );
      expect(rows[0]?.state).toBe("retry");
    } finally {
      await boss.stop({ graceful: false });
      for (const socket of sockets) socket.destroy();
      smtp.close();
    }
  }, 60_000);
});
