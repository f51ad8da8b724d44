/**
 * `npm run backup` / `npm run restore`: one file holding a consistent snapshot of Easel's database and media
 * store (and, from `npm start`, the local chain and its deployment), and its way back. The archive holds, in
 * order: `manifest.json` (what it is and where it belongs), `database/<table>/<n>.copy` (COPY text),
 * `chain/*` (embedded mode only), `media/<shard>/<block>.data`, and `summary.json` (row counts and checksums).
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import pg from "pg";
import { ConfigError } from "../config.ts";
import { EASEL_VERSION } from "../version.ts";
import {
  ArchiveError,
  ArchiveWriteError,
  ArchiveWriter,
  readArchive,
  SIGNATURE_ENTRY,
  UNSIGNED_REFUSED,
} from "./archive.ts";
import {
  beginRestore,
  type DatabaseManifest,
  EXCLUDED_TABLES,
  lingeringSessions,
  migrationsUpTo,
  RestoreRefused,
  snapshotDatabase,
  type TableSummary,
  tablesWithData,
} from "./database.ts";
import { listBlocks, readBlock, restoreBlock } from "./media.ts";

export { ArchiveError, ArchiveWriteError, RestoreRefused };

const FORMAT = "easel-backup";
/** 1: unsigned; 2: the same with `signature.json` last (an Easel that reads only 1 asks to be updated). */
const FORMAT_VERSION = 2;
const UNSIGNED_VERSION = 1;

/**
 * The backup secret (BACKUP_SECRET): when set, backups are signed with it and a restore refuses a file whose
 * signature is missing or does not match. Empty counts as unset; a short one is refused, as a guessable
 * secret authenticates nothing.
 */
export function backupSecret(env: Record<string, string | undefined> = process.env): string | null {
  const secret = env.BACKUP_SECRET;
  if (secret === undefined || secret === "") return null;
  if (secret.length < 32)
    throw new ConfigError("Invalid configuration: BACKUP_SECRET must be at least 32 characters");
  return secret;
}

/** Which chain and deployment a database indexes: a snapshot belongs to exactly one. */
export type Deployment = {
  chainId: number;
  contracts: { factory: string; market: string; defaultCollection: string; ethUsdFeed: string };
  deployBlock: string;
};

export type Manifest = {
  format: typeof FORMAT;
  version: number;
  createdAt: string;
  easelVersion: string;
  /** `embedded` (npm start: the archive also holds the local chain) or `production`. */
  mode: "embedded" | "production";
  /** Present when the file ends with `signature.json` (an HMAC under the backup secret). */
  signature?: "HMAC-SHA256";
  deployment: Deployment;
  database: DatabaseManifest;
  /** Tables not in the backup, and why. */
  excludedTables: Record<string, string>;
};

export type Summary = {
  tables: Record<string, TableSummary>;
  media: { files: number; bytes: number };
  chain: { files: Record<string, { bytes: number; sha256: string }> } | null;
};

/** The local chain of the embedded mode: its files, read after the database snapshot. */
export type LocalChainSource = (indexed: DatabaseManifest["indexed"]) => Promise<Record<string, Buffer>>;

const pad = (n: number) => String(n).padStart(6, "0");
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/**
 * Writes a backup to `file` (which must not exist yet; written as `file.partial` and renamed when complete,
 * so a file under the final name is always whole; both mode 0600). The database is read in one snapshot,
 * then the local chain (taken after it, so it holds every block the snapshot indexed), then the media
 * blocks. With `secret` the file is signed (see `backupSecret`). A file that cannot be written (full disk,
 * missing folder…) fails with an ArchiveWriteError naming it and why; the partial file is removed and the
 * database connection ended.
 */
