#!/usr/bin/env node
/**
 * `npm start`: the whole of Easel on this machine with no external services — a local chain
 * (anvil), PostgreSQL, the API serving the web app, the indexer and the worker — with all data
 * under .data/. `npm start -- --reset` deletes .data/ first. The first start fills the marketplace with demo
 * artists, collectors, artworks and trades (src/demo/seed.ts) unless `--no-demo` is given.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { CHAIN_IDS } from "@easel/common";
import {
  type EaselDeployment,
  easelCollectionArtifact,
  easelFactoryArtifact,
  easelMarketAdminArtifact,
  easelMarketArtifact,
  easelRoyaltySplitterArtifact,
} from "@easel/contracts";
import { deployEasel } from "@easel/contracts/deploy";
import { createPublicClient, createWalletClient, http, toHex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { localChain } from "../chain/client.ts";
import { type Config, ConfigError, loadConfig } from "../config.ts";
import { DEMO_HISTORY_DAYS, seedDemo } from "../demo/seed.ts";
import { ANVIL_MNEMONIC, startAnvil } from "../embedded/anvil.ts";
import { guardChildren, stopLeftovers } from "../embedded/leftovers.ts";
import { startPostgres } from "../embedded/postgres.ts";
import { isAlive, portIsFree } from "../embedded/process.ts";
import { ensureWebBuild } from "../embedded/web-build.ts";
import { repoRoot } from "../paths.ts";
import { createContext, type Service, startApi, startIndexerRole, startWorkerRole } from "../roles.ts";

const dataDir = resolve(process.env.EASEL_DATA_DIR ?? join(repoRoot, ".data"));
const ports = {
  api: Number(process.env.PORT ?? 3000),
  chain: Number(process.env.EASEL_CHAIN_PORT ?? 8545),
  db: Number(process.env.EASEL_DB_PORT ?? 5433),
};
const say = (message: string) => console.log(`[easel] ${message}`);
const fail = (message: string): never => {
  console.error(`[easel] ${message}`);
  process.exit(1);
};

async function confirmReset(): Promise<void> {
  if (!existsSync(dataDir)) {
    say(`--reset: ${dataDir} does not exist; nothing to delete.`);
    return;
  }
  const entries = readdirSync(dataDir);
  say(`--reset deletes ${dataDir} and everything in it:`);
  for (const entry of entries) say(`  ${entry}`);
  say("  (the local chain with every token and listing, the database, uploaded media and stored mail)");
  if (process.stdin.isTTY && !process.argv.includes("--yes")) {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await rl.question("[easel] Type 'yes' to delete it: ");
    rl.close();
    if (answer.trim().toLowerCase() !== "yes") fail("Nothing was deleted.");
  }
  rmSync(dataDir, { recursive: true, force: true });
  say(`deleted ${dataDir}`);
}

function checkNotRunning(pidFile: string): void {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8"));
  if (pid && pid !== process.pid && isAlive(pid)) {
    fail(
      `Easel is already running (process ${pid}) with data in ${dataDir}. Stop it first (Ctrl-C in its terminal, or kill ${pid}).`,
    );
  }
}

async function checkPorts(): Promise<void> {
  const names = { api: "PORT", chain: "EASEL_CHAIN_PORT", db: "EASEL_DB_PORT" } as const;
  for (const [role, port] of Object.entries(ports) as [keyof typeof ports, number][]) {
    if (!(await portIsFree(port))) {
      fail(
        `Port ${port} (${role}) is in use by another program. Stop it, or choose another port: ${names[role]}=${port + 1} npm start`,
      );
    }
  }
}

const deployer = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 });
// The platform signer of vouchers: anvil's account 9, a public test key used only on the local chain.
const signerKey = toHex(
  mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 9 }).getHdKey().privateKey as Uint8Array,
);

/** Identifies the contracts this checkout would deploy, to notice when the local chain runs older ones. */
function contractsBytecodeHash(): string {
  const hash = createHash("sha256");
  for (const artifact of [
    easelMarketArtifact,
    easelMarketAdminArtifact,
    easelFactoryArtifact,
    easelCollectionArtifact,
    easelRoyaltySplitterArtifact,
  ])
    hash.update(artifact.bytecode);
  return hash.digest("hex");
}

