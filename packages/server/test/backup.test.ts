import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";
import { parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ArchiveWriter, readArchive } from "../src/backup/archive.ts";
import { createBackup, type Deployment, type Manifest, restoreBackup } from "../src/backup/backup.ts";
import { EXCLUDED_TABLES } from "../src/backup/database.ts";
import { listBlocks } from "../src/backup/media.ts";
import type { Config } from "../src/config.ts";
import {
  applyMigrations,
  codeMigrations,
  createDatabase,
  type Database,
  migrateDatabase,
} from "../src/db/client.ts";
import { resetChainData } from "../src/indexer/indexer.ts";
import {
  alice,
  artist,
  bob,
  carol,
  configFor,
  createScratchDatabase,
  driver,
  dumpTables,
  indexerOptions,
  indexToHead,
  publicClientFor,
  runFullFlow,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { MediaStore } from "../src/media/store.ts";

const run = promisify(execFile);
const serverDir = new URL("..", import.meta.url).pathname;

type Scratch = Awaited<ReturnType<typeof createScratchDatabase>>;

/** Every app table (not the chain's, not the ones a backup leaves out), ordered, as rows. */
async function appTables(db: Database): Promise<Record<string, unknown[]>> {
  const { rows: tables } = await db.$client.query<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1",
  );
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables) {
    if (name.startsWith("chain_") || name === "indexer_state" || name in EXCLUDED_TABLES) continue;
    out[name] = (await db.$client.query(`SELECT * FROM ${name} t ORDER BY t::text`)).rows;
  }
  return out;
}

/** The media store's blocks and a hash of each. */
async function mediaFiles(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of await listBlocks(dir))
    out[path] = createHash("sha256")
      .update(readFileSync(join(dir, path)))
      .digest("hex");
  return out;
}

/** Rewrites an archive entry by entry (a backup from another Easel, or a crafted one, for the refusals). */
async function rewriteArchive(
  from: string,
  to: string,
  change: (name: string, data: Buffer) => [string, Buffer][],
) {
  const writer = new ArchiveWriter(to);
  for await (const entry of readArchive(from)) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body()) chunks.push(chunk);
    for (const [name, data] of change(entry.name, Buffer.concat(chunks))) await writer.add(name, data);
  }
  await writer.end();
}

const withManifest =
  (change: (m: Manifest) => void) =>
  (name: string, data: Buffer): [string, Buffer][] => {
    if (name !== "manifest.json") return [[name, data]];
    const manifest = JSON.parse(data.toString()) as Manifest;
    change(manifest);
    return [[name, Buffer.from(JSON.stringify(manifest))]];
  };

