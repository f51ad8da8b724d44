/**
 * Backups of `npm start`'s data folder: the whole local marketplace (database, media, the anvil chain and
 * its deployment). While Easel runs, its PostgreSQL is found by the port in its `postmaster.pid` and the
 * chain is dumped through anvil's `anvil_dumpState`; while it is stopped, the backup starts the folder's
 * PostgreSQL itself and reads the state file anvil wrote when it stopped. A restore needs Easel stopped.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { chmod, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { CHAIN_IDS } from "@easel/common";
import { type EmbeddedLayout, runningLauncher } from "../embedded/layout.ts";
import { EMBEDDED_POSTGRES, startPostgres } from "../embedded/postgres.ts";
import { freePort } from "../embedded/process.ts";
import type { Deployment, LocalChainSource, LocalChainTarget } from "./backup.ts";

type RecordedDeployment = {
  contracts: { factory: string; market: string; defaultCollection: string; ethUsdFeed: string };
  deployBlock: string;
};

/** The local deployment recorded in the data folder, or null before the first `npm start`. */
export function localDeployment(layout: EmbeddedLayout): Deployment | null {
  if (!existsSync(layout.deploymentFile)) return null;
  const recorded = JSON.parse(readFileSync(layout.deploymentFile, "utf8")) as RecordedDeployment;
  const c = recorded.contracts;
  return {
    chainId: CHAIN_IDS.local,
    contracts: {
      factory: c.factory.toLowerCase(),
      market: c.market.toLowerCase(),
      defaultCollection: c.defaultCollection.toLowerCase(),
      ethUsdFeed: c.ethUsdFeed.toLowerCase(),
    },
    deployBlock: String(recorded.deployBlock),
  };
}

/**
 * Keeps `npm start` from starting on the folder while a backup or restore uses it; returns the release,
 * which removes the file at once (synchronously: the commands exit right after, also when they failed).
 */
