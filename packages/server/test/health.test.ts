/**
 * `/api/health` is outside every rate limit, so a flood of it must not reach the paid RPC: each API process
 * reads the chain at most once per interval. And it tells a dead indexer from a quiet chain by the leader's
 * heartbeat. Real HTTP, PostgreSQL and anvil; the RPC calls are counted by a proxy in front of anvil.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Health } from "@easel/common";
import { sql } from "drizzle-orm";
import { createTestClient, http } from "viem";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { createChainClient } from "../src/chain/client.ts";
import { loadConfig } from "../src/config.ts";
import { createDatabase } from "../src/db/client.ts";
import { startIndexer } from "../src/indexer/indexer.ts";
import type { HealthOptions } from "../src/routes/system.ts";
import { validEnv } from "./helpers.ts";

const rpcUrl = validEnv().RPC_URL as string;
const db = createDatabase(validEnv().DATABASE_URL as string);
const testClient = createTestClient({ mode: "anvil", transport: http(rpcUrl) });

/** A JSON-RPC proxy in front of anvil that counts the calls by method (or refuses them all when `down`). */
async function countingRpc() {
  const calls: string[] = [];
  let down = false;
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const parsed = JSON.parse(body) as { method: string } | { method: string }[];
    for (const call of Array.isArray(parsed) ? parsed : [parsed]) calls.push(call.method);
    if (down) {
      response.writeHead(502).end("bad gateway");
      return;
    }
    const answer = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    response.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    setDown: (value: boolean) => {
      down = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await db.execute(sql`DELETE FROM indexer_state; DELETE FROM indexer_leader`);
  await db.$client.end();
});
beforeEach(async () => {
  // The suites share one database: a cursor or a leader another left behind is not this test's.
  await db.execute(sql`DELETE FROM indexer_state; DELETE FROM indexer_leader`);
});

/** An API (listening) whose chain client goes through `rpc`, with health thresholds of the test's choosing. */
async function startApi(rpc: string, health: HealthOptions = {}) {
  const config = loadConfig(validEnv({ RPC_URL: rpc }));
  const chain = createChainClient(config.chainId, config.rpcUrls);
  // Fresh answers unless a test asks for the cache: most change the database between two checks.
  const app = await buildApp(
    { config, db, chain },
    { logger: false, rateLimitScope: `${randomUUID()}:`, health: { healthCacheMs: 0, ...health } },
  );
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  closers.push(() => app.close());
  const check = async () => {
    const response = await fetch(`${url}/api/health`);
    return { status: response.status, body: (await response.json()) as Health };
  };
  return { config, chain, check };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a flood of health checks", () => {
  it("costs one read of the chain per interval, however many checks arrive", async () => {
    const rpc = await countingRpc();
    closers.push(rpc.close);
    const api = await startApi(rpc.url, { chainReadMs: 60_000 });
    rpc.calls.length = 0;
    // 500 checks, 50 at a time: more than a client could ever need, all outside the rate limits.
    const statuses = new Set<number>();
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => api.check()));
      for (const answer of answers) {
        statuses.add(answer.status);
        expect(answer.body.chain).toMatchObject({ ok: true, chainId: 31337 });
      }
    }
    expect([...statuses]).toEqual([200]);
    // One read: the chain's id and its head, and the platform signer's balance (read at most every 30 s).
    expect(rpc.calls.sort()).toEqual(["eth_blockNumber", "eth_chainId", "eth_getBalance"]);
  });

  it("reads the chain again once the last read is older than the interval, and shows the new head", async () => {
    const rpc = await countingRpc();
    closers.push(rpc.close);
    const api = await startApi(rpc.url, { chainReadMs: 300 });
    const first = await api.check();
    await testClient.mine({ blocks: 2 });
    // Within the interval the answer is the cached one.
    expect((await api.check()).body.chain.headBlock).toBe(first.body.chain.headBlock);
    await sleep(350);
    rpc.calls.length = 0;
    const later = await Promise.all(Array.from({ length: 20 }, () => api.check()));
    for (const answer of later) {
      expect(BigInt(answer.body.chain.headBlock ?? 0)).toBe(BigInt(first.body.chain.headBlock ?? 0) + 2n);
    }
    expect(rpc.calls.filter((method) => method === "eth_blockNumber")).toHaveLength(1);
  });

  it("does not hammer a dead RPC either: it is asked once per interval, and health says degraded", async () => {
    const rpc = await countingRpc();
    closers.push(rpc.close);
    rpc.setDown(true);
    const down = await startApi(rpc.url, { chainReadMs: 60_000 });
    const answers = await Promise.all(Array.from({ length: 100 }, () => down.check()));
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.body.status).toBe("degraded");
      expect(answer.body.chain.ok).toBe(false);
    }
    // viem retries a failing request a few times; what matters is that the 100 checks shared one read.
    const reads = rpc.calls.filter((method) => method === "eth_blockNumber").length;
    expect(reads).toBeGreaterThanOrEqual(1);
    expect(reads).toBeLessThanOrEqual(4);
  });

  it("shows the newer of its own read and the head the indexer recorded", async () => {
    const rpc = await countingRpc();
    closers.push(rpc.close);
    const api = await startApi(rpc.url, { chainReadMs: 60_000 });
    const before = await api.check();
    const head = BigInt(before.body.chain.headBlock ?? 0);
    // The indexer has read a newer head than this process's cached read.
    await db.execute(sql`INSERT INTO indexer_leader (id, backend_pid, heartbeat_at) VALUES (1, 0, now())`);
    await db.execute(
      sql`INSERT INTO indexer_state (chain_id, head_block, indexed_block) VALUES (31337, ${String(head + 4n)}, ${String(head + 4n)})`,
    );
    const after = await api.check();
    expect(after.body.chain.headBlock).toBe(String(head + 4n));
    expect(after.body.indexer).toMatchObject({ headBlock: String(head + 4n), lag: 0 });
  });
});

