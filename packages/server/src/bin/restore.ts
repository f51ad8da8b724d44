#!/usr/bin/env node
/**
 * `npm run restore -- FILE [--force]`: puts a backup written by `npm run backup` back, with Easel stopped.
 * With DATABASE_URL set it restores production (DATABASE_URL, MEDIA_DIR, and the chain and contracts the
 * snapshot must belong to); without it, `npm start`'s data folder, chain included. It refuses a database
 * that holds data unless --force is given. The indexer then catches up from the snapshot's block.
 */
import { resolve } from "node:path";
import {
  ArchiveError,
  backupSecret,
  type Deployment,
  RestoreRefused,
  readManifest,
  restoreBackup,
} from "../backup/backup.ts";
import { embeddedRestoreTarget, localDeployment } from "../backup/embedded.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { embeddedLayout } from "../embedded/layout.ts";

const say = (message: string) => console.log(`[easel] restore: ${message}`);
const warn = (message: string) => console.error(`[easel] restore: warning: ${message}`);
const args = process.argv.slice(2).filter((a) => a !== "--");
const force = args.includes("--force");
const files = args.filter((a) => a !== "--force");
if (files.length !== 1 || files[0]?.startsWith("-")) {
  console.error("usage: npm run restore -- FILE [--force]");
  process.exit(2);
}
const file = resolve(process.env.INIT_CWD ?? process.cwd(), files[0] as string);

try {
  // When set, only a file signed with it is restored.
  const secret = backupSecret(process.env);
  const manifest = await readManifest(file);
  const hasChain = manifest.mode === "embedded";
  let result: Awaited<ReturnType<typeof restoreBackup>>;
  if (process.env.DATABASE_URL) {
    const config = loadConfig(process.env);
    const deployment: Deployment = {
      chainId: config.chainId,
      contracts: config.contracts,
      deployBlock: config.deployBlock.toString(),
    };
    if (hasChain)
      say("the snapshot's local chain is not restored in production (only its database and media)");
    result = await restoreBackup({
      file,
      databaseUrl: config.databaseUrl,
      mediaDir: config.mediaDir,
      deployment,
      force,
      secret,
      log: say,
      warn,
    });
  } else {
    const layout = embeddedLayout();
    // A snapshot with its own chain replaces the local one; one without must belong to the local deployment.
    const deployment = hasChain ? null : localDeployment(layout);
    if (!hasChain && !deployment)
      throw new RestoreRefused(
        "This snapshot holds no local chain (it was taken in production): restore it with the production " +
          "environment (DATABASE_URL and the rest), or into a data folder whose chain it indexes.",
      );
    const target = await embeddedRestoreTarget(layout, force || !hasChain);
    try {
      result = await restoreBackup({
        file,
        databaseUrl: target.databaseUrl,
        mediaDir: target.mediaDir,
        deployment,
        force,
        localChain: target.localChain,
        secret,
        log: say,
        warn,
      });
      await target.commit();
    } finally {
      await target.close();
    }
  }
  const indexed = result.manifest.database.indexed;
  say(
    `restored ${file} in ${result.seconds.toFixed(1)} s. The indexer continues from block ${indexed?.block ?? manifest.deployment.deployBlock} ` +
      "when Easel starts; everyone signs in again.",
  );
} catch (error) {
  const known =
    error instanceof RestoreRefused || error instanceof ArchiveError || error instanceof ConfigError;
  console.error(`[easel] restore failed: ${error instanceof Error ? error.message : String(error)}`);
  if (!known && process.env.LOG_LEVEL === "debug") console.error(error);
  process.exit(1);
}
