import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Health } from "@easel/common";
import { eq, sql } from "drizzle-orm";
import { createTestClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validEnv } from "../../test/helpers.ts";
import { buildApp } from "../app.ts";
import { createChainClient } from "../chain/client.ts";
import { loadConfig } from "../config.ts";
import { createDatabase } from "../db/client.ts";
import { indexerState } from "../db/schema.ts";
import { startIndexer } from "./indexer.ts";

const env = validEnv({ CHAIN_ID: "31337" });
const config = loadConfig(env);
const db = createDatabase(config.databaseUrl);
const chain = createChainClient(config.chainId, config.rpcUrls);
const testClient = createTestClient({ mode: "anvil", transport: http(config.rpcUrls[0]) });

beforeAll(async () => {
  await db.delete(indexerState);
});
afterAll(async () => {
  // The suites share one database: a cursor and a leader left here would read as a dead indexer to them.
  await db.execute(sql`DELETE FROM indexer_state; DELETE FROM indexer_leader`);
  await db.$client.end();
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("condition not met in time");
}

describe("indexer", () => {
  it("follows the head, and only the leader of two instances indexes", async () => {
    await testClient.mine({ blocks: 5 });
    const batches = { first: 0, second: 0 };
    const first = startIndexer({
      db,
      chain,
      config,
      log: () => {},
      pollIntervalMs: 100,
      applyLogs: async () => void batches.first++,
    });
    const second = startIndexer({
      db,
      chain,
      config,
      log: () => {},
      pollIntervalMs: 100,
      applyLogs: async () => void batches.second++,
    });
    try {
      const head = await chain.getBlockNumber({ cacheTime: 0 });
      await waitFor(async () => {
        const [state] = await db.select().from(indexerState).where(eq(indexerState.chainId, config.chainId));
        return !!state && state.indexedBlock >= head;
      });
      await testClient.mine({ blocks: 3 });
      await waitFor(async () => {
        const [state] = await db.select().from(indexerState).where(eq(indexerState.chainId, config.chainId));
        return !!state && state.indexedBlock >= head + 3n && state.headBlock >= head + 3n;
      });
      // Exactly one instance holds the leader lock and writes.
      expect(Math.min(batches.first, batches.second)).toBe(0);
      expect(Math.max(batches.first, batches.second)).toBeGreaterThan(0);

      // When the leader stops, the other takes over.
      const leaderIsFirst = batches.first > 0;
      await (leaderIsFirst ? first : second).stop();
      const before = leaderIsFirst ? batches.second : batches.first;
      await testClient.mine({ blocks: 2 });
      await waitFor(async () => (leaderIsFirst ? batches.second : batches.first) > before, 20_000);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it("takes over from a frozen leader within the lease, and health says indexing is stale meanwhile", async () => {
    const app = await buildApp({ config, db, chain }, { logger: false, rateLimitScope: `${Date.now()}:` });
    const health = async () => (await app.inject({ method: "GET", url: "/api/health" })).json() as Health;
    const leader = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(new URL("./testing-child.ts", import.meta.url))],
      { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] },
    );
    let commits = 0;
    leader.stdout?.on("data", (chunk: Buffer) => {
      commits += chunk.toString().split("commit").length - 1;
    });
    const lines: string[] = [];
    let standbyBatches = 0;
    let standby: ReturnType<typeof startIndexer> | null = null;
    try {
      await testClient.mine({ blocks: 2 });
      await waitFor(async () => commits > 0);
      standby = startIndexer({
        db,
        chain,
        config,
        log: (line) => void lines.push(line),
        pollIntervalMs: 100,
        leaseMs: 3_000,
        applyLogs: async () => void standbyBatches++,
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(standbyBatches).toBe(0);

      // The leader freezes (SIGSTOP): it keeps its connection and the lock, and stops working.
      leader.kill("SIGSTOP");
      const frozenAt = Date.now();
      await testClient.mine({ blocks: 5 });
      // Health compares the chain's head with the indexed block: behind, and (once the cursor has not
      // moved for a while) stale.
      await db.execute(sql`UPDATE indexer_state SET updated_at = now() - interval '1 minute'`);
      const during = await health();
      expect(during.indexer?.lag).toBeGreaterThanOrEqual(5);
      expect(during.indexer?.stale).toBe(true);
      expect(during.status).toBe("degraded");

      const head = await chain.getBlockNumber({ cacheTime: 0 });
      await waitFor(async () => {
        const [state] = await db.select().from(indexerState).where(eq(indexerState.chainId, config.chainId));
        return !!state && state.indexedBlock >= head;
      }, 20_000);
      expect(standbyBatches).toBeGreaterThan(0);
      expect(Date.now() - frozenAt).toBeGreaterThanOrEqual(3_000);
      expect(lines.some((l) => l.includes("has made no progress") && l.includes("taking over"))).toBe(true);
      const after = await health();
      expect(after.indexer).toMatchObject({ lag: 0, stale: false });
      expect(after.status).toBe("ok");

      // The old leader wakes up to a closed session: it stands by, and only the new leader writes.
      leader.kill("SIGCONT");
      const committed = commits;
      await testClient.mine({ blocks: 2 });
      const before = standbyBatches;
      await waitFor(async () => standbyBatches > before);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(commits).toBe(committed);
      expect(leader.exitCode).toBeNull();
    } finally {
      leader.kill("SIGKILL");
      await standby?.stop();
      await app.close();
    }
  }, 60_000);
});
