/**
 * `npm run bench:api`: loads 1,000,000 items (with their metadata and artworks), 20,000 collections and
 * 100,000 profiles into a fresh database (bulk SQL, timed), starts the API as its own process, compiled as
 * production runs it (`dist/bin/api.js`, built first if a source is newer), then drives
 * each browse endpoint at 50 concurrent connections for 20 s (BENCH_DURATION, BENCH_CONNECTIONS;
 * BENCH_ITEMS, BENCH_COLLECTIONS, BENCH_PROFILES for other sizes). Requests come from many client addresses
 * (X-Forwarded-For behind TRUST_PROXY=1), as users meet the API, so the per-IP flood limit applies as it
 * does in production. Each endpoint is measured beside its own limit on this machine in this run: the SQL
 * it sends (captured from one request of each of its paths, by an API started with bench/capture-sql.ts) is
 * replayed straight through `pg`, with the API's connection settings, at the same concurrency for the same time,
 * taking turns with the endpoint; its share of that raw rate is the figure that means the same on any machine.
 * Writes bench/api-report.json: per endpoint p50/p95/p99 latency, requests per second, errors, the CPU each
 * request cost each process, the database's raw rate and the API's share of it; the API's peak memory, the
 * machine's speed (bench/speed.ts), and for any endpoint that misses the targets its query plans
 * (PostgreSQL's auto_explain).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { COLLECTION_SORTS, ITEM_SORTS, ITEM_STATUSES } from "@easel/common";
import pg from "pg";
import { buildServer, serverBuildIsCurrent } from "../scripts/build.ts";
import { createDatabase, migrateDatabase } from "../src/db/client.ts";
import { defaultReadConnections, PipelinedConnections } from "../src/db/pipelined.ts";
import { startPostgres } from "../src/embedded/postgres.ts";
import { freePort } from "../src/embedded/process.ts";
import { startTestChain } from "../src/indexer/testing.ts";
import { type DbResult, type Result, whatWouldFix } from "./api-notes.ts";
import type { CapturedStatement } from "./capture-sql.ts";
import { cpuSeconds } from "./cpu.ts";
import { runLoad } from "./httpLoad.ts";
import { peakRssMb } from "./memory.ts";
import { additionLoopMs, machineSpeed } from "./speed.ts";

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1_000_000);
const COLLECTIONS = Number(process.env.BENCH_COLLECTIONS ?? 20_000);
const PROFILES = Number(process.env.BENCH_PROFILES ?? 100_000);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/**
 * Only the scenarios whose name contains this text, or one of several separated by `|` (a quick look at a
 * few; the report is then partial).
 */
const ONLY = (process.env.BENCH_ONLY ?? "").split("|").filter(Boolean);
/** Node flags for the measured API process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it. */
const API_NODE_ARGS = (process.env.BENCH_API_NODE_ARGS ?? "").split(" ").filter(Boolean);
/** The words item names are made of, as artists name works: "Rain on Glass", "Willow beyond the Dunes". */
const ITEM_WORDS = {
  first:
    "Rain Light Shadow Morning Evening Winter Summer Autumn Spring Storm Silence Smoke Moon River Forest Ocean Garden Window Mirror Salt Honey Thunder Willow Lantern".split(
      " ",
    ),
  between: ["on", "over", "in", "under", "at", "beyond the"],
  last: "Glass Water Stone Paper Canvas Copper Marble Velvet Ash Snow Sand Dunes Cliffs Rooftops Fields Streets Meadows Mountains Embers Orchards Bridges Clouds Lakes Dusk".split(
    " ",
  ),
};
/**
 * A token's item name (3,456 names, each about 290 tokens' at 1,000,000 items; each word in 1 name in 24 or
 * 6), from the SQL row's `minted_block`.
 */
const ITEM_NAME = (() => {
  const pick = (words: string[], salt: number) =>
    `(ARRAY[${words.map((w) => `'${w}'`).join(",")}])[1 + floor(bench_hash(minted_block, ${salt}) * ${words.length})::int]`;
  return `${pick(ITEM_WORDS.first, 11)} || ' ' || ${pick(ITEM_WORDS.between, 12)} || ' ' || ${pick(ITEM_WORDS.last, 13)}`;
})();
/**
 * The endpoint and its SQL alone take turns, DURATION_S / ROUNDS each, so a change of the machine's speed
 * during the scenario meets both alike.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
/**
 * The target is the API's share of the raw rate of its own SQL on the same machine in the same run; p95 and
 * requests/s are the figures the share was first set against (on the machine of the first reports), kept
 * beside it for reference.
 */
const TARGET = { apiShareOfDb: 0.5, errors: 0 };
const REFERENCE = { p95Ms: 50, requestsPerSecond: 500 };
const say = (line: string) => console.log(`[bench] ${line}`);
/** One of 10,000 client addresses. */
const clientAddress = (n: number) => `10.0.${Math.floor((n % 10_000) / 256)}.${n % 256}`;
const round = (n: number) => Math.round(n * 10) / 10;

