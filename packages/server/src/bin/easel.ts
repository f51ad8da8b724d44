#!/usr/bin/env node
/**
 * `npm start`: the whole of Easel on this machine with no external services — a local chain
 * (anvil), PostgreSQL, the API serving the web app, the indexer and the worker — with all data
 * under .data/. `npm start -- --reset` deletes .data/ first. The first start fills the marketplace with demo
 * artists, collectors, artworks and trades (src/demo/seed.ts) unless `--no-demo` is given; a first start
 * stopped before its demo was complete is started over by the next one. A stop (Ctrl-C, SIGTERM, SIGHUP)
 * ends everything within 2 s in any phase.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
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
import { embeddedLayout } from "../embedded/layout.ts";
import { guardChildren, stopLeftovers } from "../embedded/leftovers.ts";
import { startPostgres } from "../embedded/postgres.ts";
import { isAlive, portIsFree } from "../embedded/process.ts";
import { ensureWebBuild } from "../embedded/web-build.ts";
import { startMetricsServer } from "../metrics.ts";
import { repoRoot } from "../paths.ts";
import { createContext, type Service, startApi, startIndexerRole, startWorkerRole } from "../roles.ts";

const layout = embeddedLayout();
const { dataDir, ports } = layout;
const say = (message: string) => console.log(`[easel] ${message}`);
/**
 * Present while the demo of a first start is not complete: written before anything of that start (the
 * contracts' deployment included), removed once demo.json is. Found by a later start, it means the data
 * folder holds an interrupted first start and nothing else, which that start deletes and begins again.
 */
const demoPendingFile = join(dataDir, "demo-pending");
/**
 * A stop ends within 2 s: the roles get SERVICES_STOP_MS to finish what they are doing; PostgreSQL's
 * checkpoint (seconds after the demo's writes on a busy machine) is given up POSTGRES_FAST_STOP_MS after the
 * stop began (it is replayed from the WAL at the next start); past STOP_DEADLINE_MS the launcher exits anyway.
 */
const SERVICES_STOP_MS = 500;
/**
 * How long the API lets its requests finish before it cuts their connections: within SERVICES_STOP_MS, so the
 * API has closed before the pool ends (a request still running on an ended pool answered 500, "Cannot use a
 * pool after calling end on the pool").
 */
const API_DRAIN_MS = 300;
const POSTGRES_FAST_STOP_MS = 900;
const STOP_DEADLINE_MS = 1_400;

/** Waits for `promise`, but no longer than `ms`. */
const within = (ms: number, promise: Promise<unknown>) =>
  Promise.race([promise.catch(() => {}), new Promise((resolve) => setTimeout(resolve, ms).unref())]);
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
    rl.once("SIGINT", () => {
      rl.close();
      console.log();
      fail("Nothing was deleted.");
    });
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
async function ensureDeployment(rpcUrl: string, signal: AbortSignal): Promise<EaselDeployment> {
  const file = layout.deploymentFile;
  const chain = { ...localChain, rpcUrls: { default: { http: [rpcUrl] } } };
  const transport = http(rpcUrl, { fetchOptions: { signal } });
  const publicClient = createPublicClient({ chain, transport });
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
  const walletClient = createWalletClient({ account: deployer, chain, transport });
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
async function fillDemo(
  apiUrl: string,
  rpcUrl: string,
  deployment: EaselDeployment,
  signal: AbortSignal,
): Promise<void> {
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
      signal,
    });
    writeFileSync(layout.demoFile, `${JSON.stringify(summary, null, 2)}\n`);
    rmSync(demoPendingFile, { force: true });
    say(
      `demo ready in ${summary.seconds} s: ${summary.people} people, ${summary.collections.length} collections, ${summary.mints} minted and ${summary.lazyItems} lazy items, ${summary.sales} sales`,
    );
  } catch (error) {
    // Stopped half-way: the marker stays, and the next start begins the demo again.
    if (signal.aborted) return;
    // A seed that fails is not retried by every later start (it would fail again, deleting what was done since).
    rmSync(demoPendingFile, { force: true });
    say(`the demo could not be filled: ${error instanceof Error ? error.message : String(error)}`);
    say("Easel keeps running without it; `npm start -- --reset` starts over.");
  }
}

