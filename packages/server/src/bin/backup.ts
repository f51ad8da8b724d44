#!/usr/bin/env node
/**
 * `npm run backup -- FILE`: one file holding a consistent snapshot of Easel's database and media, taken while
 * Easel runs. With DATABASE_URL set it backs up production (configured like the other roles: DATABASE_URL,
 * MEDIA_DIR, CHAIN_ID, the contract addresses…); without it, `npm start`'s data folder (EASEL_DATA_DIR,
 * default .data), local chain and deployment included. See docs/operating.md, "Backups and restore".
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { backupSecret, createBackup } from "../backup/backup.ts";
import { embeddedBackupSource } from "../backup/embedded.ts";
import { ConfigError, loadConfig } from "../config.ts";
import { embeddedLayout } from "../embedded/layout.ts";

const say = (message: string) => console.log(`[easel] backup: ${message}`);
const args = process.argv.slice(2).filter((a) => a !== "--");
if (args.length !== 1 || args[0]?.startsWith("-")) {
  console.error("usage: npm run backup -- FILE   (e.g. npm run backup -- easel-$(date +%F).tar.gz)");
  process.exit(2);
}
// npm runs scripts from the repository root; a relative name is meant from where the command was typed.
const file = resolve(process.env.INIT_CWD ?? process.cwd(), args[0] as string);

try {
  // Signs the file when set (a restore with the same secret then refuses any other file).
  const secret = backupSecret(process.env);
  let result: Awaited<ReturnType<typeof createBackup>>;
  if (process.env.DATABASE_URL) {
    const config = loadConfig(process.env);
    say(`production database, media in ${config.mediaDir}`);
    result = await createBackup({
      file,
      databaseUrl: config.databaseUrl,
      mediaDir: config.mediaDir,
      deployment: {
        chainId: config.chainId,
        contracts: config.contracts,
        deployBlock: config.deployBlock.toString(),
      },
      secret,
      log: say,
    });
  } else {
    const layout = embeddedLayout();
    const source = await embeddedBackupSource(layout);
    say(`${layout.dataDir} (Easel ${source.running ? `running, process ${source.running}` : "stopped"})`);
    try {
      result = await createBackup({
        file,
        databaseUrl: source.databaseUrl,
        mediaDir: layout.mediaDir,
        deployment: source.deployment,
        localChain: source.localChain,
        secret,
        log: say,
      });
    } finally {
      await source.close();
    }
  }
  const indexed = result.manifest.database.indexed;
  say(
    `wrote ${file} (${(statSync(file).size / 1e6).toFixed(1)} MB${secret ? ", signed" : ""}) in ${result.seconds.toFixed(1)} s; ` +
      `chain ${result.manifest.deployment.chainId}, indexed to block ${indexed?.block ?? "none"}`,
  );
} catch (error) {
  console.error(`[easel] backup failed: ${error instanceof Error ? error.message : String(error)}`);
  if (!(error instanceof ConfigError) && process.env.LOG_LEVEL === "debug") console.error(error);
  process.exit(1);
}