describe("backup and restore", () => {
  const dir = mkdtempSync(join(tmpdir(), "easel-backup-"));
  const file = join(dir, "snapshot.tar.gz");
  let t: TestChain;
  let source: Scratch;
  let target: Scratch;
  let sourceDb: Database;
  let deployment: Deployment;
  const mediaDir = join(dir, "media");
  const snapshot: {
    app: Record<string, unknown[]>;
    chain: Record<string, unknown[]>;
    media: Record<string, string>;
  } = { app: {}, chain: {}, media: {} };
  const withDb = (url: string): Config => ({ ...configFor(t, url), mediaDir });
  const index = (db: Database, url: string) =>
    indexToHead(indexerOptions(db, withDb(url), publicClientFor(t)));

  beforeAll(async () => {
    t = await startTestChain();
    source = await createScratchDatabase(inject("databaseUrl"), "bk");
    sourceDb = source.db;
    deployment = {
      chainId: 31337,
      contracts: {
        factory: t.factory.toLowerCase(),
        market: t.market.toLowerCase(),
        defaultCollection: t.defaultCollection.toLowerCase(),
        ethUsdFeed: String(t.deployment.contracts.ethUsdFeed).toLowerCase(),
      },
      deployBlock: t.deployment.deployBlock,
    };

    // Media: a small file (one block) and a larger one (several blocks and a DAG node).
    const store = new MediaStore(mediaDir);
    const small = await store.add(Buffer.from("a small artwork"));
    const large = await store.add(randomBytes(700_000));

    // App rows, with values COPY must escape (tabs, newlines, backslashes, quotes, non-ASCII, NULLs, JSON).
    const q = (text: string, values: unknown[] = []) => sourceDb.$client.query(text, values);
    const [a, b, c] = [artist.address, alice.address, bob.address].map((x) => x.toLowerCase()) as string[];
    await q(
      `INSERT INTO profiles (address, username, name, bio, avatar, social, notif_allow, lazy_collections)
       VALUES ($1, 'artist', 'Ada\tOkafor', E'line one\\nline two \\\\ back\\\\slash "quoted" — naïve 🎨', $4,
               '{"twitter":"https://x.com/ada"}', '{"auction":false}', 2),
              ($2, 'alice', NULL, NULL, NULL, '{}', '{}', 0),
              ($3, 'bob', 'Bob', 'banned', NULL, '{}', '{}', 0)`,
      [a, b, c, small],
    );
    await q(
      "UPDATE profiles SET active = false, banned_at = now(), banned_by = 'moderator' WHERE address = $1",
      [c],
    );
    await q("INSERT INTO follows (follower, followee) VALUES ($1, $2), ($3, $2)", [b, a, c]);
    await q(
      `INSERT INTO notifications (address, kind, message, data) VALUES ($1, 'follow', 'alice followed you', '{"from":"alice"}')`,
      [a],
    );
    // The chain: every kind of event (with the follows above, listings notify followers), indexed.
    const { art } = await runFullFlow(t);
    await index(sourceDb, source.url);
    await q("INSERT INTO collection_favorites (collection, address) VALUES ($1, $2)", [art.toLowerCase(), b]);
    // As the API hearts an item: watching from the block indexed then (watch alerts are for later events).
    await q(
      `INSERT INTO item_favorites (collection, token_id, address, since_block)
       VALUES ($1, 2, $2, (SELECT max(indexed_block) FROM indexer_state))`,
      [art.toLowerCase(), b],
    );
    await q("INSERT INTO item_stats (collection, token_id, views, favorites) VALUES ($1, 2, 5, 1)", [
      art.toLowerCase(),
    ]);
    await q("INSERT INTO categories (title) VALUES ('Textile')");
    await q(
      `INSERT INTO media (cid, mime, size, uploader) VALUES ($1, 'image/png', 15, $3), ($2, 'video/mp4', 700000, $3)`,
      [small, large, a],
    );
    await q(
      `INSERT INTO reports (reporter, reason, email, description, target_type, target_id, status, reviewed_by, reviewed_at)
       VALUES ($1, 'spam', 'a@example.com', 'spam item', 'item', 'x', 'resolved', 'moderator', now())`,
      [b],
    );
    await q(
      `INSERT INTO collection_details (address, category_id, description_text, featured_at)
       VALUES ($1, (SELECT id FROM categories WHERE title = 'Textile'), 'Sunsets over water', now())`,
      [art.toLowerCase()],
    );
    // Left out of every backup: a session must not come back after a restore.
    await q(
      "INSERT INTO sessions (token_hash, address, chain_id, expires_at) VALUES ('h', $1, 31337, now() + interval '1 day')",
      [a],
    );
    await q("INSERT INTO rate_limit_counters (key, count, window_ends) VALUES ('k', 3, now())");

    // The backup, taken while nothing else writes, so the tables read now are the snapshot.
    const result = await createBackup({ file, databaseUrl: source.url, mediaDir, deployment });
    expect(result.manifest.database.indexed?.block).toBe((await t.publicClient.getBlockNumber()).toString());
    snapshot.app = await appTables(sourceDb);
    snapshot.chain = await dumpTables(sourceDb);
    snapshot.media = await mediaFiles(mediaDir);
    expect(Object.keys(snapshot.media).length).toBeGreaterThan(3);
    expect(snapshot.app.profiles).toHaveLength(3);

    // Changes after the backup: new, changed and deleted rows, new media, more chain transactions.
    await q("INSERT INTO profiles (address, username) VALUES ($1, 'carol')", [carol.address.toLowerCase()]);
    await q("UPDATE profiles SET bio = 'changed' WHERE address = $1", [a]);
    await q("DELETE FROM follows WHERE follower = $1", [b]);
    await q("DELETE FROM notifications WHERE kind = 'follow'");
    await q("DELETE FROM categories WHERE title = 'Photography'");
    await store.add(Buffer.from("uploaded after the backup"));
    const d = driver(t);
    await d.mint(artist, art, 5n);
    await d.market(artist, "setSellOrder", [art, 5n, parseEther("0.4")]);
    await d.market(carol, "buyNow", [art, 5n], parseEther("0.4"));
    await index(sourceDb, source.url);
    target = await createScratchDatabase(inject("databaseUrl"), "bk");
    // The restore refuses while other sessions use the database: end the test's own pools.
    await target.db.$client.end();
  }, 180_000);

  afterAll(async () => {
    await sourceDb?.$client.end().catch(() => {});
    // The scratch databases' own pools were ended by the tests: drop the databases by name.
    const admin = new pg.Client({ connectionString: inject("databaseUrl") });
    await admin.connect();
    for (const scratch of [source, target])
      if (scratch)
        await admin.query(`DROP DATABASE IF EXISTS ${new URL(scratch.url).pathname.slice(1)} WITH (FORCE)`);
    await admin.end();
    await t?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("is one gzip tar whose manifest says what the snapshot is", async () => {
    const names: string[] = [];
    for await (const entry of readArchive(file)) names.push(entry.name);
    expect(names[0]).toBe("manifest.json");
    expect(names.at(-1)).toBe("summary.json");
    expect(names).toContain("database/profiles/000000.copy");
    expect(names).toContain("database/chain_events/000000.copy");
    expect(names.filter((n) => n.startsWith("media/"))).toHaveLength(Object.keys(snapshot.media).length);
    for (const excluded of Object.keys(EXCLUDED_TABLES))
      expect(names.some((n) => n.startsWith(`database/${excluded}/`))).toBe(false);
    const { stdout } = await run("tar", ["tzf", file]);
    expect(stdout.trim().split("\n")).toEqual(names);
  });

  it("refuses a snapshot of another chain or deployment, naming both", async () => {
    const other = "0x1111111111111111111111111111111111111111";
    const restore = (d: Deployment) =>
      restoreBackup({
        file,
        databaseUrl: target.url,
        mediaDir: join(dir, "unused"),
        deployment: d,
        force: true,
      });
    await expect(
      restore({ ...deployment, contracts: { ...deployment.contracts, market: other } }),
    ).rejects.toThrow(`market ${deployment.contracts.market} (configured: ${other}, MARKET_ADDRESS)`);
    await expect(restore({ ...deployment, chainId: 11155111 })).rejects.toThrow(
      "chain id 31337 (configured: 11155111, CHAIN_ID)",
    );
  });

  it("refuses a snapshot newer than the code, and a file that is not a backup", async () => {
    const newer = join(dir, "newer.tar.gz");
    await rewriteArchive(
      file,
      newer,
      withManifest((m) => {
        m.database.migrations.push({ hash: "f".repeat(64), createdAt: Date.now() });
      }),
    );
    const restore = (path: string) =>
      restoreBackup({
        file: path,
        databaseUrl: target.url,
        mediaDir: join(dir, "unused"),
        deployment,
        force: true,
      });
    await expect(restore(newer)).rejects.toThrow(/taken by a newer Easel.*Update Easel/);
    const junk = join(dir, "junk.tar.gz");
    writeFileSync(junk, "not a backup at all");
    await expect(restore(junk)).rejects.toThrow("not valid gzip data");
  });

  it("refuses crafted and tampered files, leaving the database as it was", async () => {
    const restore = (path: string) =>
      restoreBackup({
        file: path,
        databaseUrl: target.url,
        mediaDir: join(dir, "unused"),
        deployment,
        force: true,
      });
    // A media name that climbs out of MEDIA_DIR.
    const climbing = join(dir, "climbing.tar.gz");
    await rewriteArchive(file, climbing, (name, data) =>
      name === "summary.json"
        ? [
            ["media/../../escaped.data", Buffer.from("x")],
            [name, data],
          ]
        : [[name, data]],
    );
    await expect(restore(climbing)).rejects.toThrow("not a block: ../../escaped.data");
    expect(existsSync(join(dir, "..", "escaped.data"))).toBe(false);
    // A row changed after the backup was written.
    const row = join(dir, "row.tar.gz");
    await rewriteArchive(file, row, (name, data) => [
      [
        name,
        name.startsWith("database/profiles/") ? Buffer.from(data.toString().replace("alice", "alicf")) : data,
      ],
    ]);
    await expect(restore(row)).rejects.toThrow("table profiles does not match its checksum");
    // A media block whose bytes are not the ones its name hashes.
    const block = join(dir, "block.tar.gz");
    let changed = false;
    await rewriteArchive(file, block, (name, data) => {
      if (changed || !name.startsWith("media/")) return [[name, data]];
      changed = true;
      return [[name, Buffer.concat([data, Buffer.from("!")])]];
    });
    await expect(restore(block)).rejects.toThrow(/media block .* does not match its hash/);
    // The target is still the empty, migrated database it was.
    const db = createDatabase(target.url);
    expect((await db.$client.query("SELECT count(*)::int AS n FROM profiles")).rows[0]?.n).toBe(0);
    expect((await db.$client.query("SELECT count(*)::int AS n FROM categories")).rows[0]?.n).toBe(12);
    await db.$client.end();
  });

  it("restores into a fresh database: app tables, chain tables and media equal the snapshot", async () => {
    const targetMedia = join(dir, "target-media");
    // A migrated database with no data (only the categories its migrations write) needs no --force.
    await restoreBackup({ file, databaseUrl: target.url, mediaDir: targetMedia, deployment, force: false });
    const db = createDatabase(target.url);
    try {
      expect(await appTables(db)).toEqual(snapshot.app);
      expect(await dumpTables(db)).toEqual(snapshot.chain);
      expect(await mediaFiles(targetMedia)).toEqual(snapshot.media);
      for (const excluded of Object.keys(EXCLUDED_TABLES))
        expect((await db.$client.query(`SELECT * FROM ${excluded}`)).rows).toEqual([]);
      // The schema is the migrated one: every index rebuilt after the load, every trigger on again.
      const schema = async (d: Database) => ({
        indexes: (
          await d.$client.query(
            "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1",
          )
        ).rows,
        triggers: (
          await d.$client.query("SELECT tgname, tgenabled FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1")
        ).rows,
      });
      const migrated = await schema(sourceDb);
      expect(migrated.indexes.length).toBeGreaterThan(50);
      expect(migrated.triggers.length).toBeGreaterThan(3);
      expect(await schema(db)).toEqual(migrated);
      // Identity columns continue after the restored rows.
      const { rows } = await db.$client.query<{ id: number }>(
        "INSERT INTO categories (title) VALUES ('After restore') RETURNING id",
      );
      const max = Math.max(...(snapshot.app.categories as { id: number }[]).map((r) => r.id));
      expect(rows[0]?.id).toBe(max + 1);
      await db.$client.query("DELETE FROM categories WHERE title = 'After restore'");
      // The media the rows name can be read back.
      const store = new MediaStore(targetMedia);
      // A backup holds blocks, not the store's record of its dag-pb nodes: the rows name the files, as for the API.
      const named = new Set((snapshot.app.media as { cid: string }[]).map((row) => row.cid));
      store.recognizeRoots(async (cid) => named.has(cid));
      for (const row of snapshot.app.media as { cid: string; size: number }[]) {
        const file = await store.read(MediaStore.parseCid(row.cid) as never);
        let size = 0;
        for await (const chunk of file?.content ?? []) size += chunk.length;
        expect(size).toBe(row.size);
      }

      // The indexer catches up with what the chain did since, and ends where a fresh index of the chain
      // ends: its chain tables emptied and read again from the deployment block, over the same app data
      // (a token's category is a copy of its collection's, an app row), give the same tables, notifications
      // included (replays write none twice, so a missing one would appear).
      await index(db, target.url);
      const caughtUp = await dumpTables(db);
      expect(caughtUp.indexer_state).toEqual([
        { chain_id: 31337, indexed_block: String(await t.publicClient.getBlockNumber()) },
      ]);
      // Token 5, minted and sold after the backup.
      expect(caughtUp.chain_tokens).toHaveLength((snapshot.chain.chain_tokens?.length ?? 0) + 1);
      await resetChainData(db.$client);
      expect((await dumpTables(db)).chain_tokens).toEqual([]);
      await index(db, target.url);
      expect(await dumpTables(db)).toEqual(caughtUp);
    } finally {
      await db.$client.end();
    }
  }, 120_000);

  it("refuses to overwrite a database that holds data unless --force, and other sessions always", async () => {
    await sourceDb.$client.end();
    await expect(
      restoreBackup({ file, databaseUrl: source.url, mediaDir, deployment, force: false }),
    ).rejects.toThrow(/already holds data \(.*\).*--force/);
    const open = createDatabase(source.url);
    await open.$client.query("SELECT 1");
    try {
      await expect(
        restoreBackup({ file, databaseUrl: source.url, mediaDir, deployment, force: true }),
      ).rejects.toThrow(/Other sessions are connected.*Stop Easel/);
    } finally {
      await open.$client.end();
    }
    // Nothing changed: the rows written after the backup are still there.
    sourceDb = createDatabase(source.url);
    const { rows } = await sourceDb.$client.query("SELECT 1 FROM profiles WHERE username = 'carol'");
    expect(rows).toHaveLength(1);
    await sourceDb.$client.end();
  });

  it("with --force replaces the changed database; a damaged file changes nothing", async () => {
    const truncated = join(dir, "truncated.tar.gz");
    writeFileSync(truncated, readFileSync(file).subarray(0, Math.floor(statSync(file).size * 0.6)));
    await expect(
      restoreBackup({ file: truncated, databaseUrl: source.url, mediaDir, deployment, force: true }),
    ).rejects.toThrow(/truncated|damaged/);
    sourceDb = createDatabase(source.url);
    expect(
      (await sourceDb.$client.query("SELECT 1 FROM profiles WHERE username = 'carol'")).rows,
    ).toHaveLength(1);
    await sourceDb.$client.end();

    await restoreBackup({ file, databaseUrl: source.url, mediaDir, deployment, force: true });
    sourceDb = createDatabase(source.url);
    expect(await appTables(sourceDb)).toEqual(snapshot.app);
    expect(await dumpTables(sourceDb)).toEqual(snapshot.chain);
    // Blocks added since stay (a token minted since may name them); the snapshot's are all there.
    const media = await mediaFiles(mediaDir);
    expect(media).toMatchObject(snapshot.media);
    expect(Object.keys(media).length).toBe(Object.keys(snapshot.media).length + 1);
  }, 60_000);

  it("runs as npm run restore: the refusal names --force and exits 1", async () => {
    const env = {
      ...process.env,
      ...t.env(source.url),
      MEDIA_DIR: mediaDir,
      DATABASE_URL: source.url,
      INIT_CWD: dir,
    };
    await sourceDb.$client.end();
    const error = await run(
      process.execPath,
      ["--import", "tsx", "src/bin/restore.ts", "--", "snapshot.tar.gz"],
      { cwd: serverDir, env },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((error as { code: number }).code).toBe(1);
    expect((error as { stderr: string }).stderr).toMatch(
      /restore failed: The database already holds data.*--force/,
    );
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "src/bin/restore.ts", "--", "snapshot.tar.gz", "--force"],
      { cwd: serverDir, env },
    );
    expect(stdout).toMatch(/restored .*snapshot\.tar\.gz/);
    const backup = await run(
      process.execPath,
      ["--import", "tsx", "src/bin/backup.ts", "--", "again.tar.gz"],
      {
        cwd: serverDir,
        env,
      },
    );
    expect(backup.stdout).toMatch(/wrote .*again\.tar\.gz/);
    // A backup never overwrites a file.
    const again = await run(
      process.execPath,
      ["--import", "tsx", "src/bin/backup.ts", "--", "again.tar.gz"],
      {
        cwd: serverDir,
        env,
      },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((again as { stderr: string }).stderr).toMatch(/already exists/);
    sourceDb = createDatabase(source.url);
  }, 60_000);

  it("is one snapshot while Easel writes: rows written together are backed up together", async () => {
    const busy = await createScratchDatabase(inject("databaseUrl"), "bk");
    const restored = await createScratchDatabase(inject("databaseUrl"), "bk");
    await restored.db.$client.end();
    try {
      // Many favourites, so copying the tables takes a while; each new favourite and its count change in
      // one transaction, as the API writes them. item_favorites is copied before item_stats: read at
      // different moments, the counts would not match the rows.
      const collection = "0x00000000000000000000000000000000000000aa";
      await busy.db.$client.query(
        `INSERT INTO item_favorites (collection, token_id, address)
         SELECT $1, 1, '0x' || lpad(to_hex(i), 40, '0') FROM generate_series(1, 200000) i`,
        [collection],
      );
      await busy.db.$client.query(
        "INSERT INTO item_stats (collection, token_id, favorites) VALUES ($1, 1, 200000)",
        [collection],
      );
      let writing = true;
      let writes = 0;
      const writer = (async () => {
        for (let i = 200001; writing; i++) {
          await busy.db.transaction(async (tx) => {
            await tx.execute(
              sql`INSERT INTO item_favorites (collection, token_id, address) VALUES (${collection}, 1, ${`0x${i.toString(16).padStart(40, "0")}`})`,
            );
            await tx.execute(
              sql`UPDATE item_stats SET favorites = favorites + 1 WHERE collection = ${collection} AND token_id = 1`,
            );
          });
          writes++;
        }
      })();
      const backup = join(dir, "busy.tar.gz");
      try {
        await createBackup({ file: backup, databaseUrl: busy.url, mediaDir: join(dir, "none"), deployment });
      } finally {
        writing = false;
        await writer;
      }
      expect(writes).toBeGreaterThan(0);
      await restoreBackup({
        file: backup,
        databaseUrl: restored.url,
        mediaDir: join(dir, "none"),
        deployment,
        force: false,
      });
      const db = createDatabase(restored.url);
      const { rows } = await db.$client.query<{ rows: number; counted: number }>(
        `SELECT (SELECT count(*)::int FROM item_favorites) AS rows, (SELECT favorites FROM item_stats) AS counted`,
      );
      await db.$client.end();
      expect(rows[0]?.rows).toBeGreaterThanOrEqual(200000);
      expect(rows[0]?.counted).toBe(rows[0]?.rows);
    } finally {
      await busy.drop();
      const admin = new pg.Client({ connectionString: inject("databaseUrl") });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(restored.url).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
    }
  }, 120_000);

  it("restores a snapshot of an older schema, then migrates its data forward", async () => {
    const name = `bk_old_${Date.now().toString(36)}`;
    const base = new URL(inject("databaseUrl"));
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    const urls = [`${name}_a`, `${name}_b`].map((db) => {
      const url = new URL(base);
      url.pathname = `/${db}`;
      return url.toString();
    }) as [string, string];
    for (const url of urls) await admin.query(`CREATE DATABASE ${new URL(url).pathname.slice(1)}`);
    try {
      // An Easel from before migration 0017 (the token's copy of its listing's end), with a listed token.
      const OLDER_LEVEL = 17; // migrations 0000–0016
      const older = new pg.Client({ connectionString: urls[0] });
      older.on("error", () => {});
      await older.connect();
      const migrations = codeMigrations();
      await older.query("BEGIN");
      await applyMigrations(older, migrations.slice(0, OLDER_LEVEL));
      await older.query("COMMIT");
      const collection = "0x00000000000000000000000000000000000000bb";
      await older.query(
        `INSERT INTO chain_tokens (collection, token_id, owner, holder, status, minted_block, minted_at, mint_tx, updated_block)
         VALUES ($1, 1, '0x1', '0x1', 'fix', 1, now(), '0x', 1)`,
        [collection],
      );
      await older.query(
        `INSERT INTO chain_sell_orders (collection, token_id, seller, price, expires_at, status, listed_block, listed_tx, listed_at, updated_block)
         VALUES ($1, 1, '0x1', 5, '2030-01-01T00:00:00Z', 'active', 1, '0x', now(), 1)`,
        [collection],
      );
      await older.end();
      const backup = join(dir, "older.tar.gz");
      const { manifest } = await createBackup({
        file: backup,
        databaseUrl: urls[0],
        mediaDir: join(dir, "none"),
        deployment,
      });
      expect(manifest.database.migrations).toHaveLength(OLDER_LEVEL);

      await restoreBackup({
        file: backup,
        databaseUrl: urls[1],
        mediaDir: join(dir, "none"),
        deployment,
        force: false,
      });
      const db = createDatabase(urls[1]);
      try {
        // The newer migrations ran on the restored rows (0017 fills the token's copy of its listing's end)…
        const { rows } = await db.$client.query<{ listing_expires_at: Date }>(
          "SELECT listing_expires_at FROM chain_tokens",
        );
        expect(rows[0]?.listing_expires_at.toISOString()).toBe("2030-01-01T00:00:00.000Z");
        // …and is recorded as drizzle records it, so starting Easel applies nothing twice.
        const { rows: applied } = await db.$client.query<{ hash: string; created_at: string }>(
          'SELECT hash, created_at FROM "drizzle"."__drizzle_migrations" ORDER BY id',
        );
        expect(applied.map((m) => [m.hash, Number(m.created_at)])).toEqual(
          migrations.map((m) => [m.hash, m.folderMillis]),
        );
        await migrateDatabase(db);
      } finally {
        await db.$client.end();
      }
    } finally {
      for (const url of urls)
        await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
    }
  }, 60_000);
});