/** Deploys Easel's contracts on the local chain the first time, and whenever the chain lost them. */
async function ensureDeployment(rpcUrl: string): Promise<EaselDeployment> {
  const file = join(dataDir, "deployment.json");
  const chain = { ...localChain, rpcUrls: { default: { http: [rpcUrl] } } };
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) });
  if (existsSync(file)) {
    const recorded = JSON.parse(readFileSync(file, "utf8")) as EaselDeployment & { bytecodeHash?: string };
    const codes = await Promise.all(
      Object.values(recorded.contracts).map((address) => publicClient.getCode({ address })),
    );
    if (codes.every((code) => code && code !== "0x")) {
      if (recorded.bytecodeHash !== contractsBytecodeHash()) {
        say(
          "warning: Easel's contracts changed since this local chain was deployed; the app still talks to the",
        );
        say("         old ones. Run `npm start -- --reset` to start over with the new contracts.");
      }
      return recorded;
    }
    say("the local chain no longer holds the recorded contracts; deploying again");
  }
  say("deploying Easel's contracts to the local chain…");
  const walletClient = createWalletClient({ account: deployer, chain, transport: http(rpcUrl) });
  const signer = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 9 }).address;
  const deployment = await deployEasel({
    walletClient,
    publicClient,
    admin: deployer.address,
    signer,
    local: true,
  });
  writeFileSync(
    file,
    `${JSON.stringify({ ...deployment, bytecodeHash: contractsBytecodeHash() }, null, 2)}\n`,
  );
  return deployment;
}