function holdFolder(layout: EmbeddedLayout): () => void {
  writeFileSync(layout.pidFile, String(process.pid));
  return () => {
    try {
      if (existsSync(layout.pidFile) && readFileSync(layout.pidFile, "utf8") === String(process.pid))
        rmSync(layout.pidFile, { force: true });
    } catch {
      // Gone already, or the folder with it.
    }
  };
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  }).catch(() => {
    throw new Error(`the local chain does not answer at ${url} (set EASEL_CHAIN_PORT as for npm start)`);
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** The small files of the data folder that belong to the chain (its deployment, the demo's summary). */
function folderFiles(layout: EmbeddedLayout): Record<string, Buffer> {
  const files: Record<string, Buffer> = { "deployment.json": readFileSync(layout.deploymentFile) };
  if (existsSync(layout.demoFile)) files["demo.json"] = readFileSync(layout.demoFile);
  return files;
}

/** What a backup of the data folder reads; `close` stops what it started. */
export async function embeddedBackupSource(layout: EmbeddedLayout) {
  const deployment = localDeployment(layout);
  if (!deployment)
    throw new Error(`${layout.dataDir} holds no local marketplace (no deployment.json): nothing to back up`);
  const launcher = runningLauncher(layout);
  const { user, password, database } = EMBEDDED_POSTGRES;
  if (launcher) {
    // postmaster.pid's fourth line is the port of the server running on this very folder.
    const pidFile = join(layout.postgresDir, "postmaster.pid");
    const port = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").split("\n")[3]) : 0;
    if (!port) throw new Error(`Easel (process ${launcher}) is still starting; try again in a moment`);
    const chainUrl = `http://127.0.0.1:${layout.ports.chain}`;
    const localChain: LocalChainSource = async (indexed) => {
      const chainId = Number(await rpc(chainUrl, "eth_chainId"));
      if (chainId !== CHAIN_IDS.local)
        throw new Error(`${chainUrl} is not the local chain (chain id ${chainId})`);
      // The chain must hold the block the database's cursor stands on: then it is this folder's chain.
      if (indexed?.hash) {
        const block = (await rpc(chainUrl, "eth_getBlockByNumber", [
          `0x${BigInt(indexed.block).toString(16)}`,
          false,
        ])) as { hash: string } | null;
        if (block?.hash.toLowerCase() !== indexed.hash.toLowerCase())
          throw new Error(
            `the chain at ${chainUrl} is not the one of ${layout.dataDir} (set EASEL_CHAIN_PORT as for npm start)`,
          );
      }
      // anvil_dumpState answers the gzipped JSON of the state file that `--state` loads.
      const dump = (await rpc(chainUrl, "anvil_dumpState")) as string;
      return { "state.json": gunzipSync(Buffer.from(dump.slice(2), "hex")), ...folderFiles(layout) };
    };
    return {
      databaseUrl: `postgres://${user}:${password}@127.0.0.1:${port}/${database}`,
      deployment,
      localChain,
      running: launcher,
      close: async () => {},
    };
  }
  if (!existsSync(layout.chainStateFile))
    throw new Error(`${layout.chainStateFile} is missing: the local chain was never saved`);
  const release = holdFolder(layout);
  try {
    const postgres = await startPostgres({ dataDir: layout.postgresDir, port: await freePort() });
    return {
      databaseUrl: postgres.url,
      deployment,
      localChain: (async () => ({
        "state.json": readFileSync(layout.chainStateFile),
        ...folderFiles(layout),
      })) as LocalChainSource,
      running: null,
      close: async () => {
        await postgres.stop();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Restores into the data folder, with Easel stopped: its PostgreSQL is started for the restore. */
export async function embeddedRestoreTarget(layout: EmbeddedLayout, force: boolean) {
  const launcher = runningLauncher(layout);
  if (launcher)
    throw new Error(
      `Easel is running (process ${launcher}) on ${layout.dataDir}: stop it (Ctrl-C) before restoring`,
    );
  if (localDeployment(layout) && !force)
    throw new Error(
      `${layout.dataDir} already holds a local marketplace (its chain, database and media). Restoring replaces ` +
        "it: run the restore again with --force to overwrite it.",
    );
  // What the folder held before, so that a restore that fails leaves no half-made data folder behind: a
  // folder it created goes, and so does what it added to an existing one (a new PostgreSQL cluster, media).
  const existed = existsSync(layout.dataDir) ? new Set(readdirSync(layout.dataDir)) : null;
  await mkdir(layout.dataDir, { recursive: true });
  const release = holdFolder(layout);
  const undo = () => {
    release();
    if (existed === null) rmSync(layout.dataDir, { recursive: true, force: true });
    else
      for (const name of readdirSync(layout.dataDir))
        if (!existed.has(name)) rmSync(join(layout.dataDir, name), { recursive: true, force: true });
  };
  let committed = false;
  const staged = new Map<string, string>();
  const destinations: Record<string, string> = {
    "state.json": layout.chainStateFile,
    "deployment.json": layout.deploymentFile,
    "demo.json": layout.demoFile,
  };
  try {
    const postgres = await startPostgres({ dataDir: layout.postgresDir, port: await freePort() });
    const localChain: LocalChainTarget = {
      async stage(name, data) {
        const destination = destinations[name];
        if (!destination) throw new Error(`the backup holds an unknown chain file: ${name}`);
        await mkdir(dirname(destination), { recursive: true });
        await writeFile(`${destination}.restoring`, data, { flag: "w", mode: 0o600 });
        await chmod(`${destination}.restoring`, 0o600);
        staged.set(destination, `${destination}.restoring`);
      },
    };
    return {
      databaseUrl: postgres.url,
      mediaDir: layout.mediaDir,
      localChain,
      /** After the database committed: the staged chain files replace the folder's. */
      async commit() {
        if (staged.size > 0 && !staged.has(layout.demoFile)) await rm(layout.demoFile, { force: true });
        for (const [destination, temp] of staged) await rename(temp, destination);
        staged.clear();
        committed = true;
      },
      /** Stops the folder's PostgreSQL; unless committed, takes back what the restore added to the folder. */
      async close() {
        for (const temp of staged.values()) await rm(temp, { force: true });
        try {
          await postgres.stop();
        } finally {
          if (committed) release();
          else undo();
        }
      },
    };
  } catch (error) {
    undo();
    throw error;
  }
}