describe("a flood of anonymous health checks", () => {
  it("shares one computation (its two database reads) among every check of the same second", async () => {
    const { url, reads, close } = await countedApi();
    try {
      // Warm: the first computation, and the route's serializer.
      await fetch(`${url}/api/health`);
      reads.count = 0;
      const started = Date.now();
      let checks = 0;
      // 50 at a time for 1.5 s: today's 2 reads each would be hundreds.
      while (Date.now() - started < 1_500) {
        const answers = await Promise.all(Array.from({ length: 50 }, () => fetch(`${url}/api/health`)));
        for (const answer of answers) expect(answer.status).toBe(200);
        checks += answers.length;
      }
      expect(checks).toBeGreaterThanOrEqual(100);
      // At most one computation a second: two or three in 1.5 s, each two reads.
      expect(reads.count).toBeGreaterThanOrEqual(2);
      expect(reads.count).toBeLessThanOrEqual(6);
      // Still fresh within the second: a check a second later reads again.
      reads.count = 0;
      await sleep(1_100);
      await fetch(`${url}/api/health`);
      expect(reads.count).toBe(2);
    } finally {
      await close();
    }
  }, 30_000);
});

/**
 * An API with the default health cache whose database reads (the pool's statements) are counted, over a database
 * of its own so other tests' reads do not count.
 */
async function countedApi() {
  const config = loadConfig(validEnv());
  const counted = createDatabase(config.databaseUrl);
  const reads = { count: 0 };
  const query = counted.$client.query.bind(counted.$client) as (...args: unknown[]) => unknown;
  counted.$client.query = ((...args: unknown[]) => {
    reads.count++;
    return query(...args);
  }) as typeof counted.$client.query;
  const chain = createChainClient(config.chainId, config.rpcUrls);
  const app = await buildApp(
    { config, db: counted, chain },
    { logger: false, rateLimitScope: `${randomUUID()}:` },
  );
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url,
    reads,
    close: async () => {
      await app.close();
      await counted.$client.end();
    },
  };
}

