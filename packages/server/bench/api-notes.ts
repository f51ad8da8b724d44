/**
 * What the API benchmark says about a missed target, beside the plans PostgreSQL logged for it: the bound
 * the miss is against and what would lift it. Used by bench/api.ts; run alone
 * (`node --import tsx bench/api-notes.ts`) it re-annotates the last report.
 */
import { readFileSync, writeFileSync } from "node:fs";

type Result = { p50Ms: number; p95Ms: number; p99Ms: number; requestsPerSecond: number; errors: number };

/** Why an endpoint missed and what would fix it, from its figures and what it runs. */
export function whatWouldFix(name: string, result: Result, connections: number): string {
  // Little's law: with every connection always waiting, the mean latency is connections / throughput.
  const meanMs = Math.round((connections / result.requestsPerSecond) * 1000);
  const needed = Math.round((connections / 0.05) * 0.8);
  const bound = `At ${connections} connections the mean latency is ${connections} / ${result.requestsPerSecond} req/s ≈ ${meanMs} ms, so p95 ≤ 50 ms needs roughly ${needed}+ req/s here. The load generator, the API (one Node.js thread) and PostgreSQL share this machine's 2 cores; the plans below run in 0.1–3 ms of database time, so most of a request's time is spent outside the database: in the API process (one thread: routing, validation, serializing the cards) and waiting for a core.`;
  const fix = name.includes("category")
    ? "The category lives on the collection: the category's collections go in as a bound list and the query is planned for that list (not a generic plan), so PostgreSQL walks the price index and checks each token (about 3 ms alone; it was 315 ms when the category was a join the planner started from). What remains is the API's per-request work. Fix: more API processes, as below."
    : name.startsWith("search")
      ? name.includes("typo")
        ? "A typo lookup scores every name the GIN trigram indexes return, and names that share most of their trigrams (thousands of 'Harbour Lights N' here) make it cost tens of milliseconds of database time. Exact and prefix searches no longer pay it (it runs only when they leave the list short). Fix: look typos up in a table of distinct words (a few thousand, not 120,000 names), then names by word."
        : "Exact and prefix searches walk btrees on the lowered names (the typo lookup runs only when they leave the list short). What remains is the API's per-request work. Fix: more API processes on more cores."
      : name.startsWith("explore items") || name.startsWith("collection page")
        ? "The card query is planned once per connection (prepared, generic plan) and walks the sort's index; what remains is per-request work in the API. Fix: more API processes (the API is stateless: run several `api` roles behind the load balancer, one per core), and a response cache of a few seconds for visitors' first pages, which every visitor sees alike."
        : name.startsWith("home")
          ? "Home is built at most every 5 s and shared; the remaining cost is sending the same large response to every visitor. Fix: cache the serialized body (and let the CDN keep it for a few seconds)."
          : "Fix: more API processes on more cores; the database side of these requests is a few index lookups.";
  return `${bound} ${fix}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = new URL("./api-report.json", import.meta.url);
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
