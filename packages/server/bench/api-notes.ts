/**
 * What the API benchmark says about a missed target, beside the plans PostgreSQL logged for it: the bound
 * the miss is against and what would lift it. Used by bench/api.ts; run alone
 * (`node --import tsx bench/api-notes.ts [report]`) it re-annotates the last report, or the one named.
 */
import { readFileSync, writeFileSync } from "node:fs";

/** The endpoint's own SQL replayed straight against PostgreSQL at the same concurrency (bench/api.ts). */
export type DbResult = {
  requestsPerSecond: number;
  statementsPerRequest: number;
  cpuMsPerRequest: { postgres: number; client: number };
};

/** One endpoint's figures in the report. */
export type Result = {
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  errors: number;
  /**
   * CPU each request cost (user + system), by process: where a request's time goes on this machine. Absent
   * from reports written before it was measured.
   */
  cpuMsPerRequest?: { postgres: number; api: number; loadGenerator: number };
  /** The raw rate of the endpoint's SQL in the same run (null when it sent none); absent from older reports. */
  db?: DbResult | null;
  /** requestsPerSecond ÷ db.requestsPerSecond. */
  apiShareOfDb?: number | null;
};

/** What is known of an endpoint's work beyond its figures, and what would lift it. */
function endpointWork(name: string): string {
  if (name.includes("hasOffers") || name.includes("reserveNotMet"))
    return "The status is a test of the token row (the indexer copies the active listing, auction and offer onto it): the prepared plan walks the sort's index and skips the tokens that fail it, about ten for each one shown with Has offers, about seventy with Reserve not yet met, then reads the page's cards.";
  if (name.startsWith("search"))
    return "Each step of a search is one prepared statement (collections and profiles together); a typo costs up to four steps: the prefixes, the dictionary correction, the corrected prefixes, the words anywhere.";
  if (name.startsWith("explore items") || name.startsWith("collection page"))
    return "One prepared card query walks the sort's index (per category when there is one) and reads the page's 26 cards with their joins: the collection, the creator's profile, the counts, the metadata and the artwork.";
  return "";
}

/** Why an endpoint missed and what would fix it, from its figures and what it runs. */
export function whatWouldFix(
  name: string,
  result: Result,
  connections: number,
  shareTarget = 0.5,
  cores = 2,
): string {
  // Little's law: with every connection always waiting, the mean latency is connections / throughput.
  const meanMs = Math.round((connections / result.requestsPerSecond) * 1000);
  const needed = Math.round((connections / 0.05) * 0.8);
  const bound = `At ${connections} connections the mean latency is ${connections} / ${result.requestsPerSecond} req/s ≈ ${meanMs} ms, so p95 ≤ 50 ms needs roughly ${needed}+ req/s here.`;
  const db = result.db;
  const share =
    db && result.apiShareOfDb != null
      ? `The API served ${result.requestsPerSecond} req/s, ${Math.round(result.apiShareOfDb * 100)}% of the ${db.requestsPerSecond} req/s its own ${db.statementsPerRequest} statement(s) a request reach straight through pg at the same concurrency (target ${Math.round(shareTarget * 100)}%); straight, they cost PostgreSQL ${db.cpuMsPerRequest.postgres} ms and the client ${db.cpuMsPerRequest.client} ms a request.`
      : "";
  const cpu = result.cpuMsPerRequest;
  if (!cpu) return `${share} ${bound} ${endpointWork(name)}`.trim();
  const total = cpu.postgres + cpu.api + cpu.loadGenerator;
  const cost = `Each request cost ${cpu.postgres} ms of PostgreSQL's CPU, ${cpu.api} ms of the API's and ${cpu.loadGenerator} ms of the load generator's: ${total.toFixed(2)} ms of this machine's ${cores} cores, which caps it near ${Math.round((cores * 1000) / total)} req/s before any waiting.`;
  if (!db || result.apiShareOfDb == null) return `${share} ${bound} ${cost} ${endpointWork(name)}`.trim();
  // With every core busy in both turns, each rate is the cores over the CPU a request costs in all, so the
  // share can reach at most the SQL's CPU over the request's.
  const alone = db.cpuMsPerRequest.postgres + db.cpuMsPerRequest.client;
  const ceiling = alone / total;
  const pgRatio = db.cpuMsPerRequest.postgres > 0 ? cpu.postgres / db.cpuMsPerRequest.postgres : null;
  const limit = `The cores were busy in both turns, so the share can reach about the SQL's CPU over the request's: ${alone.toFixed(2)} ms alone (PostgreSQL and the client) against ${total.toFixed(2)} ms through the API, at most ${Math.round(ceiling * 100)}%.${
    pgRatio !== null && pgRatio > 1.15
      ? ` PostgreSQL itself spent ${pgRatio.toFixed(1)}x the CPU on the same statements beside the API and the load generator as alone, most likely because, sharing two cores with them, its sessions more often sleep and wake between statements: the API sends a turn of its event loop's statements at once, while the replay's client has the next ones queued as each answer comes; and they run with colder caches.`
      : ""
  }`;
  const lift =
    cpu.api >= db.cpuMsPerRequest.postgres
      ? "The API's own CPU per request (HTTP, routing, hooks, the answer's JSON) is as large as the statement's: what lifts the share is less of it per request; a cheaper statement would lower the share, not raise it. Across machines, more cores run the API and PostgreSQL side by side."
      : "The statement costs PostgreSQL more than the request costs the API: the share is bounded by PostgreSQL's extra CPU beside the API; more cores keep them apart.";
  return `${share} ${bound} ${cost} ${limit} ${endpointWork(name)} ${lift}`.replace(/\s+/g, " ").trim();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The report named on the command line (one written elsewhere with BENCH_REPORT), else the committed one.
  const path = new URL(process.argv[2] ?? "./api-report.json", new URL("./", import.meta.url));
  const report = JSON.parse(readFileSync(path, "utf8")) as {
    conditions: { connections: number };
    endpoints: Record<string, Result>;
    missed: string[];
    notes: Record<string, unknown>;
    fixes?: Record<string, string>;
  };
  report.fixes = Object.fromEntries(
    report.missed.map((name) => [
      name,
      whatWouldFix(name, report.endpoints[name] as Result, report.conditions.connections),
    ]),
  );
  writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`annotated ${report.missed.length} missed endpoints in ${path.pathname}`);
}
