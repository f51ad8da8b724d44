/**
 * The API's answers while a dependency fails in the ways that used to hold requests or answer 500: PostgreSQL
 * frozen on open connections, out of disk or memory; the chain's RPC answering JSON-RPC errors or nothing.
 * Every such answer is a 503 with Retry-After within a few seconds, and the per-replica readiness check says
 * what this replica can do (its database), not what the service shares (the chain). The API runs with the
 * production wiring (roles.ts `createContext` for the API), over real HTTP, PostgreSQL and anvil.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { PgBoss } from "pg-boss";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { type Env, loadConfig } from "../src/config.ts";
import { createContext } from "../src/roles.ts";
import { bossOptions } from "../src/worker/worker.ts";
import { failingRpc, freezableProxy } from "./fault-helpers.ts";
import { validEnv } from "./helpers.ts";

const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** The API as `node dist/bin/api.js` wires it, listening; `extend` may add routes before it starts. */
async function startApi(overrides: Env, extend?: (app: Awaited<ReturnType<typeof buildApp>>) => void) {
  const context = createContext(loadConfig(validEnv(overrides)), { requests: true });
  const app = await buildApp(context, { logger: false, rateLimitScope: `${randomUUID()}:` });
  extend?.(app);
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  closers.push(async () => {
    await app.close();
    await context.db.$client.end();
  });
  return { url, db: context.db };
}

/** A request that reads the database (is the name taken?), then the chain (is the name reserved?). */
async function checkName(url: string) {
  const started = Date.now();
  const response = await fetch(`${url}/api/collection/check_name`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: `Unavailable ${randomUUID().slice(0, 8)}` }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    ms: Date.now() - started,
    body: (await response.json()) as { error?: { code: string } },
  };
}

/** A request that reads the database only (the Dev wallet's accounts: names and roles). */
async function readAccounts(url: string) {
  const started = Date.now();
  const response = await fetch(`${url}/api/dev/accounts`);
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    ms: Date.now() - started,
    body: (await response.json()) as { error?: { code: string } },
  };
}

async function ready(url: string) {
  const started = Date.now();
  const response = await fetch(`${url}/api/ready`);
  return { status: response.status, body: (await response.json()) as object, ms: Date.now() - started };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("PostgreSQL frozen with connections open", () => {
  it("answers 503 with Retry-After within seconds, says this replica is not ready, and recovers", async () => {
    const proxy = await freezableProxy(validEnv().DATABASE_URL as string);
    closers.push(() => proxy.close());
    const api = await startApi({ DATABASE_URL: proxy.url, DATABASE_QUERY_TIMEOUT_SECONDS: "1" });
    // Open connections, as a replica that has served for a while has.
    expect((await readAccounts(api.url)).status).toBe(200);
    expect(await ready(api.url)).toMatchObject({ status: 200, body: { status: "ready" } });

    proxy.freeze();
    await sleep(1_100); // the readiness answer cached before the freeze has expired
    const answers = await Promise.all(Array.from({ length: 4 }, () => readAccounts(api.url)));
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 503,
        retryAfter: "2",
        body: { error: { code: "unavailable" } },
      });
      // 1 s of statement, 1 s of grace (or 1.5 s to give up a new connection), not the 20 s of the freeze.
      expect(answer.ms).toBeLessThan(4_500);
    }
    const notReady = await ready(api.url);
    expect(notReady).toMatchObject({ status: 503, body: { status: "not_ready", reason: "database" } });
    expect(notReady.ms).toBeLessThan(2_500);

    proxy.thaw();
    const deadline = Date.now() + 10_000;
    while ((await ready(api.url)).status !== 200 && Date.now() < deadline) await sleep(200);
    expect((await ready(api.url)).status).toBe(200);
    expect((await readAccounts(api.url)).status).toBe(200);
  }, 60_000);
});

describe("the worker's job queue", () => {
  it("has a statement limit and TCP keepalive on its own pool, as Easel's pools have", async () => {
    const boss = new PgBoss(bossOptions(validEnv().DATABASE_URL as string));
    boss.on("error", () => {});
    await boss.start();
    try {
      const { rows } = await boss.getDb().executeSql("SHOW statement_timeout");
      expect(rows[0]?.statement_timeout).toBe("1min");
      const pool = (boss.getDb() as unknown as { pool: { options: Record<string, unknown> } }).pool;
      expect(pool.options).toMatchObject({ keepAlive: true, query_timeout: 61_000 });
    } finally {
      await boss.stop({ graceful: false });
    }
  }, 30_000);
});

describe("PostgreSQL out of disk or memory", () => {
  it("answers 503 with Retry-After, not 500", async () => {
    const api = await startApi({}, (app) => {
      // A statement the server refuses as a full disk (SQLSTATE 53100) or no memory (53200) would.
      app.get("/api/test/out-of-room/:code", async (request) => {
        const { code } = request.params as { code: string };
        if (!/^53[12]00$/.test(code)) throw new Error("not a test code");
        await app.deps.db.execute(
          sql.raw(`DO $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = '${code}'; END $$`),
        );
        return {};
      });
    });
    for (const code of ["53100", "53200"]) {
      const response = await fetch(`${api.url}/api/test/out-of-room/${code}`);
      expect(response.status, code).toBe(503);
      expect(response.headers.get("retry-after")).toBe("2");
    }
  });
});

describe("the chain's RPC failing", () => {
  for (const [what, answer] of [
    ["an internal error (-32603)", { code: -32603, message: "Internal error" }],
    ["a rate limit (-32005)", { code: -32005, message: "rate limit exceeded" }],
    ["a rate limit (HTTP 429)", 429],
  ] as const) {
    it(`answers ${what} with 503 and Retry-After; the replica stays ready while health says degraded`, async () => {
      const rpc = await failingRpc(answer);
      closers.push(() => rpc.close());
      const api = await startApi({ RPC_URL: rpc.url });
      const answered = await checkName(api.url);
      expect(answered).toMatchObject({
        status: 503,
        retryAfter: "2",
        body: { error: { code: "unavailable" } },
      });
      // The chain is the whole service's: this replica still serves what it reads from its database.
      expect(await ready(api.url)).toMatchObject({ status: 200, body: { status: "ready" } });
      const health = await fetch(`${api.url}/api/health`);
      expect(health.status).toBe(503);
    }, 30_000);
  }

  it("gives up an RPC that never answers after RPC_TIMEOUT_SECONDS, with 503", async () => {
    const rpc = await failingRpc("hang");
    closers.push(() => rpc.close());
    const api = await startApi({ RPC_URL: rpc.url, RPC_TIMEOUT_SECONDS: "1" });
    const answered = await checkName(api.url);
    expect(answered).toMatchObject({ status: 503, retryAfter: "2" });
    expect(answered.ms).toBeGreaterThanOrEqual(950);
    expect(answered.ms).toBeLessThan(3_000);
  }, 30_000);
});
