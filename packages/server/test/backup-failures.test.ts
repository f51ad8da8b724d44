import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ArchiveWriter, readArchive } from "../src/backup/archive.ts";
import {
  backupSecret,
  createBackup,
  type Deployment,
  type Manifest,
  restoreBackup,
  type Summary,
} from "../src/backup/backup.ts";
import { listBlocks } from "../src/backup/media.ts";
import { createScratchDatabase } from "../src/indexer/testing.ts";
import { MediaStore } from "../src/media/store.ts";
import { fullDisk } from "./full-disk.ts";

const run = promisify(execFile);
const serverDir = new URL("..", import.meta.url).pathname;
const fullDiskModule = new URL("./full-disk.ts", import.meta.url).pathname;

/** Fails (instead of hanging the suite) when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still running after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

type Ran = { code: number | null; stdout: string; stderr: string; killed?: boolean; seconds: number };

/** Runs a command of src/bin, bounded: a command still running after 30 s is killed (and the test fails). */
async function bin(args: string[], env: NodeJS.ProcessEnv, preload: string[] = []): Promise<Ran> {
  const started = Date.now();
  const done = await run(process.execPath, ["--import", "tsx", ...preload, ...args], {
    cwd: serverDir,
    env,
    timeout: 30_000,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number | null; stdout: string; stderr: string; killed?: boolean }) => e,
  );
  return {
    code: done.code,
    stdout: done.stdout,
    stderr: done.stderr,
    killed: "killed" in done ? done.killed : false,
    seconds: (Date.now() - started) / 1000,
  };
}

const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");

