import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createBackup, restoreBackup } from "../src/backup/backup.ts";
import { embeddedBackupSource, embeddedRestoreTarget } from "../src/backup/embedded.ts";
import { listBlocks } from "../src/backup/media.ts";
import { createDatabase, migrateDatabase } from "../src/db/client.ts";
import { startAnvil } from "../src/embedded/anvil.ts";
import { embeddedLayout } from "../src/embedded/layout.ts";
import { type EmbeddedPostgres, startPostgres } from "../src/embedded/postgres.ts";
import { freePort } from "../src/embedded/process.ts";
import {
  admin,
  artist,
  configFor,
  driver,
  dumpTables,
  indexerOptions,
  indexToHead,
  publicClientFor,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { MediaStore } from "../src/media/store.ts";

const run = promisify(execFile);

/** `npm start`'s data folder: backed up while it runs (chain through anvil's RPC), restored into a new one. */
describe("backup and restore of npm start's data folder", () => {
  const dir = mkdtempSync(join(tmpdir(), "easel-backup-embedded-"));
  // PostgreSQL runs as the postgres user when we are root: it must be able to reach its folder.
  chmodSync(dir, 0o755);
  const file = join(dir, "local.tar.gz");
  let t: TestChain;
  let postgres: EmbeddedPostgres;
  let launcher: ChildProcess;
  const source = () =>
    embeddedLayout({ EASEL_DATA_DIR: join(dir, "a"), EASEL_CHAIN_PORT: new URL(t.url).port });
  const target = embeddedLayout({ EASEL_DATA_DIR: join(dir, "b") });
  let before: Awaited<ReturnType<typeof dumpTables>>;
  let profiles: unknown[];

  beforeAll(async () => {
    t = await startTestChain();
    const layout = source();
    mkdirSync(layout.dataDir, { recursive: true });
    writeFileSync(layout.deploymentFile, JSON.stringify(t.deployment));
    postgres = await startPostgres({ dataDir: layout.postgresDir, port: await freePort() });
    const db = createDatabase(postgres.url);
    await migrateDatabase(db);
    const d = driver(t);
    await d.market(admin, "setArtistVerified", [artist.address, true]);
    const art = await d.createCollection(artist, "Tides", "TIDE");
    await d.mint(artist, art, 1n);
    await indexToHead(indexerOptions(db, configFor(t, postgres.url), publicClientFor(t)));
    const cid = await new MediaStore(layout.mediaDir).add(Buffer.from("a local artwork"));
    await db.$client.query("INSERT INTO profiles (address, username, avatar) VALUES ($1, 'tide', $2)", [
      artist.address.toLowerCase(),
      cid,
    ]);
    before = await dumpTables(db);
    profiles = (await db.$client.query("SELECT * FROM profiles")).rows;
    await db.$client.end();
    // A running launcher: another live process whose id is in easel.pid.
    launcher = spawn("sleep", ["120"], { stdio: "ignore" });
    writeFileSync(layout.pidFile, String(launcher.pid));
  }, 120_000);

  afterAll(async () => {
    launcher?.kill();
    await postgres?.stop();
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a chain on EASEL_CHAIN_PORT that is not the folder's", async () => {
    const wrong = embeddedLayout({
      EASEL_DATA_DIR: join(dir, "a"),
      EASEL_CHAIN_PORT: new URL(inject("rpcUrl")).port,
    });
    const from = await embeddedBackupSource(wrong);
    await expect(
      createBackup({
        file: join(dir, "wrong.tar.gz"),
        databaseUrl: from.databaseUrl,
        mediaDir: wrong.mediaDir,
        deployment: from.deployment,
        localChain: from.localChain,
      }),
    ).rejects.toThrow(/is not the one of/);
  });

  it("backs up the running stack and restores the whole marketplace into a new folder", async () => {
    const layout = source();
    const from = await embeddedBackupSource(layout);
    expect(from.running).toBe(launcher.pid);
    expect(from.databaseUrl).toBe(postgres.url);
    const { summary } = await createBackup({
      file,
      databaseUrl: from.databaseUrl,
      mediaDir: layout.mediaDir,
      deployment: from.deployment,
      localChain: from.localChain,
    });
    expect(Object.keys(summary.chain?.files ?? {}).sort()).toEqual(["deployment.json", "state.json"]);
    const head = await t.publicClient.getBlock();

    const into = await embeddedRestoreTarget(target, false);
    try {
      await restoreBackup({
        file,
        databaseUrl: into.databaseUrl,
        mediaDir: into.mediaDir,
        deployment: null,
        force: false,
        localChain: into.localChain,
      });
      await into.commit();
      const db = createDatabase(into.databaseUrl);
      expect(await dumpTables(db)).toEqual(before);
      expect((await db.$client.query("SELECT * FROM profiles")).rows).toEqual(profiles);
      await db.$client.end();
    } finally {
      await into.close();
    }
    expect(JSON.parse(readFileSync(target.deploymentFile, "utf8"))).toEqual(t.deployment);
    expect(await listBlocks(target.mediaDir)).toEqual(await listBlocks(layout.mediaDir));

    // anvil started on the restored state has the same blocks and the contracts.
    const anvil = await startAnvil({ port: await freePort(), stateFile: target.chainStateFile });
    try {
      const restored = publicClientFor({ ...t, url: anvil.url } as TestChain);
      const block = await restored.getBlock({ blockNumber: head.number });
      expect(block.hash).toBe(head.hash);
      expect(await restored.getCode({ address: t.market })).toBe(
        await t.publicClient.getCode({ address: t.market }),
      );
    } finally {
      await anvil.stop();
    }
  }, 60_000);

  it("a restore that fails leaves no half-made data folder and no easel.pid", async () => {
    const truncated = join(dir, "truncated.tar.gz");
    const whole = readFileSync(file);
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)), { mode: 0o600 });
    // Into a folder that does not exist: it does not exist afterwards.
    const fresh = embeddedLayout({ EASEL_DATA_DIR: join(dir, "c") });
    const into = await embeddedRestoreTarget(fresh, false);
    try {
      await expect(
        restoreBackup({
          file: truncated,
          databaseUrl: into.databaseUrl,
          mediaDir: into.mediaDir,
          deployment: null,
          force: false,
          localChain: into.localChain,
        }),
      ).rejects.toThrow(/truncated|damaged/);
    } finally {
      await into.close();
    }
    expect(existsSync(fresh.dataDir)).toBe(false);

    // As npm run restore, into an empty folder: exit 1, one line, and the folder is empty again.
    const empty = join(dir, "d");
    mkdirSync(empty);
    const env: NodeJS.ProcessEnv = { ...process.env, EASEL_DATA_DIR: empty, INIT_CWD: dir };
    delete env.DATABASE_URL;
    delete env.BACKUP_SECRET;
    const failed = await run(
      process.execPath,
      ["--import", "tsx", "src/bin/restore.ts", "--", "truncated.tar.gz"],
      { cwd: new URL("..", import.meta.url).pathname, env, timeout: 60_000 },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).toBe(1);
    expect((failed as { stderr: string }).stderr.trim()).toMatch(
      /^\[easel\] restore failed: .*(truncated|damaged)[^\n]*$/,
    );
    expect(readdirSync(empty)).toEqual([]);
  }, 120_000);

  it("refuses a folder that holds a marketplace unless --force, and a running Easel always", async () => {
    await expect(embeddedRestoreTarget(target, false)).rejects.toThrow(
      /already holds a local marketplace.*--force/,
    );
    const busy = embeddedLayout({ EASEL_DATA_DIR: join(dir, "a") });
    await expect(embeddedRestoreTarget(busy, true)).rejects.toThrow(
      `Easel is running (process ${launcher.pid})`,
    );
  });
});