/**
 * Whether this start fills the demo: a new data folder, or one whose first start was stopped before its demo
 * was complete, which is emptied first (with --no-demo, it is kept as it is instead).
 */
function demoToFill(): boolean {
  const noDemo = process.argv.includes("--no-demo");
  if (existsSync(demoPendingFile)) {
    if (noDemo) {
      rmSync(demoPendingFile);
      say("the first start was stopped before its demo was complete; --no-demo keeps what it made");
      say("(npm start -- --reset starts over)");
      return false;
    }
    say(
      "the first start was stopped before its demo was complete: starting it over on a new chain and database",
    );
    for (const entry of readdirSync(dataDir)) {
      if (entry !== "easel.pid" && entry !== "demo-pending")
        rmSync(join(dataDir, entry), { recursive: true });
    }
    return true;
  }
  if (noDemo || existsSync(layout.deploymentFile)) return false;
  writeFileSync(demoPendingFile, `${new Date().toISOString()}\n`);
  return true;
}

async function main(): Promise<void> {
  // From the process's start: `npm start` (scripts/start.ts) builds the server in this process first.
  const started = performance.timeOrigin;
  if (process.argv.includes("--reset")) await confirmReset();
  mkdirSync(dataDir, { recursive: true });
  const pidFile = layout.pidFile;
  checkNotRunning(pidFile);
  // A launcher killed hard (and its watchdog with it) may have left anvil or PostgreSQL running.
  for (const leftover of await stopLeftovers(dataDir))
    say(`stopped ${leftover}, left running by an earlier start`);
  await checkPorts();
  writeFileSync(pidFile, String(process.pid));

  const services: Service[] = [];
  const stoppers: (() => Promise<unknown>)[] = [];
  // Aborted by a stop: whatever is under way (the web build, anvil's or PostgreSQL's start, the deployment,
  // the demo) ends at once, so a stop never waits for it.
  const stop = new AbortController();
  let childrenStarting: Promise<unknown> = Promise.resolve();
  let stopping = false;
  let stoppingAt = 0;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    stoppingAt = performance.now();
    say("stopping…");
    // Past the deadline, exit anyway: the watchdog (not ended then) finishes stopping anvil and PostgreSQL.
    setTimeout(() => process.exit(code), STOP_DEADLINE_MS).unref();
    stop.abort();
    await childrenStarting; // anvil and PostgreSQL stop themselves when the stop comes as they start
    // The roles get a moment, not the whole grace they would take in production (pg-boss waits for jobs).
    const stopped = services.map((service) => service.stop().catch(() => {}));
    await within(SERVICES_STOP_MS, Promise.all(stopped));
    // The pool (a stopper) ends only after the API has closed, which API_DRAIN_MS bounds.
    const api = services.findIndex((service) => service.name === "api");
    if (api >= 0) await within(200, stopped[api] as Promise<unknown>);
    for (const stopper of stoppers.reverse()) await stopper().catch(() => {});
    rmSync(pidFile, { force: true });
    say("stopped.");
    process.exit(code);
  };
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  process.on("SIGHUP", () => void shutdown(0));
  process.on("uncaughtException", (error) => {
    console.error(error);
    void shutdown(1);
  });

  try {
    const { signal } = stop;
    const demo = demoToFill();
    const webDist = await ensureWebBuild(repoRoot, say, signal);
    mkdirSync(join(dataDir, "chain"), { recursive: true });
    const stateFile = layout.chainStateFile;
    const pgDir = layout.postgresDir;
    const starting = Promise.allSettled([
      startPostgres({ dataDir: pgDir, port: ports.db, signal }),
      startAnvil({ port: ports.chain, chainId: CHAIN_IDS.local, stateFile, signal }),
    ]).then(([postgresStart, anvilStart]) => {
      // Whatever started is stopped again if the other failed (shutdown runs the stoppers); both at once.
      stoppers.push(() =>
        Promise.all([
          postgresStart.status === "fulfilled" &&
            postgresStart.value.stop(POSTGRES_FAST_STOP_MS - (performance.now() - stoppingAt)),
          anvilStart.status === "fulfilled" && anvilStart.value.stop(),
        ]),
      );
      return [postgresStart, anvilStart] as const;
    });
    childrenStarting = starting;
    const [postgresStart, anvilStart] = await starting;
    if (postgresStart.status === "rejected") throw postgresStart.reason;
    if (anvilStart.status === "rejected") throw anvilStart.reason;
    const [postgres, anvil] = [postgresStart.value, anvilStart.value];
    const unguard = guardChildren(dataDir, [
      { name: "PostgreSQL", pid: postgres.pid, signal: "SIGINT", marker: pgDir },
      { name: "anvil", pid: anvil.pid, signal: "SIGTERM", marker: stateFile },
    ]);
    stoppers.unshift(async () => unguard());
    signal.throwIfAborted();

    // The demo's story spans five weeks: on a new chain, its clock starts that far back (the seed brings it
    // to the present).
    if (demo) {
      const past = Math.floor(Date.now() / 1000) - DEMO_HISTORY_DAYS * 86_400;
      await createPublicClient({ transport: http(anvil.url) }).request({
        method: "evm_setTime" as never,
        params: [past] as never,
      });
    }
    const deployment = await ensureDeployment(anvil.url, signal);
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
      LOG_LEVEL: process.env.LOG_LEVEL || "warn",
      DATA_DIR: dataDir,
      // Behind a local proxy (or a load test speaking for many clients): which X-Forwarded-For to believe.
      ...(process.env.TRUST_PROXY ? { TRUST_PROXY: process.env.TRUST_PROXY } : {}),
      // Off unless asked for: one endpoint for the three roles of this process.
      ...(process.env.METRICS_PORT ? { METRICS_PORT: process.env.METRICS_PORT } : {}),
    };
    let config: Config;
    try {
      config = loadConfig(env, { webDist });
    } catch (error) {
      if (error instanceof ConfigError)
        throw new Error(`the local deployment is incomplete: ${error.message}`);
      throw error;
    }
    for (const warning of config.warnings) say(`warning: ${warning}`);
    signal.throwIfAborted();
    const context = createContext(config);
    // A pool's end waits for the clients in use: a stop does not wait long for them.
    stoppers.push(() => within(300, context.db.$client.end()));
    const startDemoApi = (c: typeof context) => startApi(c, { drainMs: API_DRAIN_MS });
    for (const start of [startDemoApi, startIndexerRole, startWorkerRole]) {
      const service = await start(context);
      services.push(service);
      // Started as the stop began: stopped at once, not left running against a closed pool until the exit.
      if (signal.aborted) void service.stop().catch(() => {});
      signal.throwIfAborted();
    }
    const metrics = config.metrics && (await startMetricsServer(config.metrics.host, config.metrics.port));
    if (metrics) stoppers.push(metrics.stop);

    say(`Easel is running at http://127.0.0.1:${ports.api}`);
    say(
      `  chain:    local anvil, chain id ${config.chainId}, RPC ${anvil.url} (market ${config.contracts.market})`,
    );
    say(`  database: PostgreSQL on 127.0.0.1:${ports.db}`);
    if (metrics) say(`  metrics:  ${metrics.url} (Prometheus)`);
    say(`  data:     ${relative(process.cwd(), dataDir) || "."} (npm start -- --reset deletes it)`);
    say(`  ready in ${((Date.now() - started) / 1000).toFixed(1)} s; press Ctrl-C to stop`);
    if (demo) void fillDemo(config.publicUrl.origin, anvil.url, deployment, signal);
  } catch (error) {
    if (stop.signal.aborted) return; // a stop cut the start short: shutdown is under way
    console.error(`[easel] could not start: ${error instanceof Error ? error.message : String(error)}`);
    await shutdown(1);
  }
}

await main();
