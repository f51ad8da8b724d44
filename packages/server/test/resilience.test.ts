/**
 * PostgreSQL going away under write load, for real: the API, the indexer and the worker run as their
 * production processes against a private PostgreSQL, which is restarted (fast shutdown, then started again on
 * the same data folder and port) and whose sessions are all terminated (as a failover or an operator does),
 * while signed-in users follow people over HTTP.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startPostgres } from "../src/embedded/postgres.ts";
import { freePort } from "../src/embedded/process.ts";
import {
  artist,
  driver,
  admin as marketAdmin,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { MAIL_JOBS } from "../src/mail/jobs.ts";
import { exited, stack } from "./launcher-helpers.ts";
import { openStream, type RoleProcess, signIn, sleep, startRole, until } from "./roles-helpers.ts";

const USERS = 12;
/** Each user's follows are this far apart: under the route's 30 a minute. */
const FOLLOW_EVERY_MS = 2_200;
const READ_EVERY_MS = 300;

type Sample = {
  kind: "follow" | "session" | "explore";
  start: number;
  end: number;
  status: number;
  retryAfter: string | null;
  error?: string;
  follower?: string;
  target?: string;
  following?: boolean;
};

let dir: string;
let postgres: EmbeddedPostgres;
let port: number;
let chain: TestChain;
const roles: RoleProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "easel-resilience-"));
  // As root PostgreSQL runs as the postgres user, which must reach the folder.
  chmodSync(dir, 0o755);
  port = await freePort();
  [postgres, chain] = await Promise.all([
    startPostgres({ dataDir: join(dir, "postgres"), port }),
    startTestChain(),
  ]);
}, 120_000);