/** Fills a new local marketplace with the demo while the server already answers. */
async function fillDemo(apiUrl: string, rpcUrl: string, deployment: EaselDeployment): Promise<void> {
  say("filling the marketplace with demo artists, artworks and trades (npm start -- --no-demo skips it)…");
  try {
    const summary = await seedDemo({
      apiUrl,
      rpcUrl,
      contracts: {
        market: deployment.contracts.market as `0x${string}`,
        factory: deployment.contracts.factory as `0x${string}`,
        ethUsdFeed: deployment.contracts.ethUsdFeed,
      },
      log: say,
    });
    writeFileSync(join(dataDir, "demo.json"), `${JSON.stringify(summary, null, 2)}\n`);
    say(
      `demo ready in ${summary.seconds} s: ${summary.people} people, ${summary.collections.length} collections, ${summary.mints} minted and ${summary.lazyItems} lazy items, ${summary.sales} sales`,
    );
  } catch (error) {
    say(`the demo could not be filled: ${error instanceof Error ? error.message : String(error)}`);
    say("Easel keeps running without it; `npm start -- --reset` starts over.");
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  if (process.argv.includes("--reset")) await confirmReset();
  mkdirSync(dataDir, { recursive: true });
  const pidFile = join(dataDir, "easel.pid");
  checkNotRunning(pidFile);
  // A launcher killed hard (and its watchdog with it) may have left anvil or PostgreSQL running.
  for (const leftover of await stopLeftovers(dataDir))
    say(`stopped ${leftover}, left running by an earlier start`);
  await checkPorts();
  writeFileSync(pidFile, String(process.pid));

  const services: Service[] = [];
  const stoppers: (() => Promise<void>)[] = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say("stopping…");
    for (const service of services.reverse()) await service.stop().catch(() => {});
    for (const stop of stoppers.reverse()) await stop().catch(() => {});
    rmSync(pidFile, { force: true });
    say("stopped.");
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  process.on("uncaughtException", (error) => {
    console.error(error);
    void shutdown(1);
  });

  try {
    const webDist = ensureWebBuild(repoRoot, say);
    mkdirSync(join(dataDir, "chain"), { recursive: true });
    const stateFile = join(dataDir, "chain", "state.json");
    const pgDir = join(dataDir, "postgres");
    const [postgresStart, anvilStart] = await Promise.allSettled([
      startPostgres({ dataDir: pgDir, port: ports.db }),
      startAnvil({ port: ports.chain, chainId: CHAIN_IDS.local, stateFile }),
    ]);
    // Whatever started is stopped again if the other failed (shutdown runs the stoppers).
    for (const started of [postgresStart, anvilStart]) {
      if (started.status === "fulfilled") stoppers.push(started.value.stop);
    }
    if (postgresStart.status === "rejected") throw postgresStart.reason;
    if (anvilStart.status === "rejected") throw anvilStart.reason;
    const [postgres, anvil] = [postgresStart.value, anvilStart.value];
    const unguard = guardChildren(dataDir, [
      { name: "PostgreSQL", pid: postgres.pid, signal: "SIGINT", marker: pgDir },
      { name: "anvil", pid: anvil.pid, signal: "SIGTERM", marker: stateFile },
    ]);
    stoppers.unshift(async () => unguard());

    // The demo's story spans five weeks: on a new chain, its clock starts that far back (the seed brings it
    // to the present).
    const demo = !existsSync(join(dataDir, "deployment.json")) && !process.argv.includes("--no-demo");
    if (demo) {
      const past = Math.floor(Date.now() / 1000) - DEMO_HISTORY_DAYS * 86_400;
      await createPublicClient({ transport: http(anvil.url) }).request({
        method: "evm_setTime" as never,
        params: [past] as never,
      });
    }
    const deployment = await ensureDeployment(anvil.url);
    const env = {
      DATABASE_URL: postgres.url,
      RPC_URL: anvil.url,
      CHAIN_ID: String(CHAIN_IDS.local),
      FACTORY_ADDRESS: deployment.contracts.factory,
      MARKET_ADDRESS: deployment.contracts.market,
      DEFAULT_COLLECTION_ADDRESS: deployment.contracts.defaultCollection,
      ETH_USD_FEED_ADDRESS: deployment.contracts.ethUsdFeed,
      DEPLOY_BLOCK: deployment.deployBlock,
      SIGNER_PRIVATE_KEY: signerKey,
      PUBLIC_URL: `http://127.0.0.1:${ports.api}`,
      HOST: "127.0.0.1",
      PORT: String(ports.api),
      ADMIN_ADDRESSES: deployer.address,
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      DATA_DIR: dataDir,
      // Behind a local proxy (or a load test speaking for many clients): which X-Forwarded-For to believe.
      ...(process.env.TRUST_PROXY ? { TRUST_PROXY: process.env.TRUST_PROXY } : {}),
    };
    let config: Config;
    try {
      config = loadConfig(env, { webDist });
    } catch (error) {
      if (error instanceof ConfigError)
        throw new Error(`the local deployment is incomplete: ${error.message}`);
      throw error;
    }
    const context = createContext(config);
    stoppers.push(() => context.db.$client.end());
    services.push(await startApi(context));
    services.push(await startIndexerRole(context));
    services.push(await startWorkerRole(context));

    say(`Easel is running at http://127.0.0.1:${ports.api}`);
    say(
      `  chain:    local anvil, chain id ${config.chainId}, RPC ${anvil.url} (market ${config.contracts.market})`,
    );
    say(`  database: PostgreSQL on 127.0.0.1:${ports.db}`);
    say(`  data:     ${relative(process.cwd(), dataDir) || "."} (npm start -- --reset deletes it)`);
    say(`  ready in ${((Date.now() - started) / 1000).toFixed(1)} s; press Ctrl-C to stop`);
    if (demo) void fillDemo(config.publicUrl.origin, anvil.url, deployment);
  } catch (error) {
    console.error(`[easel] could not start: ${error instanceof Error ? error.message : String(error)}`);
    await shutdown(1);
  }
}

await main();