describe("backups that cannot be written, private files, signed backups", () => {
  const dir = mkdtempSync(join(tmpdir(), "easel-backup-failures-"));
  const mediaDir = join(dir, "media");
  const emptyMedia = join(dir, "no-media");
  const secret = "a backup secret of more than thirty-two characters";
  let source: Awaited<ReturnType<typeof createScratchDatabase>>;
  let target: Awaited<ReturnType<typeof createScratchDatabase>>;
  const admin = () => new pg.Client({ connectionString: inject("databaseUrl") });
  const deployment: Deployment = {
    chainId: 31337,
    contracts: {
      factory: "0x00000000000000000000000000000000000000f1",
      market: "0x00000000000000000000000000000000000000f2",
      defaultCollection: "0x00000000000000000000000000000000000000f3",
      ethUsdFeed: "0x00000000000000000000000000000000000000f4",
    },
    deployBlock: "1",
  };
  /** The production environment of the commands (the configuration the backup records). */
  const env = (): NodeJS.ProcessEnv => {
    const e: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: source.url,
      RPC_URL: inject("rpcUrl"),
      CHAIN_ID: "31337",
      FACTORY_ADDRESS: deployment.contracts.factory,
      MARKET_ADDRESS: deployment.contracts.market,
      DEFAULT_COLLECTION_ADDRESS: deployment.contracts.defaultCollection,
      ETH_USD_FEED_ADDRESS: deployment.contracts.ethUsdFeed,
      DEPLOY_BLOCK: deployment.deployBlock,
      SIGNER_PRIVATE_KEY: "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
      PUBLIC_URL: "http://127.0.0.1:3000",
      LOG_LEVEL: "silent",
      MEDIA_DIR: mediaDir,
      INIT_CWD: dir,
    };
    delete e.BACKUP_SECRET;
    return e;
  };
  /** The sessions a backup opened (it names itself easel-backup) that are still connected. */
  const backupSessions = async () => {
    const client = admin();
    await client.connect();
    try {
      // A backend ends a moment after its client hung up.
      for (let i = 0; ; i++) {
        const { rows } = await client.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE application_name = 'easel-backup'",
        );
        if (rows.length === 0 || i === 20) return rows.length;
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await client.end();
    }
  };
  const profileCount = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM profiles")).rows[0]?.n;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    source = await createScratchDatabase(inject("databaseUrl"), "bkf");
    await source.db.$client.query(
      `INSERT INTO profiles (address, username, email) VALUES
         ('0x00000000000000000000000000000000000000a1', 'alice', 'alice@example.com'),
         ('0x00000000000000000000000000000000000000b2', 'bob', 'bob@example.com')`,
    );
    await source.db.$client.end();
    // Media that do not compress: once the disk is full, the backup still has megabytes to write.
    await new MediaStore(mediaDir).add(randomBytes(3_000_000));
    target = await createScratchDatabase(inject("databaseUrl"), "bkf");
    await target.db.$client.end();
  }, 60_000);

  afterAll(async () => {
    const client = admin();
    await client.connect();
    for (const scratch of [source, target])
      if (scratch)
        await client.query(`DROP DATABASE IF EXISTS ${new URL(scratch.url).pathname.slice(1)} WITH (FORCE)`);
    await client.end();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("a backup whose file cannot be written", () => {
    let big: Awaited<ReturnType<typeof createScratchDatabase>>;
    beforeAll(async () => {
      big = await createScratchDatabase(inject("databaseUrl"), "bkf");
      // ~14 MB of COPY text: its first 8 MiB part is written while the table's COPY is still running.
      await big.db.$client.query(
        `INSERT INTO item_favorites (collection, token_id, address)
         SELECT '0x00000000000000000000000000000000000000aa', i, '0x' || lpad(to_hex(i), 40, '0')
           FROM generate_series(1, 120000) i`,
      );
      await big.db.$client.end();
    }, 60_000);
    afterAll(async () => {
      if (!big) return;
      const client = admin();
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${new URL(big.url).pathname.slice(1)} WITH (FORCE)`);
      await client.end();
    });

    it("fails on a full disk (ENOSPC) naming it, removes its partial file and ends its database session", async () => {
      const file = join(dir, "full.tar.gz");
      const disk = fullDisk({ bytes: 256 * 1024 });
      try {
        await expect(
          within(
            createBackup({ file, databaseUrl: source.url, mediaDir, deployment }),
            15_000,
            "the backup on a full disk",
          ),
        ).rejects.toThrow(`cannot write ${file}: the disk is full (ENOSPC)`);
      } finally {
        disk.restore();
      }
      expect(existsSync(file)).toBe(false);
      expect(existsSync(`${file}.partial`)).toBe(false);
      expect(await backupSessions()).toBe(0);
    });

    it("fails on a full disk in the middle of a table larger than one part (COPY abandoned half-way)", async () => {
      const file = join(dir, "full-table.tar.gz");
      const disk = fullDisk({ bytes: 64 * 1024 });
      try {
        await expect(
          within(
            createBackup({ file, databaseUrl: big.url, mediaDir: emptyMedia, deployment }),
            15_000,
            "the backup on a full disk",
          ),
        ).rejects.toThrow(`cannot write ${file}: the disk is full (ENOSPC)`);
      } finally {
        disk.restore();
      }
      expect(existsSync(`${file}.partial`)).toBe(false);
      expect(await backupSessions()).toBe(0);
    }, 30_000);

    it("fails at once on a folder that does not exist, naming it", async () => {
      const file = join(dir, "no-such-folder", "b.tar.gz");
      await expect(
        within(
          createBackup({ file, databaseUrl: source.url, mediaDir, deployment }),
          10_000,
          "the backup into a missing folder",
        ),
      ).rejects.toThrow(`cannot write ${file}: the folder ${join(dir, "no-such-folder")} does not exist`);
      expect(await backupSessions()).toBe(0);
    });

    it("as npm run backup: exits 1 within seconds with one line, on a full disk and on a missing folder", async () => {
      // The disk fills in the middle of a table, where the command used to wait for ever, holding its
      // database session.
      const full = await bin(
        ["src/bin/backup.ts", "--", "full.tar.gz"],
        { ...env(), DATABASE_URL: big.url, FULL_DISK_BYTES: "65536" },
        ["--import", fullDiskModule],
      );
      expect(full.killed).toBe(false);
      expect(full.code).toBe(1);
      expect(lines(full.stderr)).toEqual([
        `[easel] backup failed: cannot write ${join(dir, "full.tar.gz")}: the disk is full (ENOSPC)`,
      ]);
      expect(full.seconds).toBeLessThan(20);
      expect(readdirSync(dir).filter((f) => f.startsWith("full.tar.gz"))).toEqual([]);

      const missing = await bin(["src/bin/backup.ts", "--", "no-such-folder/b.tar.gz"], env());
      expect(missing.killed).toBe(false);
      expect(missing.code).toBe(1);
      expect(lines(missing.stderr)).toEqual([
        `[easel] backup failed: cannot write ${join(dir, "no-such-folder", "b.tar.gz")}: the folder ${join(dir, "no-such-folder")} does not exist`,
      ]);
    }, 60_000);
  });

  describe("backups are private", () => {
    it("writes the backup and its partial file with mode 0600 whatever the umask", async () => {
      const file = join(dir, "private.tar.gz");
      const umask = process.umask(0);
      const modes: number[] = [];
      try {
        await createBackup({
          file,
          databaseUrl: source.url,
          mediaDir,
          deployment,
          // Called while the file is still being written.
          log: () => modes.push(statSync(`${file}.partial`).mode & 0o777),
        });
      } finally {
        process.umask(umask);
      }
      expect(modes.length).toBeGreaterThan(0);
      expect(modes.every((m) => m === 0o600)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });

    it("as npm run backup under umask 000, and restore warns about a file others can read", async () => {
      const ran = await run(
        "/bin/sh",
        [
          "-c",
          'umask 000 && exec "$0" "$@"',
          process.execPath,
          "--import",
          "tsx",
          "src/bin/backup.ts",
          "--",
          "cli.tar.gz",
        ],
        { cwd: serverDir, env: env(), timeout: 30_000 },
      );
      expect(ran.stdout).toMatch(/wrote .*cli\.tar\.gz/);
      const file = join(dir, "cli.tar.gz");
      expect(statSync(file).mode & 0o777).toBe(0o600);

      // A private file: no warning.
      const warnings: string[] = [];
      const restore = () =>
        restoreBackup({
          file,
          databaseUrl: target.url,
          mediaDir: join(dir, "restored-media"),
          deployment,
          force: true,
          warn: (m) => warnings.push(m),
        });
      await restore();
      expect(warnings).toEqual([]);
      // Readable by everyone: restored, with a warning naming the mode and the fix.
      chmodSync(file, 0o644);
      await restore();
      expect(warnings).toEqual([
        `${file} is open to other users (mode 0644): a backup holds members' email addresses, messages and ` +
          `signed confirmation links; make it private with chmod 600 ${file}`,
      ]);
      // Readable by its group only: warned too.
      chmodSync(file, 0o640);
      await restore();
      expect(warnings[1]).toMatch(/open to other users \(mode 0640\)/);
      // The command prints it on stderr.
      const cli = await bin(["src/bin/restore.ts", "--", "cli.tar.gz", "--force"], {
        ...env(),
        DATABASE_URL: target.url,
        MEDIA_DIR: join(dir, "restored-media"),
      });
      expect(cli.code).toBe(0);
      expect(cli.stderr).toMatch(
        /\[easel\] restore: warning: .*cli\.tar\.gz is open to other users \(mode 0640\)/,
      );
    }, 90_000);
  });

  describe("signed backups (BACKUP_SECRET)", () => {
    const signed = join(dir, "signed.tar.gz");
    const unsigned = join(dir, "unsigned.tar.gz");
    const restoreInto = (file: string, key: string | null, warn?: (m: string) => void) =>
      restoreBackup({
        file,
        databaseUrl: target.url,
        mediaDir: join(dir, "signed-media"),
        deployment,
        force: true,
        secret: key,
        warn,
      });
    /** Empties the target database, so that what a refused restore would have changed shows. */
    const emptyTarget = async () => {
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      await client.query("DELETE FROM profiles");
      await client.end();
      rmSync(join(dir, "signed-media"), { recursive: true, force: true });
    };

    beforeAll(async () => {
      const { manifest } = await createBackup({
        file: signed,
        databaseUrl: source.url,
        mediaDir,
        deployment,
        secret,
      });
      expect(manifest.signature).toBe("HMAC-SHA256");
      expect(manifest.version).toBe(2);
      const plain = await createBackup({ file: unsigned, databaseUrl: source.url, mediaDir, deployment });
      expect(plain.manifest.signature).toBeUndefined();
      expect(plain.manifest.version).toBe(1);
    }, 60_000);

    it("signs the file with a last member, signature.json, that tar lists", async () => {
      const names: string[] = [];
      for await (const entry of readArchive(signed)) names.push(entry.name);
      expect(names.slice(-2)).toEqual(["summary.json", "signature.json"]);
      const { stdout } = await run("tar", ["tzf", signed]);
      expect(lines(stdout)).toEqual(names);
    });

    it("restores a signed file with its secret; refuses it with another secret, and an unsigned one", async () => {
      await emptyTarget();
      await restoreInto(signed, secret);
      expect(await profileCount(target.url)).toBe(2);

      await emptyTarget();
      await expect(restoreInto(signed, `${secret}, but another`)).rejects.toThrow(
        "the backup's signature does not match the backup secret (BACKUP_SECRET)",
      );
      await expect(restoreInto(unsigned, secret)).rejects.toThrow(/the backup is not signed/);
      expect(await profileCount(target.url)).toBe(0);
    }, 60_000);

    it("refuses a signature entry far larger than a signature before reading it", async () => {
      const file = join(dir, "huge-signature.tar.gz");
      const writer = new ArchiveWriter(file);
      await writer.add("manifest.json", Buffer.from("{}"));
      await writer.add("signature.json", Buffer.alloc(64 * 1024, 32));
      await writer.end();
      const read = async () => {
        for await (const entry of readArchive(file, { secret })) for await (const _ of entry.body()) void _;
      };
      await expect(read()).rejects.toThrow("the backup's signature is not one (65536 bytes, at most 4096)");
    });

    it("refuses a forged file whose checksums were recomputed, changing nothing (not even media)", async () => {
      /** A forger's copy: a row changed, its table's checksum in summary.json recomputed to match. */
      const forge = async (to: string, keep: (name: string) => boolean, manifest?: (m: Manifest) => void) => {
        const entries: [string, Buffer][] = [];
        for await (const entry of readArchive(signed)) {
          const chunks: Buffer[] = [];
          for await (const chunk of entry.body()) chunks.push(chunk);
          entries.push([entry.name, Buffer.concat(chunks)]);
        }
        const rows = new Map<string, Buffer>();
        const out: [string, Buffer][] = [];
        for (const [name, data] of entries) {
          if (!keep(name)) continue;
          if (name === "manifest.json" && manifest) {
            const m = JSON.parse(data.toString()) as Manifest;
            manifest(m);
            out.push([name, Buffer.from(JSON.stringify(m))]);
          } else if (name === "database/profiles/000000.copy") {
            const forged = Buffer.from(data.toString().replace("alice@example.com", "forger@example.net"));
            rows.set("profiles", forged);
            out.push([name, forged]);
          } else if (name === "summary.json") {
            const summary = JSON.parse(data.toString()) as Summary;
            const forged = rows.get("profiles") as Buffer;
            summary.tables.profiles = {
              rows: summary.tables.profiles?.rows ?? 0,
              bytes: forged.length,
              sha256: createHash("sha256").update(forged).digest("hex"),
            };
            out.push([name, Buffer.from(JSON.stringify(summary))]);
          } else out.push([name, data]);
        }
        const writer = new ArchiveWriter(to);
        for (const [name, data] of out) await writer.add(name, data);
        await writer.end();
      };
      // The signature of the genuine file kept; dropped (the manifest still says signed); dropped, and
      // the manifest's mention of it too.
      const kept = join(dir, "forged-kept.tar.gz");
      const dropped = join(dir, "forged-dropped.tar.gz");
      const unsaid = join(dir, "forged-unsaid.tar.gz");
      await forge(kept, () => true);
      await forge(dropped, (name) => name !== "signature.json");
      await forge(
        unsaid,
        (name) => name !== "signature.json",
        (m) => {
          delete m.signature;
          m.version = 1;
        },
      );

      await emptyTarget();
      await expect(restoreInto(kept, secret)).rejects.toThrow(
        "the backup's signature does not match the backup secret (BACKUP_SECRET)",
      );
      await expect(restoreInto(dropped, secret)).rejects.toThrow(/the backup is not signed/);
      await expect(restoreInto(unsaid, secret)).rejects.toThrow(/the backup is not signed/);
      expect(await profileCount(target.url)).toBe(0);
      expect(await listBlocks(join(dir, "signed-media"))).toEqual([]);

      // Without the secret the same forgery restores (checksums only detect damage): what the secret stops.
      const warnings: string[] = [];
      await restoreInto(kept, null, (m) => warnings.push(m));
      expect(warnings).toEqual([
        "this backup is signed, but BACKUP_SECRET is not set: its signature is not checked (set it to the " +
          "secret the backup was taken with to check it)",
      ]);
      const client = new pg.Client({ connectionString: target.url });
      await client.connect();
      const { rows } = await client.query("SELECT email FROM profiles WHERE username = 'alice'");
      await client.end();
      expect(rows).toEqual([{ email: "forger@example.net" }]);

      // As npm run restore: one line naming the cause, exit 1.
      const cli = await bin(["src/bin/restore.ts", "--", "forged-kept.tar.gz", "--force"], {
        ...env(),
        DATABASE_URL: target.url,
        MEDIA_DIR: join(dir, "signed-media"),
        BACKUP_SECRET: secret,
      });
      expect(cli.code).toBe(1);
      expect(lines(cli.stderr)).toEqual([
        "[easel] restore failed: the backup's signature does not match the backup secret (BACKUP_SECRET): " +
          "the file was changed after it was written, or signed with another secret",
      ]);
    }, 90_000);

    it("reads BACKUP_SECRET: empty is unset, a short one is refused", () => {
      expect(backupSecret({})).toBeNull();
      expect(backupSecret({ BACKUP_SECRET: "" })).toBeNull();
      expect(backupSecret({ BACKUP_SECRET: secret })).toBe(secret);
      expect(() => backupSecret({ BACKUP_SECRET: "short" })).toThrow(
        "BACKUP_SECRET must be at least 32 characters",
      );
    });
  });
});