afterAll(async () => {
  for (const role of roles) if (role.alive()) role.child.kill("SIGKILL");
  await Promise.all([postgres?.stop(), chain?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Ends every session of the database but the caller's: what a failover or `pg_terminate_backend` does. */
async function terminateAll(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rowCount } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

/**
 * Signed-in users following new people over HTTP, each every FOLLOW_EVERY_MS, and two readers (the session,
 * the collections list) every READ_EVERY_MS; every answer is kept with its timing.
 */
async function startLoad(api: string, users: number, publicUrl?: string) {
  const wallets = Array.from({ length: users }, () => privateKeyToAccount(generatePrivateKey()));
  const cookies = await Promise.all(wallets.map((wallet) => signIn(api, wallet, publicUrl)));
  const samples: Sample[] = [];
  let running = true;
  const send = async (sample: Omit<Sample, "start" | "end" | "status" | "retryAfter">, init: RequestInit) => {
    const path =
      sample.kind === "follow"
        ? "/api/profile/follow"
        : sample.kind === "session"
          ? "/api/auth/session"
          : "/api/explore/collections";
    const start = Date.now();
    try {
      const response = await fetch(`${api}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
      const body = (await response.json().catch(() => null)) as { data?: { following?: boolean } } | null;
      samples.push({
        ...sample,
        start,
        end: Date.now(),
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        ...(sample.kind === "follow" && body?.data ? { following: body.data.following } : {}),
      });
    } catch (error) {
      samples.push({ ...sample, start, end: Date.now(), status: 0, retryAfter: null, error: String(error) });
    }
  };
  const followLoop = async (i: number) => {
    await sleep((FOLLOW_EVERY_MS / users) * i);
    while (running) {
      const target = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
      await send(
        { kind: "follow", follower: (wallets[i] as { address: string }).address.toLowerCase(), target },
        {
          method: "POST",
          headers: { "content-type": "application/json", cookie: cookies[i] as string },
          body: JSON.stringify({ userAddress: target }),
        },
      );
      await sleep(FOLLOW_EVERY_MS);
    }
  };
  const readLoop = async (kind: "session" | "explore") => {
    while (running) {
      await send({ kind }, { headers: { cookie: cookies[0] as string } });
      await sleep(READ_EVERY_MS);
    }
  };
  const loops = Promise.all([
    ...wallets.map((_, i) => followLoop(i)),
    readLoop("session"),
    readLoop("explore"),
  ]);
  return {
    samples,
    async stop() {
      running = false;
      await loops;
    },
  };
}

/** No 500 and no refused connection; every 503 says when to retry and came within 2 s. */
function expectOnly503s(samples: Sample[]): Sample[] {
  const wrong = samples.filter((s) => s.status === 0 || (s.status >= 500 && s.status !== 503));
  expect(wrong, "no 500 and no failed connection").toEqual([]);
  const unavailable = samples.filter((s) => s.status === 503);
  for (const s of unavailable) {
    expect(s.retryAfter, "a 503 says when to retry").toMatch(/^\d+$/);
    expect(s.end - s.start, "a 503 comes within 2 s").toBeLessThan(2_000);
  }
  return unavailable;
}

/** Every follow answered 200 is in the database. */
async function expectAcknowledgedStored(samples: Sample[], databaseUrl: string): Promise<number> {
  const acknowledged = samples.filter((s) => s.kind === "follow" && s.status === 200);
  expect(acknowledged.every((s) => s.following)).toBe(true);
  const check = new pg.Client({ connectionString: databaseUrl });
  await check.connect();
  try {
    const { rows } = await check.query<{ pair: string }>(
      "SELECT follower || ':' || followee AS pair FROM follows",
    );
    const stored = new Set(rows.map((r) => r.pair));
    expect(acknowledged.filter((s) => !stored.has(`${s.follower}:${s.target}`))).toEqual([]);
  } finally {
    await check.end();
  }
  return acknowledged.length;
}

describe("PostgreSQL restarted or cut under write load", () => {
  it("answers 503 with Retry-After while it is away, recovers by itself, keeps every acknowledged write and refreshes live streams", async () => {
    const apiPort = await freePort();
    const env = {
      ...chain.env(postgres.url),
      HOST: "127.0.0.1",
      PORT: String(apiPort),
      DATA_DIR: join(dir, "data"),
    };
    for (const role of ["api", "indexer", "worker"] as const) roles.push(startRole(role, env));
    const api = `http://127.0.0.1:${apiPort}`;
    await until(async () => (await fetch(`${api}/api/health`).catch(() => null))?.status === 200, "the API");

    const load = await startLoad(api, USERS);
    const { samples } = load;
    const stream = await openStream(`${api}/api/events`);
    await until(() => stream.text().includes("event: ready"), "the live stream");

    // 1. A restart: fast shutdown, a few seconds away, then the same data folder on the same port.
    await sleep(3_000);
    const streamBefore = stream.text().length;
    const stopping = Date.now();
    await postgres.stop();
    const down = Date.now();
    await sleep(3_000);
    const starting = Date.now();
    postgres = await startPostgres({ dataDir: join(dir, "postgres"), port });
    const back = Date.now();
    await sleep(7_000);

    // 2. Every session terminated, twice a second apart, as a failover or an operator does.
    const cut = Date.now();
    expect(await terminateAll(postgres.url)).toBeGreaterThan(0);
    await sleep(1_000);
    await terminateAll(postgres.url);
    const cutEnd = Date.now();
    await sleep(7_000);
    await load.stop();

    const unavailable = expectOnly503s(samples);
    expect(unavailable.length).toBeGreaterThan(0);
    // While PostgreSQL was down, everything was 503 (and none of it hung).
    const whileDown = samples.filter((s) => s.start >= down && s.end <= starting);
    expect(whileDown.length).toBeGreaterThan(5);
    expect(whileDown.filter((s) => s.status !== 503)).toEqual([]);
    // Within 5 s of it being back (and of the cut), everything works again without a restart of anything.
    const recovered = samples.filter(
      (s) => (s.start >= back + 5_000 && s.end < cut) || s.start >= cutEnd + 5_000,
    );
    expect(recovered.length).toBeGreaterThan(20);
    expect(
      recovered
        .filter((s) => s.status !== 200)
        .map((s) => ({ ...s, afterBack: s.start - back, afterCut: s.start - cutEnd, took: s.end - s.start })),
    ).toEqual([]);
    for (const role of roles) expect(role.alive(), `${role.role} is running\n${role.output()}`).toBe(true);

    // No acknowledged write is lost.
    const acknowledged = await expectAcknowledgedStored(samples, postgres.url);
    expect(acknowledged).toBeGreaterThan(30);

    // The open live stream stayed open and was told to refresh everything once its database was back.
    expect(stream.ended()).toBe(false);
    expect(stream.notices(streamBefore).some((n) => n.all)).toBe(true);

    // The indexer leads again and follows the chain: a new collection reaches the stream.
    const streamNow = stream.text().length;
    const d = driver(chain);
    // (the factory creates collections for verified artists only)
    await d.market(marketAdmin, "setArtistVerified", [artist.address, true]);
    await d.createCollection(artist, "After", "AFT");
    await until(
      () => stream.notices(streamNow).some((n) => !n.all),
      "the indexer to publish a new batch",
      15_000,
    );
    stream.close();

    // The worker takes jobs again: one queued now is done.
    const boss = new PgBoss({ connectionString: postgres.url, max: 1, supervise: false, schedule: false });
    boss.on("error", () => {});
    await boss.start();
    try {
      const id = (await boss.send(MAIL_JOBS.deliverMail, {})) as string;
      await until(
        async () => (await boss.getJobById(MAIL_JOBS.deliverMail, id))?.state === "completed",
        "the worker to complete a job",
        20_000,
      );
    } finally {
      await boss.stop({ graceful: false });
    }

    // The figures of this run (conditions: this machine, 12 writers + 2 readers, ~12 requests/s).
    const firstOk = samples
      .filter((s) => s.start >= back && s.status === 200)
      .sort((a, b) => a.end - b.end)[0];
    const last503 = samples.filter((s) => s.start >= starting && s.end < cut && s.status === 503).at(-1);
    console.log(
      `restart: PostgreSQL stopped in ${down - stopping} ms, started in ${back - starting} ms; first 2xx ${firstOk ? firstOk.end - back : "?"} ms after it was back; last 503 began ${last503 ? last503.start - back : "none"} ms after; ` +
        `${samples.length} requests, ${unavailable.length} answered 503 (slowest ${Math.max(...unavailable.map((s) => s.end - s.start))} ms), ${acknowledged} acknowledged follows all stored`,
    );
  }, 120_000);

  it("npm start's single process lives through every session being terminated, again and again", async () => {
    const launcher = await stack();
    const run = launcher.start();
    await until(() => run.output().includes("Easel is running"), "npm start", 120_000);
    const api = `http://127.0.0.1:${launcher.ports.api}`;
    const databaseUrl = `postgres://easel:easel@127.0.0.1:${launcher.ports.db}/easel`;
    const load = await startLoad(api, 4, api);
    await sleep(2_000);
    for (let i = 0; i < 3; i++) {
      expect(await terminateAll(databaseUrl)).toBeGreaterThan(0);
      await sleep(1_000);
    }
    const lastCut = Date.now();
    await sleep(6_000);
    await load.stop();

    expectOnly503s(load.samples);
    const recovered = load.samples.filter((s) => s.start >= lastCut + 5_000);
    expect(recovered.length).toBeGreaterThan(5);
    expect(recovered.filter((s) => s.status !== 200)).toEqual([]);
    expect(await expectAcknowledgedStored(load.samples, databaseUrl)).toBeGreaterThan(5);
    expect(run.child.exitCode, run.output()).toBe(null);
    // Stopped under load: the pool ends only after the API has closed, so no request in flight meets an
    // ended pool ("Cannot use a pool after calling end on the pool", answered 500).
    const stopping = await startLoad(api, 4, api);
    await sleep(1_500);
    run.child.kill("SIGTERM");
    expect(await exited(run.child)).toBe(0);
    await stopping.stop();
    expect(stopping.samples.filter((s) => s.status === 500)).toEqual([]);
    expect(run.output()).not.toMatch(/Cannot use a pool after calling end|"msg":"unexpected error"/);
  }, 180_000);
});
