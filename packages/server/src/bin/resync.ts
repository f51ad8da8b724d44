#!/usr/bin/env node
/**
 * Empties the chain tables so the indexer reads the chain again from DEPLOY_BLOCK: what to do when the
 * indexer stops after a reorg deeper than the block hashes it keeps. Stop every indexer first.
 */
import { ConfigError, loadConfig } from "../config.ts";
import { createDatabase, migrateDatabase } from "../db/client.ts";
import { resetChainData } from "../indexer/reorg.ts";

try {
  const config = loadConfig(process.env);
  const db = createDatabase(config.databaseUrl);
  await migrateDatabase(db);
  await resetChainData(db.$client);
  await db.$client.end();
  console.log("[easel] chain tables emptied; the next indexer start reads the chain from DEPLOY_BLOCK.");
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
