import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { repoRoot } from "../paths.ts";
import { isAlive } from "./process.ts";

/**
 * Where `npm start` keeps everything (EASEL_DATA_DIR, default `.data` at the repository root) and the ports
 * it uses; shared by the launcher and the backup commands, which must find the same stack.
 */
export function embeddedLayout(env: Record<string, string | undefined> = process.env) {
  const dataDir = resolve(env.EASEL_DATA_DIR ?? join(repoRoot, ".data"));
  return {
    dataDir,
    ports: {
      api: Number(env.PORT ?? 3000),
      chain: Number(env.EASEL_CHAIN_PORT ?? 8545),
      db: Number(env.EASEL_DB_PORT ?? 5433),
    },
    /** The launcher's process id while it runs. */
    pidFile: join(dataDir, "easel.pid"),
    /** The local deployment's addresses and block (written when the contracts are deployed). */
    deploymentFile: join(dataDir, "deployment.json"),
    /** What the demo filled in (written once it is done). */
    demoFile: join(dataDir, "demo.json"),
    /** anvil's state (loaded at start, dumped every few seconds and at stop). */
    chainStateFile: join(dataDir, "chain", "state.json"),
    postgresDir: join(dataDir, "postgres"),
    /** The media store (the configuration's default MEDIA_DIR inside DATA_DIR). */
    mediaDir: join(dataDir, "ipfs"),
  };
}

export type EmbeddedLayout = ReturnType<typeof embeddedLayout>;

/** The process id of the launcher running on this data folder, or null. */
export function runningLauncher(layout: EmbeddedLayout): number | null {
  if (!existsSync(layout.pidFile)) return null;
  const pid = Number(readFileSync(layout.pidFile, "utf8"));
  return pid && pid !== process.pid && isAlive(pid) ? pid : null;
}