export async function createBackup(options: {
  file: string;
  databaseUrl: string;
  mediaDir: string;
  deployment: Deployment;
  localChain?: LocalChainSource;
  secret?: string | null;
  log?: (message: string) => void;
}): Promise<{ manifest: Manifest; summary: Summary; seconds: number }> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  if (existsSync(options.file)) throw new Error(`${options.file} already exists; choose a new file name`);
  const partial = `${options.file}.partial`;
  // The partial file's errors are the file's: the user named the file, and the partial one is removed.
  const named = (error: unknown) =>
    error instanceof ArchiveWriteError ? new ArchiveWriteError(options.file, error.cause) : error;
  await rm(partial, { force: true });
  let writer: ArchiveWriter;
  try {
    writer = new ArchiveWriter(partial, { secret: options.secret });
  } catch (error) {
    throw named(error);
  }
  const client = new pg.Client({ connectionString: options.databaseUrl, application_name: "easel-backup" });
  // A connection that breaks emits "error"; the failing query reports it.
  client.on("error", () => {});
  try {
    await client.connect();
    let manifest: Manifest | undefined;
    const tables = await snapshotDatabase(
      client,
      async (database) => {
        manifest = {
          format: FORMAT,
          version: options.secret ? FORMAT_VERSION : UNSIGNED_VERSION,
          createdAt: new Date().toISOString(),
          easelVersion: EASEL_VERSION,
          mode: options.localChain ? "embedded" : "production",
          ...(options.secret ? { signature: "HMAC-SHA256" as const } : {}),
          deployment: options.deployment,
          database,
          excludedTables: EXCLUDED_TABLES,
        };
        await writer.add("manifest.json", Buffer.from(JSON.stringify(manifest, null, 2)));
      },
      (table, index, data) => writer.add(`database/${table}/${pad(index)}.copy`, data),
    );
    const rows = Object.values(tables).reduce((sum, t) => sum + t.rows, 0);
    log(`database: ${Object.keys(tables).length} tables, ${rows.toLocaleString("en")} rows`);
    const done = manifest as Manifest;

    let chain: Summary["chain"] = null;
    if (options.localChain) {
      const files = await options.localChain(done.database.indexed);
      chain = { files: {} };
      for (const [name, data] of Object.entries(files)) {
        await writer.add(`chain/${name}`, data);
        chain.files[name] = { bytes: data.length, sha256: sha256(data) };
      }
      log(`local chain: ${Object.keys(files).join(", ")}`);
    }

    const media = { files: 0, bytes: 0 };
    for (const path of await listBlocks(options.mediaDir)) {
      const block = await readBlock(options.mediaDir, path);
      await writer.addStream(`media/${path}`, block.size, block.content);
      media.files++;
      media.bytes += block.size;
    }
    log(`media: ${media.files.toLocaleString("en")} blocks, ${(media.bytes / 1e6).toFixed(1)} MB`);

    const summary: Summary = { tables, media, chain };
    await writer.add("summary.json", Buffer.from(JSON.stringify(summary, null, 2)));
    await writer.end();
    await rename(partial, options.file);
    return { manifest: done, summary, seconds: (Date.now() - started) / 1000 };
  } catch (error) {
    await writer.abort();
    // A partial file that cannot be removed must not hide why the backup failed.
    await rm(partial, { force: true }).catch(() => {});
    throw named(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Refuses a snapshot of another chain or deployment, naming both. */
export function checkDeployment(snapshot: Deployment, configured: Deployment): void {
  const differs: string[] = [];
  if (snapshot.chainId !== configured.chainId)
    differs.push(`chain id ${snapshot.chainId} (configured: ${configured.chainId}, CHAIN_ID)`);
  for (const [key, name] of [
    ["market", "MARKET_ADDRESS"],
    ["factory", "FACTORY_ADDRESS"],
  ] as const) {
    if (snapshot.contracts[key].toLowerCase() !== configured.contracts[key].toLowerCase())
      differs.push(`${key} ${snapshot.contracts[key]} (configured: ${configured.contracts[key]}, ${name})`);
  }
  if (differs.length > 0)
    throw new RestoreRefused(
      `This snapshot belongs to another chain or deployment: ${differs.join("; ")}. Restore it where Easel is ` +
        "configured for the snapshot's chain and contracts.",
    );
}

/** The manifest at the head of an archive, checked to be an Easel backup this code can read. */
async function nextManifest(entries: ReturnType<typeof readArchive>): Promise<Manifest> {
  const first = await entries.next();
  if (first.done || first.value.name !== "manifest.json")
    throw new ArchiveError("this is not an Easel backup (it does not start with manifest.json)");
  let manifest: Manifest;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of first.value.body()) chunks.push(chunk);
    manifest = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Manifest;
  } catch {
    throw new ArchiveError("this is not an Easel backup (its manifest cannot be read)");
  }
  if (manifest.format !== FORMAT) throw new ArchiveError("this is not an Easel backup (unknown format)");
  if (manifest.version > FORMAT_VERSION)
    throw new RestoreRefused(
      `This backup was written in format ${manifest.version} by a newer Easel; this one reads format ${FORMAT_VERSION}. Update Easel first.`,
    );
  return manifest;
}

