import type { PublicClient } from "viem";
import { buildApp } from "./app.ts";
import { createChainClient } from "./chain/client.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { isDatabaseUnavailable, waitForDatabase } from "./db/availability.ts";
import { createDatabase, type Database, migrateDatabase } from "./db/client.ts";
import { startIndexer } from "./indexer/indexer.ts";
import { logJsonLines, logLine } from "./log.ts";
import { startMetricsServer } from "./metrics.ts";
import { startWorker } from "./worker/worker.ts";

/** A running part of Easel that can be stopped. */
export type Service = { name: string; stop(): Promise<void> };

type Context = { config: Config; db: Database; chain: PublicClient };

/**
 * The longest statement (and chain read) of the background roles: the indexer replays thousands of events in
 * one statement and reads many blocks' logs at once, so the API's few seconds would fail healthy batches, but
 * a frozen or blackholed database still fails them within a minute instead of TCP's 15.
 */
export const BACKGROUND_QUERY_TIMEOUT_MS = 60_000;

/**
 * The database and chain clients of a role. `requests`: the API, whose statements and chain reads are bounded
 * to DATABASE_QUERY_TIMEOUT_SECONDS and RPC_TIMEOUT_SECONDS (a request answers 503 past them); otherwise
 * (indexer, worker, `npm start`'s three roles) the database's bound is at least BACKGROUND_QUERY_TIMEOUT_MS
 * and the chain's viem's own.
 */
export function createContext(config: Config, options: { requests?: boolean } = {}): Context {
  const requests = options.requests ?? false;
  return {
    config,
    db: createDatabase(config.databaseUrl, {
      readConnections: config.databaseReadConnections,
      queryTimeoutMs: requests
        ? config.databaseQueryTimeoutMs
        : Math.max(config.databaseQueryTimeoutMs, BACKGROUND_QUERY_TIMEOUT_MS),
    }),
    chain: createChainClient(
      config.chainId,
      config.rpcUrls,
      requests ? { deadlineMs: config.rpcTimeoutMs } : {},
    ),
  };
}

/** How long a stopping API lets its requests in flight finish before it closes their connections. */
export const DRAIN_MS = 10_000;

/** Waits for the database (a role may start before it, or while it restarts), then migrates it. */
async function prepareDatabase(db: Database): Promise<void> {
  for (;;) {
    await waitForDatabase(db.$client, logLine);
    try {
      return await migrateDatabase(db);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      logLine("the database went away while migrating; waiting for it");
    }
  }
}

/**
 * @param options.drainMs How long a stop lets the requests in flight finish before it cuts their connections
 * (DRAIN_MS; `npm start` gives them less).
 */
export async function startApi(
  context: Context,
  options: { logger?: boolean; drainMs?: number } = {},
): Promise<Service> {
  await prepareDatabase(context.db);
  const app = await buildApp(context, { logger: options.logger });
  await app.listen({ host: context.config.host, port: context.config.port });
  return {
    name: "api",
    // Closing stops accepting connections and lets the requests in flight finish; past DRAIN_MS the
    // connections still open are cut.
    stop: async () => {
      const cut = setTimeout(() => app.server.closeAllConnections(), options.drainMs ?? DRAIN_MS);
      cut.unref();
      await app.close();
      clearTimeout(cut);
    },
  };
}

export async function startIndexerRole(context: Context): Promise<Service> {
  await prepareDatabase(context.db);
  // Locally blocks come every second or on demand: poll often so updates show within a second.
  const indexer = startIndexer({
    ...context,
    log: logLine,
    pollIntervalMs: context.config.localChain ? 100 : 1000,
  });
  return { name: "indexer", stop: () => indexer.stop() };
}

export async function startWorkerRole(context: Context): Promise<Service> {
  await prepareDatabase(context.db);
  const worker = await startWorker({
    config: context.config,
    db: context.db,
    chain: context.chain,
    log: logLine,
  });
  return { name: "worker", stop: () => worker.stop() };
}

/**
 * Runs one production role from environment variables: a configuration problem prints one line
 * and exits with code 1; SIGINT/SIGTERM stop the role cleanly.
 */
export async function runRole(start: (context: Context) => Promise<Service>): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  logJsonLines();
  for (const warning of config.warnings) logLine(`configuration warning: ${warning}`);
  const context = createContext(config, { requests: start === startApi });
  const service = await start(context);
  logLine(`${service.name} started (chain ${config.chainId})`);
  const metrics = config.metrics ? await startMetricsServer(config.metrics.host, config.metrics.port) : null;
  if (metrics) logLine(`metrics at ${metrics.url}`);
  const shutdown = async () => {
    logLine(`${service.name} stopping`);
    await service.stop();
    await metrics?.stop();
    // A connection still checked out (a request cut after DRAIN_MS) would keep the pool from ending: its
    // transaction is rolled back when the process exits.
    await Promise.race([context.db.$client.end(), new Promise((resolve) => setTimeout(resolve, 1_000))]);
    process.exit(0);
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}
