/**
 * The indexer in a child process, for the kill-and-restart and frozen-leader tests: indexes from the environment's
 * configuration in small batches and prints one line per committed batch, until it is killed.
 */
import { createChainClient } from "../chain/client.ts";
import { loadConfig } from "../config.ts";
import { createDatabase } from "../db/client.ts";
import { startIndexer } from "./indexer.ts";

const config = loadConfig(process.env);
startIndexer({
  db: createDatabase(config.databaseUrl),
  chain: createChainClient(config.chainId, config.rpcUrls),
  config,
  log: () => {},
  pollIntervalMs: 50,
  blockRange: BigInt(process.env.INDEXER_TEST_BLOCK_RANGE ?? "2000"),
  onCommit: ({ to }) => process.stdout.write(`commit ${to}\n`),
  ...(process.env.INDEXER_TEST_LEASE_MS ? { leaseMs: Number(process.env.INDEXER_TEST_LEASE_MS) } : {}),
});