describe("the indexer's heartbeat", () => {
  it("keeps health ok on a quiet chain, and turns it degraded once the indexer stops", async () => {
    const api = await startApi(rpcUrl, { leaderSilenceMs: 2_500, chainReadMs: 200 });
    const head = await api.chain.getBlockNumber({ cacheTime: 0 });
    const indexer = startIndexer({
      db,
      chain: api.chain,
      config: { ...api.config, deployBlock: head },
      log: () => {},
      pollIntervalMs: 100,
    });
    let stopped = false;
    try {
      let ready: Awaited<ReturnType<typeof api.check>> | null = null;
      for (let i = 0; i < 100 && !ready?.body.indexer; i++) {
        ready = await api.check();
        if (!ready.body.indexer) await sleep(100);
      }
      expect(ready?.status).toBe(200);
      expect(ready?.body.indexer?.leaderHeartbeatAge).toBeLessThan(2);

      // No block for longer than the threshold: the leader keeps making progress, so health stays ok.
      await sleep(4_000);
      const quiet = await api.check();
      expect(quiet.status).toBe(200);
      expect(quiet.body.status).toBe("ok");
      expect(quiet.body.indexer?.leaderHeartbeatAge).toBeLessThan(2.5);
      expect(quiet.body.indexer?.stale).toBe(false);

      // The indexer stops: the cursor is where it was (the chain is quiet too), but the heartbeat ages.
      await indexer.stop();
      stopped = true;
      const stoppedAt = Date.now();
      const soon = await api.check();
      expect(soon.status).toBe(200);
      let degraded: Awaited<ReturnType<typeof api.check>> | null = null;
      while (Date.now() - stoppedAt < 10_000) {
        const answer = await api.check();
        if (answer.body.status === "degraded") {
          degraded = answer;
          break;
        }
        await sleep(100);
      }
      expect(degraded?.status).toBe(503);
      // Not before the threshold (less the heartbeat's interval of up to 1 s before the stop).
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(1_400);
      expect(degraded?.body.indexer?.leaderHeartbeatAge).toBeGreaterThanOrEqual(2.5);
      expect(degraded?.body.indexer?.stale).toBe(false);
      expect(degraded?.body.database.ok).toBe(true);
      expect(degraded?.body.chain.ok).toBe(true);
    } finally {
      if (!stopped) await indexer.stop();
    }
  }, 30_000);

  it("says degraded with the default threshold when the leader's last heartbeat is 31 s old", async () => {
    const api = await startApi(rpcUrl);
    const head = String(await api.chain.getBlockNumber({ cacheTime: 0 }));
    await db.execute(
      sql`INSERT INTO indexer_leader (id, backend_pid, heartbeat_at) VALUES (1, 0, now() - interval '31 seconds')`,
    );
    await db.execute(
      sql`INSERT INTO indexer_state (chain_id, head_block, indexed_block) VALUES (31337, ${head}, ${head})`,
    );
    const old = await api.check();
    expect(old.status).toBe(503);
    expect(old.body.status).toBe("degraded");
    expect(old.body.indexer?.leaderHeartbeatAge).toBeGreaterThanOrEqual(31);

    await db.execute(sql`UPDATE indexer_leader SET heartbeat_at = now() - interval '29 seconds'`);
    const recent = await api.check();
    expect(recent.body.status).toBe("ok");
    expect(recent.body.indexer?.leaderHeartbeatAge).toBeLessThan(30);

    // A cursor with no leader at all: nothing is indexing.
    await db.execute(sql`DELETE FROM indexer_leader`);
    const none = await api.check();
    expect(none.body.status).toBe("degraded");
    expect(none.body.indexer?.leaderHeartbeatAge).toBeNull();
  });

  it("says nothing of an indexer that never ran (no cursor): the API alone is ok", async () => {
    const api = await startApi(rpcUrl);
    const alone = await api.check();
    expect(alone.status).toBe(200);
    expect(alone.body.indexer).toBeNull();
  });
});
