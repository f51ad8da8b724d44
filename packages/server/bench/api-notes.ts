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
    ? "The category lives on the collection (collection_details), not on the token, so the planner starts from the category's collections, joins all their tokens and sorts them (plan below), instead of walking the price index and checking each token. Fix: keep the category on chain_tokens too (set by the same statement that sets a collection's category) with an index on (category, price, collection, token_id), so the filter is part of the index walk."
    : name.startsWith("search")
      ? "Search runs a prefix lookup on btrees and, when it finds fewer than 5, a typo lookup on the GIN trigram indexes that scores every candidate they return; names that share most of their trigrams (thousands of 'Harbour Lights N' here) make that lookup the costly part. Ordering by trigram distance from GiST indexes was measured and was slower on these names. Fix: look typos up in a table of distinct words (a few thousand, not 120,000 names), then names by word; cache the answers to the commonest searches for a few seconds."
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
