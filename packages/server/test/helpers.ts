import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, inject } from "vitest";
import { buildApp } from "../src/app.ts";
import { createChainClient } from "../src/chain/client.ts";
import { type Config, ConfigError, type Env, loadConfig } from "../src/config.ts";
import { createDatabase } from "../src/db/client.ts";

/** A complete, valid environment for the local chain; tests override single variables. */
export function validEnv(overrides: Env = {}): Env {
  return {
    DATABASE_URL: inject("databaseUrl"),
    RPC_URL: inject("rpcUrl"),
    CHAIN_ID: "31337",
    FACTORY_ADDRESS: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    MARKET_ADDRESS: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512",
    DEFAULT_COLLECTION_ADDRESS: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
    ETH_USD_FEED_ADDRESS: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
    SIGNER_PRIVATE_KEY: "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
    PUBLIC_URL: "http://127.0.0.1:3000",
    LOG_LEVEL: "silent",
    // Keep anything a test writes (media, mail) out of the developer's .data/.
    DATA_DIR: join(tmpdir(), "easel-test-data"),
    ...overrides,
  };
}

/** Production's own secrets: a signer key of nobody's mnemonic and the email links' key. */
export const PRODUCTION_SECRETS = {
  SIGNER_PRIVATE_KEY: "0x5c3b7b8e2f0f5f4b2b1b5f8d6d8e1c3a9e7f6b5a4c3d2e1f0a9b8c7d6e5f4a3b",
  EMAIL_LINK_SECRET: "a-production-secret-of-at-least-32-characters",
};

/** The real API listening on a free port, with its dependencies; `close` stops it. */
export async function startTestApi(overrides: Env = {}, options: { rateLimitScope?: string } = {}) {
  const config: Config = loadConfig(validEnv(overrides));
  const db = createDatabase(config.databaseUrl);
  const chain = createChainClient(config.chainId, config.rpcUrls);
  // Every test API shares one database: each counts its own rate limits unless told to share.
  const rateLimitScope = options.rateLimitScope ?? `${randomUUID()}:`;
  const app = await buildApp({ config, db, chain }, { logger: false, rateLimitScope });
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url,
    config,
    db,
    rateLimitScope,
    async close() {
      await app.close();
      await db.$client.end();
    },
  };
}

/** The one-line message loadConfig gives for `env`; fails the test when the configuration is valid. */
export function configError(env: Env): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a configuration error");
}