/** Reads only the manifest of a backup file (what it is, and whether it holds a local chain). */
export async function readManifest(file: string): Promise<Manifest> {
  const entries = readArchive(file);
  try {
    return await nextManifest(entries);
  } finally {
    await entries.return(undefined);
  }
}

/** What a restore is told to do with the snapshot's local chain (embedded mode), if it holds one. */
export type LocalChainTarget = {
  /** Receives each `chain/*` file of the archive before the database commits; kept aside until `commit`. */
  stage(name: string, data: Buffer): Promise<void>;
};

/**
 * Restores a backup. Before anything changes it reads the manifest and refuses: a file that is not an Easel
 * backup; a snapshot whose chain or contracts differ from `deployment` (when given); a schema newer than this
 * code; a database other sessions use (Easel must be stopped); a database that holds data, unless `force`.
 * The database is then rebuilt in one transaction that commits only once the whole file has been read and
 * every table matched its checksum; a damaged or truncated file leaves the database as it was. Media blocks
 * are added to the store (blocks not in the snapshot stay: tokens minted since may name them).
 *
 * With `secret` (BACKUP_SECRET), the file must carry a signature made with it: the whole file is read and
 * checked first, so a forged or unsigned file changes nothing (not even a media block), and checked again
 * as it is restored, before the commit. Without it, a signed file is restored with a warning that its
 * signature was not checked. `warn` (default: `log`) also hears of a file other users can read.
 */
