import { eq } from "drizzle-orm";
import { createTestClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validEnv } from "../../test/helpers.ts";
import { createChainClient } from "../chain/client.ts";
import { loadConfig } from "../config.ts";
import { createDatabase } from "../db/client.ts";
import { indexerState } from "../db/schema.ts";
import { startIndexer } from "./indexer.ts";

const config = loadConfig(validEnv({ CHAIN_ID: "31337" }));
const db = createDatabase(config.databaseUrl);
const chain = createChainClient(config.chainId, config.rpcUrls);
const testClient = createTestClient({ mode: "anvil", transport: http(config.rpcUrls[0]) });

beforeAll(async () => {
  await db.delete(indexerState);
});
afterAll(() => db.$client.end());

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
});
