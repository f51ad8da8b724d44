/**
 * `npm run bench:startup`: how long a role takes to answer, and `npm start` to be ready. On one local stack
 * (PostgreSQL and anvil with Easel deployed, made by a first `npm start --no-demo` in a temporary folder):
 * - each production role as docs/operating.md runs it (`node packages/server/dist/bin/ROLE.js`, after the build), and
 *   for comparison from the TypeScript sources (`node --import tsx`): the API until `GET /api/health`
 *   answers 200, the indexer and the worker until they log that they started;
 * - `npm start` (a second start, data kept, no demo) until it prints "Easel is running at", and how long
 *   Ctrl-C then takes to stop it.
 * Each figure is the median of BENCH_RUNS runs (default 7), with the CPU the start used (independent of the
 * machine's load, unlike the wall time), written to bench/startup-report.json.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { mnemonicToAccount } from "viem/accounts";
import { ANVIL_MNEMONIC, startAnvil } from "../src/embedded/anvil.ts";
import { startPostgres } from "../src/embedded/postgres.ts";
import { freePort } from "../src/embedded/process.ts";

const serverDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = join(serverDir, "..", "..");
const runs = Number(process.env.BENCH_RUNS ?? 7);
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * CPU time (user + system, ms) used so far by the processes of a process group and the children they
 * reaped: what a start costs, whatever the machine's load (anvil and PostgreSQL run in groups of their own).
 */
function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // After "pid (name) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
      const fields = stat
        .slice(stat.lastIndexOf(")") + 2)
        .split(" ")
        .map(Number);
      if (fields[2] === pgid)
        ticks += (fields[11] ?? 0) + (fields[12] ?? 0) + (fields[13] ?? 0) + (fields[14] ?? 0);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Starts `command` and resolves with the milliseconds until `ready` says so, and how long it then takes to
 * stop after SIGINT.
 */
async function timeStart(
  command: string[],
  env: Record<string, string | undefined>,
  ready: (output: string) => Promise<boolean> | boolean,
): Promise<{ readyMs: number; cpuMs: number; stopMs: number }> {
  const started = performance.now();
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so SIGINT reaches every process of it, as Ctrl-C in a terminal does.
    detached: true,
  });
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), signal);
    } catch {
      // the group has ended
    }
  };
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    for (const deadline = Date.now() + 120_000; !(await ready(output)); await sleep(5)) {
      if (child.exitCode !== null) throw new Error(`${command.join(" ")} exited:\n${output}`);
      if (Date.now() > deadline)
        throw new Error(`${command.join(" ")} was not ready in 2 minutes:\n${output}`);
    }
    const readyMs = performance.now() - started;
    const cpuMs = groupCpuMs(child.pid as number);
    const stopping = performance.now();
    group("SIGINT");
    const killer = setTimeout(() => group("SIGKILL"), 30_000);
    await exited(child);
    clearTimeout(killer);
    return { readyMs, cpuMs, stopMs: performance.now() - stopping };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      group("SIGKILL");
      await exited(child);
    }
  }
}