export async function restoreBackup(options: {
  file: string;
  databaseUrl: string;
  mediaDir: string;
  /** The configured deployment to check the snapshot against; null when the snapshot brings its own chain. */
  deployment: Deployment | null;
  force: boolean;
  localChain?: LocalChainTarget;
  secret?: string | null;
  log?: (message: string) => void;
  warn?: (message: string) => void;
}): Promise<{ manifest: Manifest; summary: Summary; seconds: number }> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const warn = options.warn ?? log;
  const secret = options.secret || null;
  const entries = readArchive(options.file, { secret });
  const client = new pg.Client({ connectionString: options.databaseUrl, application_name: "easel-restore" });
  let connected = false;
  let restore: Awaited<ReturnType<typeof beginRestore>> | null = null;
  try {
    const manifest = await nextManifest(entries);
    const mode = (await stat(options.file)).mode & 0o777;
    if (mode & 0o077)
      warn(
        `${options.file} is open to other users (mode ${mode.toString(8).padStart(4, "0")}): a backup holds ` +
          `members' email addresses, messages and signed confirmation links; make it private with chmod 600 ${options.file}`,
      );
    if (secret) {
      if (manifest.signature !== "HMAC-SHA256") throw new ArchiveError(UNSIGNED_REFUSED);
      // The whole file first: nothing changes unless every byte of it is the one that was signed.
      for await (const _ of readArchive(options.file, { secret }));
    } else if (manifest.signature) {
      warn(
        "this backup is signed, but BACKUP_SECRET is not set: its signature is not checked (set it to the " +
          "secret the backup was taken with to check it)",
      );
    }
    if (options.deployment) checkDeployment(manifest.deployment, options.deployment);
    migrationsUpTo(manifest.database);
    await client.connect();
    connected = true;
    const others = await lingeringSessions(client);
    if (others.length > 0)
      throw new RestoreRefused(
        `Other sessions are connected to the database: ${others.join(", ")}. Stop Easel (api, indexer, worker) ` +
          "before restoring.",
      );
    const holding = await tablesWithData(client);
    if (holding.length > 0 && !options.force)
      throw new RestoreRefused(
        `The database already holds data (${holding.slice(0, 5).join(", ")}${holding.length > 5 ? ", …" : ""}). ` +
          "Restoring replaces all of it: run the restore again with --force to overwrite it.",
      );
    log(
      `restoring the snapshot of ${manifest.createdAt} (chain ${manifest.deployment.chainId}, market ${manifest.deployment.contracts.market})`,
    );
    restore = await beginRestore(client, manifest.database);
    const media = { files: 0, bytes: 0 };
    const chain: Record<string, { bytes: number; sha256: string }> = {};
    let summary: Summary | null = null;
    for await (const entry of entries) {
      // Checked by readArchive when there is a secret (and not yielded then); without one, only skipped.
      if (summary && entry.name === SIGNATURE_ENTRY) continue;
      if (summary) throw new ArchiveError(`the backup has data after its summary (${entry.name})`);
      const table = /^database\/([^/]+)\/(\d+)\.copy$/.exec(entry.name);
      if (table) {
        await restore.part(table[1] as string, Number(table[2]), entry.body());
      } else if (entry.name.startsWith("chain/")) {
        // Kept only where the chain is restored (embedded mode); elsewhere only checked.
        const name = entry.name.slice("chain/".length);
        const hash = createHash("sha256");
        const chunks: Buffer[] = [];
        for await (const chunk of entry.body()) {
          hash.update(chunk);
          if (options.localChain) chunks.push(chunk);
        }
        chain[name] = { bytes: entry.size, sha256: hash.digest("hex") };
        await options.localChain?.stage(name, Buffer.concat(chunks));
      } else if (entry.name.startsWith("media/")) {
        await restoreBlock(options.mediaDir, entry.name.slice("media/".length), entry.body());
        media.files++;
        media.bytes += entry.size;
      } else if (entry.name === "summary.json") {
        const chunks: Buffer[] = [];
        for await (const chunk of entry.body()) chunks.push(chunk);
        summary = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Summary;
      } else {
        throw new ArchiveError(`the backup holds an unknown entry: ${entry.name}`);
      }
    }
    if (!summary) throw new ArchiveError("the backup file is truncated (no summary)");
    if (summary.media.files !== media.files || summary.media.bytes !== media.bytes)
      throw new ArchiveError(
        `the backup is damaged: ${media.files} media blocks read, ${summary.media.files} written`,
      );
    for (const [name, want] of Object.entries(summary.chain?.files ?? {}))
      if (chain[name]?.sha256 !== want.sha256)
        throw new ArchiveError(`the backup is damaged: chain/${name} does not match its checksum`);
    await restore.finish(summary.tables);
    restore = null;
    const rows = Object.values(summary.tables).reduce((sum, t) => sum + t.rows, 0);
    log(
      `database: ${Object.keys(summary.tables).length} tables, ${rows.toLocaleString("en")} rows; media: ${media.files.toLocaleString("en")} blocks`,
    );
    return { manifest, summary, seconds: (Date.now() - started) / 1000 };
  } finally {
    await restore?.abort();
    await entries.return(undefined);
    if (connected) await client.end().catch(() => {});
  }
}