const dir = mkdtempSync(join(tmpdir(), "easel-bench-api-"));
chmodSync(dir, 0o755);
const postgresLog: string[] = [];
const postgres = await startPostgres({
  dataDir: join(dir, "pg"),
  port: await freePort(),
  database: "easel_bench",
  log: (line) => {
    postgresLog.push(line);
    if (postgresLog.length > 50_000) postgresLog.splice(0, 10_000);
  },
});
const chain = await startTestChain();
const db = createDatabase(postgres.url);
let api: ChildProcess | null = null;

try {
  await migrateDatabase(db);
  const loadSeconds = await load();
  const env = {
    ...process.env,
    ...chain.env(postgres.url),
    HOST: "127.0.0.1",
    PORT: String(await freePort()),
    TRUST_PROXY: "1",
    LOG_LEVEL: "silent",
  };
  const base = `http://127.0.0.1:${env.PORT}`;
  // First an API that records the SQL it sends: the scenarios are built through it, and each path's
  // statements captured; then the API that is measured, without the recording. The recording patches the
  // `pg` of node_modules, so that API runs from the sources (tsx); the measured one is the compiled bundle
  // that production runs, with its own copy of `pg`. Both send the same SQL.
  const captureFile = join(dir, "statements.jsonl");
  api = await startApi({ ...env, BENCH_SQL_CAPTURE: captureFile }, base, "sources", [
    "--import",
    new URL("./capture-sql.ts", import.meta.url).pathname,
  ]);
  const scenarios = await buildScenarios(base);
  const statements = await captureStatements(base, scenarios, captureFile);
  const capturing = api;
  const exited = new Promise((resolve) => capturing.once("exit", resolve));
  stopApi(capturing);
  if (capturing.exitCode === null) await exited;
  if (!serverBuildIsCurrent()) await buildServer();
  api = await startApi(env, base, "compiled", API_NODE_ARGS);
  for (const scenario of scenarios) await json(`${base}${scenario.paths[0]}`);
  const speedBefore = additionLoopMs();
  if (process.env.BENCH_HOLD) {
    // For looking at the loaded API by hand (curl, EXPLAIN): runs until interrupted.
    say(`holding: API ${base}, database ${postgres.url}; Ctrl-C to stop`);
    await new Promise((resolve) => process.once("SIGINT", resolve));
  }

  const results: Record<string, Result> = {};
  for (const scenario of scenarios) {
    // The endpoint and its own SQL straight against the database take turns: both meet the machine at the
    // same speed.
    const perPath = statements.get(scenario.name) ?? [];
    const sql = perPath.some((list) => list.length > 0) ? await replayer(perPath) : null;
    let r: Result;
    try {
      r = await drive(base, scenario, async () => {
        await sql?.run(DURATION_S / ROUNDS);
      });
      r.db = sql?.result() ?? null;
    } finally {
      await sql?.end();
    }
    // Rounded down, so that a share written as 0.5 is at least half and the check below holds for the exact one.
    r.apiShareOfDb = r.db ? Math.floor((r.requestsPerSecond / r.db.requestsPerSecond) * 100) / 100 : null;
    results[scenario.name] = r;
    say(
      `${scenario.name.padEnd(44)} p50 ${r.p50Ms.toFixed(1).padStart(6)} ms  p95 ${r.p95Ms.toFixed(1).padStart(6)} ms  p99 ${r.p99Ms.toFixed(1).padStart(6)} ms  ${r.requestsPerSecond.toFixed(0).padStart(5)} req/s  errors ${r.errors}  SQL alone ${r.db?.requestsPerSecond.toFixed(0) ?? "-"} req/s  share ${r.apiShareOfDb ?? "-"}`,
    );
  }
  const speed = machineSpeed(speedBefore);
  const peakMemoryMb = peakRssMb(api);
  stopApi(api);
  api = null;

  const missed = scenarios.filter((s) => {
    const r = results[s.name] as Result;
    return (r.apiShareOfDb ?? 1) < TARGET.apiShareOfDb || r.errors > TARGET.errors;
  });
  const plans = missed.length > 0 ? await explainMisses(env, base, missed) : {};

  const report = {
    generatedAt: new Date().toISOString(),
    conditions: {
      machine: `${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
      data: {
        items: ITEMS,
        collections: COLLECTIONS,
        profiles: PROFILES,
        metadata: "every item has its metadata and artwork rows",
      },
      bulkLoadSeconds: loadSeconds,
      connections: CONNECTIONS,
      durationSeconds: DURATION_S,
      client:
        "bench/httpLoad.ts in the bench process (keep-alive HTTP/1.1, each answer's body counted, not decoded); the API in its own process, compiled as production runs it (dist/bin/api.js); PostgreSQL embedded, same machine",
      clients: "every request from one of 10,000 client addresses (X-Forwarded-For, TRUST_PROXY=1)",
      cpu: "cpuMsPerRequest: each process's CPU time (user + system, from /proc) over the scenario, per request",
      db: "db: the SQL each path of the endpoint sent (captured from one request of each path, after a warm one), replayed straight through pg with the API's own connections (a pool of 10 for its main pool's statements; for the repeated queries, the same pipelined connections as the API's, src/db/pipelined.ts, as many, prepared with plan_cache_mode=force_generic_plan, enable_memoize=off), one request's statements in turn, at the same concurrency for the same time, taking turns with the endpoint (BENCH_ROUNDS, 4 turns of DURATION / 4 each); requests/s of that replay and the CPU it cost PostgreSQL and the client. An endpoint that sent no SQL (home: built at most once every 5 s, shared by every visitor meanwhile) has db null and no share",
      apiShareOfDb:
        "apiShareOfDb: the endpoint's requests/s ÷ db.requestsPerSecond, the same measure on any machine",
      machineSpeed: `machineSpeed: a plain JavaScript loop of ${speed.additions.toLocaleString("en")} additions before and after the endpoints, in ms (more is a slower machine)`,
      target: TARGET,
      reference: REFERENCE,
    },
    machineSpeed: speed,
    endpoints: results,
    apiPeakMemoryMb: peakMemoryMb,
    missed: missed.map((s) => s.name),
    fixes: Object.fromEntries(
      missed.map((s) => [
        s.name,
        whatWouldFix(s.name, results[s.name] as Result, CONNECTIONS, TARGET.apiShareOfDb),
      ]),
    ),
    notes: plans,
  };
  const path = new URL(process.env.BENCH_REPORT ?? "./api-report.json", import.meta.url);
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  say(
    `API peak memory ${peakMemoryMb} MB; addition loop ${speed.additionLoopMs.before}/${speed.additionLoopMs.after} ms; ${missed.length} of ${scenarios.length} endpoints missed the targets`,
  );
  say(`report written to ${path.pathname}`);
} finally {
  if (api) stopApi(api);
  await db.$client.end();
  await postgres.stop();
  await chain.stop();
  rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- data

/**
 * Fills the tables the way the indexer and the API would have: profiles (some banned on chain), collections
 * with their details and derived stats, tokens (listed, in auctions, with offers, sold), views and
 * favourites. Deterministic: row i's choices come from hashes of i.
 */
async function load(): Promise<number> {
  const started = performance.now();
  const q = async (label: string, text: string) => {
    const t0 = performance.now();
    await db.$client.query(text);
    say(`loaded ${label} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  const perCollection = Math.ceil(ITEMS / COLLECTIONS);
  // hash(i, salt) in [0, 1): spreads choices without a random generator, so runs are comparable.
  await q(
    "helpers",
    `CREATE FUNCTION bench_hash(i bigint, salt int) RETURNS double precision LANGUAGE sql IMMUTABLE AS
       $$ SELECT ((hashint8(i * 7919 + salt)::bigint + 2147483648) % 1000003)::double precision / 1000003 $$`,
  );
  await q(
    `${PROFILES} profiles`,
    `INSERT INTO profiles (address, username, username_key, name, created_at)
     SELECT '0x' || lpad(to_hex(i), 40, '0'), 'user' || i, 'user' || i,
       (ARRAY['Ada','Bruno','Chiara','Dmitri','Elena','Farid','Grace','Hiro','Ines','Jonas','Kemi','Lucia',
              'Mateo','Nadia','Omar','Priya','Quinn','Rosa','Sven','Tariq'])[1 + (i % 20)] || ' ' ||
       (ARRAY['Moreau','Okafor','Lindqvist','Tanaka','Silva','Novak','Haddad','Kowalski','Reyes','Brennan',
              'Ivanova','Mensah','Costa','Nakamura','Fischer','Duarte','Ahmed','Larsen','Petrov','Rossi'])[1 + ((i / 20) % 20)],
       now() - (i % 365) * interval '1 day'
     FROM generate_series(1, ${PROFILES}) i`,
  );
  await q(
    "banned accounts",
    `INSERT INTO chain_accounts (address, banned, verified_artist, updated_block)
     SELECT '0x' || lpad(to_hex(i), 40, '0'), i % 200 = 0, i % 5 = 0, 1 FROM generate_series(1, ${PROFILES}) i
     WHERE i % 200 = 0 OR i % 5 = 0`,
  );
  await q(
    `${COLLECTIONS} collections`,
    `INSERT INTO chain_collections (address, kind, owner, name, symbol, category, max_supply, blocked,
       created_block, created_tx, created_at)
     SELECT '0xc' || lpad(to_hex(i), 39, '0'), CASE WHEN i % 10 = 0 THEN 'lazy' ELSE 'standard' END,
       '0x' || lpad(to_hex(1 + (i * 37) % ${PROFILES}), 40, '0'),
       (ARRAY['Harbour','Meadow','Neon','Quiet','Copper','Velvet','Paper','Glass','Amber','Cobalt','Ember',
              'Fable','Granite','Horizon','Ivory','Juniper'])[1 + (i % 16)] || ' ' ||
       (ARRAY['Lights','Studies','Dreams','Portraits','Forms','Tides','Gardens','Machines','Echoes','Maps',
              'Rooms','Signals'])[1 + ((i / 16) % 12)] || ' ' || i,
       'C' || i, '', CASE WHEN i % 10 = 0 THEN ${perCollection} ELSE 0 END, i % 500 = 0,
       1000 + i, '0x' || lpad(to_hex(i), 64, '0'), now() - interval '400 days' + i * interval '1 second' * 1700
     FROM generate_series(1, ${COLLECTIONS}) i`,
  );
  await q(
    "collection details",
    `INSERT INTO collection_details (address, category_id, description_text, featured_at)
     SELECT c.address, (SELECT min(id) FROM categories) + abs(hashtext(c.address)) % 12,
       'A collection of works.', CASE WHEN c.address <= '0xc' || lpad('6', 39, '0') THEN now() END
     FROM chain_collections c`,
  );
  await q(
    `${ITEMS} tokens`,
    `INSERT INTO chain_tokens (collection, token_id, creator, owner, holder, cid, royalty_bps, collaborators,
       status, lazy, price, last_price, listed_at, sold_at, listing_expires_at, auction_kind, auction_end, offer,
       blocked, minted_block, minted_at, mint_tx, updated_block)
     SELECT c, n, creator, CASE WHEN unsold_lazy THEN creator ELSE owner END,
       CASE WHEN unsold_lazy THEN creator ELSE owner END, 'bafkrei' || lpad(to_hex(i), 52, '0'), 500, '[]'::jsonb,
       CASE WHEN r < 0.20 THEN 'fix' WHEN r < 0.25 THEN 'auction' WHEN unsold_lazy THEN 'lazy' ELSE 'minted' END,
       ci % 10 = 0,
       CASE WHEN r < 0.25 OR unsold_lazy THEN (1 + floor(bench_hash(i, 2) * 5000))::numeric * 1000000000000000 END,
       CASE WHEN r2 < 0.10 AND NOT unsold_lazy THEN (1 + floor(bench_hash(i, 3) * 5000))::numeric * 1000000000000000 END,
       CASE WHEN r < 0.25 OR unsold_lazy THEN now() - bench_hash(i, 4) * interval '30 days' END,
       CASE WHEN r2 < 0.10 AND NOT unsold_lazy THEN now() - bench_hash(i, 5) * interval '300 days' END,
       -- One listing in 20 has lapsed; half the auctions are reserve auctions, and half of those wait for a
       -- first bid (no end yet); one token in ten has an offer. The market's tables below follow these.
       CASE WHEN r < 0.20 THEN CASE WHEN hashint8(2000 + i) % 20 = 0 THEN now() - interval '1 day'
                                    ELSE now() + interval '60 days' END
            WHEN unsold_lazy THEN now() + interval '70 days' END,
       CASE WHEN r >= 0.20 AND r < 0.25 THEN CASE WHEN i % 2 = 0 THEN 'reserve' ELSE 'standard' END END,
       CASE WHEN r >= 0.20 AND r < 0.25 AND i % 4 <> 0 THEN now() + ((2000 + i) % 7) * interval '1 day' + interval '1 hour' END,
       CASE WHEN hashint8(2000 + i + 17) % 10 = 0 AND NOT unsold_lazy THEN (1 + (2000 + i) % 900)::numeric * 1000000000000000 END,
       i % 1000 = 0, 2000 + i, now() - interval '360 days' + i * interval '30 seconds',
       '0x' || lpad(to_hex(i), 64, 'b'), 2000 + i
     FROM (
       SELECT i, ci, n, '0xc' || lpad(to_hex(ci), 39, '0') AS c,
         '0x' || lpad(to_hex(1 + (ci * 37) % ${PROFILES}), 40, '0') AS creator,
         '0x' || lpad(to_hex(CASE WHEN bench_hash(i, 6) < 0.3 THEN 1 + (i * 13) % ${PROFILES}
                                  ELSE 1 + (ci * 37) % ${PROFILES} END), 40, '0') AS owner,
         bench_hash(i, 1) AS r, bench_hash(i, 7) AS r2,
         -- One token in ten of a lazy collection is a lazy item not yet sold, projected as browse reads it
         -- (browse/lazyCards.ts): 1% of the tokens, for sale, owned by nobody but their creator yet.
         ci % 10 = 0 AND bench_hash(i, 1) >= 0.25 AND bench_hash(i, 1) < 0.35 AS unsold_lazy
       FROM (SELECT i, 1 + (i - 1) / ${perCollection} AS ci, 1 + (i - 1) % ${perCollection} AS n
             FROM generate_series(1, ${ITEMS}) i) x
     ) y`,
  );
  // Every token's metadata and artwork, as minting leaves them: the cards show the item's name and the
  // artwork's thumbnail. (The thumbnails' and previews' own rows are left out: no list reads them.)
  await q(
    `${ITEMS} artworks`,
    `INSERT INTO media (cid, mime, size, width, height, thumbnail_cid, preview_cid, uploader)
     SELECT 'bafkreim' || substr(cid, 9), 'image/png', 1000000 + (minted_block % 1000) * 1000, 2000, 2000,
       'bafkreit' || substr(cid, 9), 'bafkreip' || substr(cid, 9), creator
     FROM chain_tokens`,
  );
  await q(
    `${ITEMS} item metadata`,
    `INSERT INTO item_metadata (cid, creator, collection, category_id, name, description, royalty, media_cid)
     SELECT cid, creator, collection, category_id, ${ITEM_NAME}, 'An artwork.', 500,
       'bafkreim' || substr(cid, 9)
     FROM chain_tokens`,
  );
  await q(
    "sell orders",
    `INSERT INTO chain_sell_orders (collection, token_id, seller, price, expires_at, status, listed_block,
       listed_tx, listed_at, updated_block)
     SELECT collection, token_id, owner, price, listing_expires_at, 'active', minted_block, mint_tx, listed_at,
       minted_block
     FROM chain_tokens WHERE status = 'fix'`,
  );
  await q(
    "auctions",
    `INSERT INTO chain_auctions (collection, token_id, created_block, created_log_index, kind, seller, base_price,
       start_time, end_time, original_end_time, top_bid, top_bidder, bids_count, status, created_tx, updated_block)
     SELECT collection, token_id, minted_block, 0, auction_kind, owner, price, listed_at, auction_end, auction_end,
       CASE WHEN auction_end IS NOT NULL THEN price END,
       CASE WHEN auction_end IS NOT NULL THEN '0x' || lpad('beef', 40, '0') END,
       CASE WHEN auction_end IS NOT NULL THEN 1 ELSE 0 END, 'active', mint_tx, minted_block
     FROM chain_tokens WHERE status = 'auction'`,
  );
  await q(
    "offers",
    `INSERT INTO chain_offers (collection, token_id, buyer, amount, status, updated_block, updated_tx, updated_at)
     SELECT collection, token_id, '0x' || lpad(to_hex(1 + (minted_block * 11) % ${PROFILES}), 40, '0'),
       offer, 'active', minted_block, mint_tx, now()
     FROM chain_tokens WHERE offer IS NOT NULL`,
  );
  await q(
    "sales",
    `INSERT INTO chain_sales (block_number, log_index, collection, token_id, seller, buyer, mechanism, price, fee,
       royalty, proceeds, "primary", tx_hash, block_time)
     SELECT minted_block, 1, collection, token_id, creator, owner, 'buy-now', last_price, last_price / 10, 0,
       last_price - last_price / 10, true, mint_tx, sold_at
     FROM chain_tokens WHERE last_price IS NOT NULL`,
  );
  await q(
    "views and favourites",
    `INSERT INTO item_stats (collection, token_id, views, favorites)
     SELECT collection, token_id, (hashint8(minted_block + 3) % 5000 + 5000) % 5000, (hashint8(minted_block + 5) % 300 + 300) % 300
     FROM chain_tokens WHERE hashint8(minted_block + 9) % 3 = 0`,
  );
  await q(
    "collection stats",
    `UPDATE chain_collections c SET
       tokens_count = s.tokens, owners_count = s.owners, floor_price = s.floor, highest_sale = s.highest,
       volume = coalesce(s.volume, 0), sales_count = s.sales
     FROM (
       SELECT t.collection, count(*) AS tokens, count(DISTINCT t.owner) FILTER (WHERE t.status <> 'lazy') AS owners,
         min(t.price) FILTER (WHERE t.status IN ('fix', 'lazy')) AS floor, max(t.last_price) AS highest,
         sum(t.last_price) AS volume, count(t.last_price) AS sales
       FROM chain_tokens t GROUP BY t.collection
     ) s WHERE s.collection = c.address`,
  );
  // As a settled database is: statistics current, visibility maps set, nothing left for autovacuum to do
  // during the measurements, and the load's pages written out, so the checkpointer is not still writing them
  // during the first scenarios.
  await q("VACUUM ANALYZE", "VACUUM ANALYZE");
  await q("CHECKPOINT", "CHECKPOINT");
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  say(`bulk load took ${seconds} s`);
  return seconds;
}

// ---------------------------------------------------------------- the API process

/** The API role from `dist/bin` as production runs it, or from the TypeScript sources through tsx. */
async function startApi(
  env: NodeJS.ProcessEnv,
  base: string,
  from: "compiled" | "sources",
  nodeArgs: string[] = [],
): Promise<ChildProcess> {
  const args =
    from === "compiled"
      ? [...nodeArgs, "dist/bin/api.js"]
      : ["--import", "tsx", ...nodeArgs, "src/bin/api.ts"];
  const child = spawn(process.execPath, args, {
    cwd: new URL("..", import.meta.url).pathname,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  for (let i = 0; i < 600; i++) {
    try {
      const response = await fetch(`${base}/api/health`);
      if (response.status === 200) return child;
    } catch {}
    if (child.exitCode !== null) throw new Error(`the API exited with code ${child.exitCode}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the API did not start within 60 s");
}

function stopApi(child: ChildProcess) {
  if (child.exitCode === null) child.kill("SIGTERM");
}

// ---------------------------------------------------------------- scenarios

type Scenario = { name: string; paths: string[] };

async function json<T>(url: string, from?: string): Promise<T> {
  const response = await fetch(url, from ? { headers: { "x-forwarded-for": from } } : {});
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A cursor `pages` pages of 50 into a sort (what a person scrolling that far holds). */
async function deepCursor(base: string, query: string, pages: number): Promise<string> {
  let cursor = "";
  for (let i = 0; i < pages; i++) {
    const page = await json<{ data: { nextCursor: string | null } }>(
      `${base}/api/explore?${query}&limit=50${cursor ? `&cursor=${cursor}` : ""}`,
    );
    if (!page.data.nextCursor) break;
    cursor = page.data.nextCursor;
  }
  return cursor;
}

async function buildScenarios(base: string): Promise<Scenario[]> {
  // Collections visitors can open (every 500th is blocked, and answers 404 to them).
  const collectionNames = Array.from({ length: 200 }, (_, k) => {
    let i = 1 + ((k * 97) % COLLECTIONS);
    if (i % 500 === 0) i += 1;
    const first = [
      "Harbour",
      "Meadow",
      "Neon",
      "Quiet",
      "Copper",
      "Velvet",
      "Paper",
      "Glass",
      "Amber",
      "Cobalt",
      "Ember",
      "Fable",
      "Granite",
      "Horizon",
      "Ivory",
      "Juniper",
    ][i % 16];
    const second = [
      "Lights",
      "Studies",
      "Dreams",
      "Portraits",
      "Forms",
      "Tides",
      "Gardens",
      "Machines",
      "Echoes",
      "Maps",
      "Rooms",
      "Signals",
    ][Math.floor(i / 16) % 12];
    return `${first} ${second} ${i}`;
  });
  const one = (name: string, path: string): Scenario => ({ name, paths: [path] });
  const scenarios: Scenario[] = [];
  for (const sort of COLLECTION_SORTS) {
    scenarios.push(one(`explore collections sort=${sort}`, `/api/explore/collections?sort=${sort}`));
    scenarios.push(
      one(
        `explore collections sort=${sort} filtered`,
        `/api/explore/collections?sort=${sort}&collectionType=standard&minFloorPrice=0.1&category_web2_ids=1,2,3&minNumberOfArtworks=10`,
      ),
    );
  }
  scenarios.push(one("explore collections page 200", "/api/explore/collections?sort=newest&page=200"));
  for (const status of ITEM_STATUSES) {
    scenarios.push(one(`explore items status=${status}`, `/api/explore?status=${status}`));
  }
  for (const sort of ITEM_SORTS) {
    scenarios.push(one(`explore items sort=${sort}`, `/api/explore?sort=${sort}`));
  }
  scenarios.push(
    one(
      "explore items buyNow + price + category",
      "/api/explore?status=buyNow&minPrice=0.5&maxPrice=2&category=3&sort=priceLowToHigh",
    ),
  );
  const deepNew = await deepCursor(base, "sort=recentlyCreated", 200);
  scenarios.push(
    one("explore items deep page (10,000 in)", `/api/explore?sort=recentlyCreated&cursor=${deepNew}`),
  );
  const deepPrice = await deepCursor(base, "sort=priceLowToHigh&status=buyNow", 100);
  scenarios.push(
    one(
      "explore items buyNow by price deep (5,000 in)",
      `/api/explore?sort=priceLowToHigh&status=buyNow&cursor=${deepPrice}`,
    ),
  );
  scenarios.push({
    name: "search exact name",
    paths: collectionNames.slice(0, 50).map((n) => `/api/search?searchItem=${encodeURIComponent(n)}`),
  });
  scenarios.push({
    name: "search prefix",
    paths: ["harb", "mead", "neon q", "copper l", "ada mor", "user12", "velvet", "glass s"].map(
      (t) => `/api/search?searchItem=${encodeURIComponent(t)}`,
    ),
  });
  scenarios.push({
    name: "search typo",
    paths: ["harbuor lights", "medow", "coper", "portriats", "lindqvst", "okafr"].map(
      (t) => `/api/search?searchItem=${encodeURIComponent(t)}`,
    ),
  });
  // Items by their own name (the metadata of a million tokens): prefixes and whole names, then typos
  // corrected word by word against the dictionary, found by prefix or as a word anywhere in the name.
  scenarios.push({
    name: "search item name",
    paths: ["rain", "rain on glass", "light over wa", "willow", "lantern beyond the clouds", "snow"].map(
      (t) => `/api/search?searchItem=${encodeURIComponent(t)}`,
    ),
  });
  scenarios.push({
    name: "search item typo",
    paths: [
      "ligth over water",
      "morninng",
      "thundr over snow",
      "lanterm",
      "silense in sand",
      "watre",
      "rian on glas",
    ].map((t) => `/api/search?searchItem=${encodeURIComponent(t)}`),
  });
  scenarios.push({
    name: "search address",
    paths: Array.from(
      { length: 50 },
      (_, k) => `/api/search?searchItem=0x${(1 + k * 1999).toString(16).padStart(40, "0")}`,
    ),
  });
  scenarios.push({
    name: "collection page",
    paths: collectionNames.map((n) => `/api/collection?name=${encodeURIComponent(n)}`),
  });
  scenarios.push({
    name: "collection page sorted, Buy Now tab",
    paths: collectionNames.map(
      (n) => `/api/collection?name=${encodeURIComponent(n)}&filter=buyNow&sort=priceLowToHigh`,
    ),
  });
  scenarios.push(one("home", "/api/home"));
  // Every path answers before the load starts: a scenario measures speed, not a broken request.
  for (const scenario of scenarios) await json(`${base}${scenario.paths[0]}`);
  return ONLY.length > 0 ? scenarios.filter((s) => ONLY.some((part) => s.name.includes(part))) : scenarios;
}

/** One scenario: CONNECTIONS connections for DURATION_S seconds, each request from a rotating client address. */
async function drive(base: string, scenario: Scenario, between: () => Promise<void>): Promise<Result> {
  const cpu = () => {
    const own = process.cpuUsage();
    return {
      postgres: cpuSeconds(postgres.pid),
      api: api?.pid ? cpuSeconds(api.pid) : 0,
      loadGenerator: (own.user + own.system) / 1e6,
    };
  };
  const spent = { postgres: 0, api: 0, loadGenerator: 0 };
  let next = 0;
  const latencies: number[] = [];
  let errors = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const cpuBefore = cpu();
    const result = await runLoad({
      base,
      connections: CONNECTIONS,
      seconds: DURATION_S / ROUNDS,
      request: () => {
        const n = next++;
        return {
          path: scenario.paths[n % scenario.paths.length] as string,
          headers: { "x-forwarded-for": clientAddress(n) },
        };
      },
      onResponse: (status, ms) => {
        latencies.push(ms);
        if (status < 200 || status >= 300) errors++;
      },
    });
    const cpuAfter = cpu();
    for (const key of Object.keys(spent) as (keyof typeof spent)[])
      spent[key] += cpuAfter[key] - cpuBefore[key];
    errors += result.errors;
    await between();
  }
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  const perRequest = (key: keyof typeof spent) =>
    Math.round((spent[key] / Math.max(1, latencies.length)) * 1e5) / 100;
  return {
    p50Ms: round(at(0.5)),
    p95Ms: round(at(0.95)),
    p99Ms: round(at(0.99)),
    requestsPerSecond: round(latencies.length / DURATION_S),
    errors,
    cpuMsPerRequest: {
      postgres: perRequest("postgres"),
      api: perRequest("api"),
      loadGenerator: perRequest("loadGenerator"),
    },
  };
}

// ---------------------------------------------------------------- the same SQL, straight to PostgreSQL

/**
 * Each scenario's statements, path by path: every path is requested once to warm the API (its first run
 * may read what later runs keep), then once more while the capturing API appends what it sends.
 */
async function captureStatements(
  base: string,
  scenarios: Scenario[],
  file: string,
): Promise<Map<string, CapturedStatement[][]>> {
  const lines = () => {
    try {
      return readFileSync(file, "utf8").split("\n").filter(Boolean);
    } catch {
      return [];
    }
  };
  const captured = new Map<string, CapturedStatement[][]>();
  // From many client addresses, as the load comes: a thousand requests from one would meet its rate limit.
  let n = 0;
  for (const scenario of scenarios) {
    const perPath: CapturedStatement[][] = [];
    for (const path of scenario.paths) {
      await json(`${base}${path}`, clientAddress(n++));
      const from = lines().length;
      await json(`${base}${path}`, clientAddress(n++));
      perPath.push(
        lines()
          .slice(from)
          .map((line) => JSON.parse(line) as CapturedStatement),
      );
    }
    captured.set(scenario.name, perPath);
    const counts = perPath.map((list) => list.length);
    say(
      `captured ${scenario.name}: ${Math.min(...counts)}–${Math.max(...counts)} statements a request over ${perPath.length} path(s)`,
    );
  }
  return captured;
}

/**
 * The captured statements of a scenario replayed straight through `pg` at CONNECTIONS concurrency, in turns
 * of `run(seconds)`: request n runs path n's statements one after the other. The connections are the API's:
 * a pool of 10 for the statements its main pool sent, and as many pipelined connections as the API's
 * (src/db/pipelined.ts, the same code) for those its `$repeated` sent, one set per session options seen (the
 * repeated queries' plan settings), prepared statements under the same names.
 */
async function replayer(perPath: CapturedStatement[][]) {
  type Connections = { query(config: pg.QueryConfig): Promise<unknown>; end(): Promise<void> };
  const pools = new Map<string, Connections>();
  const poolFor = ({ options = "", pipeline = false }: CapturedStatement) => {
    const key = `${pipeline} ${options}`;
    let pool = pools.get(key);
    if (!pool) {
      pool = (
        pipeline
          ? new PipelinedConnections({
              connectionString: postgres.url,
              size: defaultReadConnections(),
              options,
              lifetimeSeconds: 3600,
            })
          : new pg.Pool({ connectionString: postgres.url, max: 10, ...(options ? { options } : {}) })
      ) as Connections;
      pools.set(key, pool);
    }
    return pool;
  };
  const request = async (n: number) => {
    for (const statement of perPath[n % perPath.length] as CapturedStatement[]) {
      await poolFor(statement).query({
        text: statement.text,
        values: statement.values,
        ...(statement.name ? { name: statement.name } : {}),
        ...(statement.rowMode ? { rowMode: statement.rowMode as "array" } : {}),
      });
    }
  };
  const cpu = () => {
    const own = process.cpuUsage();
    return { postgres: cpuSeconds(postgres.pid), client: (own.user + own.system) / 1e6 };
  };
  // Every connection of each pool opened and its statements prepared, as the API's are by then.
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, n) => request(n)));
  const spent = { postgres: 0, client: 0 };
  let seconds = 0;
  let next = 0;
  let done = 0;
  return {
    async run(forSeconds: number) {
      const before = cpu();
      const started = performance.now();
      const until = started + forSeconds * 1000;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (performance.now() < until) {
            await request(next++);
            done++;
          }
        }),
      );
      seconds += (performance.now() - started) / 1000;
      const after = cpu();
      spent.postgres += after.postgres - before.postgres;
      spent.client += after.client - before.client;
    },
    result(): DbResult {
      const perRequest = (ms: number) => Math.round((ms / Math.max(1, done)) * 1e5) / 100;
      const statements = perPath.reduce((sum, list) => sum + list.length, 0) / perPath.length;
      return {
        requestsPerSecond: round(done / Math.max(seconds, 1e-9)),
        statementsPerRequest: round(statements),
        cpuMsPerRequest: { postgres: perRequest(spent.postgres), client: perRequest(spent.client) },
      };
    },
    async end() {
      await Promise.all([...pools.values()].map((pool) => pool.end()));
    },
  };
}

// ---------------------------------------------------------------- plans of the misses

/**
 * Starts the API once more with auto_explain logging every statement's plan, sends each missed scenario's
 * first request, and returns the plans PostgreSQL logged for it.
 */
async function explainMisses(
  env: NodeJS.ProcessEnv,
  base: string,
  missed: Scenario[],
): Promise<Record<string, string[]>> {
  await db.$client.query(`ALTER DATABASE easel_bench SET session_preload_libraries = 'auto_explain'`);
  await db.$client.query(`ALTER DATABASE easel_bench SET auto_explain.log_min_duration = 0`);
  await db.$client.query(`ALTER DATABASE easel_bench SET auto_explain.log_analyze = on`);
  const child = await startApi(env, base, "compiled");
  const notes: Record<string, string[]> = {};
  try {
    for (const scenario of missed) {
      await json(`${base}${scenario.paths[0]}`); // warm: the plan of the second call is the steady one
      const from = postgresLog.length;
      await json(`${base}${scenario.paths[0]}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const lines = postgresLog.slice(from).join("\n");
      notes[scenario.name] = lines
        .split(/(?=LOG: {2}duration: )/)
        .filter((block) => block.includes("Query Text") || block.includes("duration:"))
        .map((block) => block.trim())
        .filter((block) => !/rate_limit|FROM "sessions"/.test(block));
    }
  } finally {
    stopApi(child);
  }
  return notes;
}