async function healthy(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/health`);
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function measure(
  name: string,
  command: string[],
  env: Record<string, string | undefined>,
  ready: (output: string) => Promise<boolean> | boolean,
) {
  const ready_: number[] = [];
  const cpu: number[] = [];
  const stop: number[] = [];
  for (let i = 0; i < runs; i++) {
    const run = await timeStart(command, env, ready);
    ready_.push(run.readyMs);
    cpu.push(run.cpuMs);
    stop.push(run.stopMs);
  }
  const result = {
    name,
    command: command.join(" ").replace(process.execPath, "node").replace(repoRoot, "."),
    readyMedianMs: Math.round(median(ready_)),
    readyMinMs: Math.round(Math.min(...ready_)),
    readyMaxMs: Math.round(Math.max(...ready_)),
    cpuMedianMs: median(cpu),
    stopMedianMs: Math.round(median(stop)),
  };
  console.log(
    `${name}: ready in ${result.readyMedianMs} ms (median of ${runs}; ${result.readyMinMs}–${result.readyMaxMs}), ${result.cpuMedianMs} ms of CPU; stopped in ${result.stopMedianMs} ms`,
  );
  return result;
}

const dir = mkdtempSync(join(tmpdir(), "easel-bench-startup-"));
chmodSync(dir, 0o755); // as root PostgreSQL runs as the postgres user, which must reach the folder
const dataDir = join(dir, "data");
const ports = { api: await freePort(), chain: await freePort(), db: await freePort() };
const launcherEnv = {
  EASEL_DATA_DIR: dataDir,
  PORT: String(ports.api),
  EASEL_CHAIN_PORT: String(ports.chain),
  EASEL_DB_PORT: String(ports.db),
  LOG_LEVEL: "silent",
};
const node = process.execPath;
const npm = "npm";
const tsxRun = (file: string) => [node, "--import", "tsx", join(serverDir, "src", "bin", file)];
const distRun = (file: string) => [node, join(serverDir, "dist", "bin", file)];

try {
  console.log("building the server and the web app, and making the stack (a first start)…");
  execFileSync(node, [join(serverDir, "scripts", "build.ts")], { stdio: "inherit" });
  // The first start builds the web app if needed, deploys the contracts and migrates the database.
  await timeStart([...distRun("easel.js"), "--no-demo"], launcherEnv, (out) =>
    out.includes("Easel is running at"),
  );

  const results = [];
  const running = (out: string) => out.includes("Easel is running at");
  const npmCommand = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).scripts.start;
  results.push(
    await measure(`npm start (${npmCommand})`, [npm, "start", "--", "--no-demo"], launcherEnv, running),
  );
  results.push(
    await measure("launcher from sources (tsx)", [...tsxRun("easel.ts"), "--no-demo"], launcherEnv, running),
  );

  // The roles on the same database and chain, as production runs them.
  const [postgres, anvil] = await Promise.all([
    startPostgres({ dataDir: join(dataDir, "postgres"), port: ports.db }),
    startAnvil({ port: ports.chain, stateFile: join(dataDir, "chain", "state.json") }),
  ]);
  try {
    const deployment = JSON.parse(readFileSync(join(dataDir, "deployment.json"), "utf8"));
    const signer = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 9 }).getHdKey().privateKey as Uint8Array;
    const apiUrl = `http://127.0.0.1:${ports.api}`;
    const roleEnv = {
      DATABASE_URL: postgres.url,
      RPC_URL: anvil.url,
      CHAIN_ID: "31337",
      FACTORY_ADDRESS: deployment.contracts.factory,
      MARKET_ADDRESS: deployment.contracts.market,
      DEFAULT_COLLECTION_ADDRESS: deployment.contracts.defaultCollection,
      ETH_USD_FEED_ADDRESS: deployment.contracts.ethUsdFeed,
      DEPLOY_BLOCK: deployment.deployBlock,
      SIGNER_PRIVATE_KEY: `0x${Buffer.from(signer).toString("hex")}`,
      PUBLIC_URL: apiUrl,
      HOST: "127.0.0.1",
      PORT: String(ports.api),
      DATA_DIR: dataDir,
      NODE_ENV: "production",
      // The production build on the local chain, on purpose (config.ts refuses it otherwise).
      ALLOW_LOCAL_CHAIN_IN_PRODUCTION: "1",
      LOG_LEVEL: "warn",
    };
    const apiHealthy = () => healthy(apiUrl);
    // A production role logs JSON lines (src/log.ts): {"msg":"indexer started (chain …)"}.
    const started = (out: string) => /"msg":"(indexer|worker) started/.test(out);
    results.push(await measure("api (compiled)", distRun("api.js"), roleEnv, apiHealthy));
    // V8's compiled code kept between starts (the first run fills the cache).
    const compileCache = { ...roleEnv, NODE_COMPILE_CACHE: join(dir, "compile-cache") };
    results.push(
      await measure("api (compiled, NODE_COMPILE_CACHE)", distRun("api.js"), compileCache, apiHealthy),
    );
    results.push(await measure("api (tsx)", tsxRun("api.ts"), roleEnv, apiHealthy));
    results.push(await measure("indexer (compiled)", distRun("indexer.js"), roleEnv, started));
    results.push(await measure("indexer (tsx)", tsxRun("indexer.ts"), roleEnv, started));
    results.push(await measure("worker (compiled)", distRun("worker.js"), roleEnv, started));
    results.push(await measure("worker (tsx)", tsxRun("worker.ts"), roleEnv, started));
  } finally {
    await Promise.all([postgres.stop(), anvil.stop()]);
  }

  const report = {
    measuredAt: new Date().toISOString(),
    commit: execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim(),
    conditions: {
      node: process.version,
      cpus: `${cpus().length} × ${cpus()[0]?.model ?? "unknown"}`,
      loadAverage1m: Number(loadavg()[0]?.toFixed(2)),
      runs,
      note: "local PostgreSQL 18 and anvil already running with Easel deployed and migrated; times from spawn; CPU of the started process group (not PostgreSQL's or anvil's)",
    },
    results,
  };
  writeFileSync(join(serverDir, "bench", "startup-report.json"), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
