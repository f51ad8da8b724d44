/**
 * Prometheus metrics, scraped from the real endpoint after real traffic: API requests, a rate-limit refusal,
 * a live stream, an indexer batch, the worker's queues, a failing job and a failing mail server. Also the
 * request ids of the JSON logs, and that metrics never answer on the public port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { PgBoss } from "pg-boss";
import { createTestClient, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { createChainClient } from "../src/chain/client.ts";
import { loadConfig } from "../src/config.ts";
import { createDatabase } from "../src/db/client.ts";
import { freePort } from "../src/embedded/process.ts";
import { startIndexer } from "../src/indexer/indexer.ts";
import { createMailer } from "../src/mail/mailer.ts";
import { deliverPendingMail, queueMail } from "../src/mail/outbox.ts";
import { countFailures, type MetricsServer, startMetricsServer } from "../src/metrics.ts";
import { startWorker, type Worker } from "../src/worker/worker.ts";
import { configError, validEnv } from "./helpers.ts";

const config = loadConfig(validEnv({ LOG_LEVEL: "info" }));
const db = createDatabase(config.databaseUrl);
const chain = createChainClient(config.chainId, config.rpcUrls);
const testClient = createTestClient({ mode: "anvil", transport: http(config.rpcUrls[0]) });

/** The API's JSON log lines, as written. */
const logLines: string[] = [];
const logStream = {
  write(chunk: string) {
    logLines.push(...chunk.split("\n").filter(Boolean));
    return true;
  },
} as unknown as NodeJS.WritableStream;

let app: Awaited<ReturnType<typeof buildApp>>;
let apiUrl: string;
let metrics: MetricsServer;

beforeAll(async () => {
  app = await buildApp({ config, db, chain }, { rateLimitScope: `${randomUUID()}:`, logStream });
  apiUrl = await app.listen({ host: "127.0.0.1", port: 0 });
  metrics = await startMetricsServer("127.0.0.1", 0);
});
afterAll(async () => {
  await metrics.stop();
  await app.close();
  await db.execute(sql`DELETE FROM indexer_state; DELETE FROM indexer_leader`);
  await db.$client.end();
});

const scrape = async () => {
  const response = await fetch(metrics.url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

/** The value of one sample: the metric `name` whose labels include every one of `labels`. */
function value(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const present = match[2] ?? "";
    if (Object.entries(labels).every(([key, v]) => present.includes(`${key}="${v}"`)))
      return Number(match[3]);
  }
  return undefined;
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("condition not met in time");
}

describe("the metrics endpoint", () => {
  it("times requests by route pattern and status, never by the raw URL", async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(`${apiUrl}/api/config`)).status).toBe(200);
    const cid = `bafy${randomUUID().replaceAll("-", "")}`;
    const media = await fetch(`${apiUrl}/ipfs/${cid}`);
    await media.arrayBuffer();
    const missing = await fetch(`${apiUrl}/api/no-such-route-${cid}`);
    expect(missing.status).toBe(404);

    const text = await scrape();
    const config = { method: "GET", route: "/api/config", status: "200" };
    expect(value(text, "easel_http_request_duration_seconds_count", config)).toBeGreaterThanOrEqual(3);
    expect(value(text, "easel_http_request_duration_seconds_sum", config)).toBeGreaterThan(0);
    expect(value(text, "easel_http_request_duration_seconds_bucket", { ...config, le: "+Inf" })).toBe(
      value(text, "easel_http_request_duration_seconds_count", config),
    );
    expect(
      value(text, "easel_http_request_duration_seconds_count", {
        route: "/ipfs/:cid",
        status: String(media.status),
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(text, "easel_http_request_duration_seconds_count", { route: "(unmatched)", status: "404" }),
    ).toBeGreaterThanOrEqual(1);
    // Whatever URLs clients send, the label set stays the routes'.
    expect(text).not.toContain(cid);
    // Node's own process metrics come along.
    expect(value(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("counts rate-limit refusals by route", async () => {
    const route = "/api/marketing/subscribe";
    const before = value(await scrape(), "easel_http_rate_limited_total", { route }) ?? 0;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const response = await fetch(`${apiUrl}${route}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `metrics-${randomUUID()}@example.com` }),
      });
      statuses.push(response.status);
    }
    // 10 a minute per address: the last two are refused, and counted.
    expect(statuses.slice(10)).toEqual([429, 429]);
    expect(value(await scrape(), "easel_http_rate_limited_total", { route })).toBe(before + 2);
  });

  it("counts open live streams, and forgets a closed one", async () => {
    const before = value(await scrape(), "easel_live_streams") ?? 0;
    const abort = new AbortController();
    const stream = await fetch(`${apiUrl}/api/events`, { signal: abort.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toContain("event: ready");
    expect(value(await scrape(), "easel_live_streams")).toBe(before + 1);
    abort.abort();
    await waitFor(async () => value(await scrape(), "easel_live_streams") === before);
  });

  it("reports the database pools: open, idle and waiting", async () => {
    const text = await scrape();
    expect(value(text, "easel_db_pool_connections", { pool: "main" })).toBeGreaterThan(0);
    expect(value(text, "easel_db_pool_idle_connections", { pool: "main" })).toBeGreaterThanOrEqual(0);
    expect(value(text, "easel_db_pool_waiting_clients", { pool: "main" })).toBe(0);
    expect(value(text, "easel_db_pool_max_connections", { pool: "main" })).toBeGreaterThanOrEqual(10);

    // More queries at once than a pool has connections: the rest wait, and the gauge shows them.
    const waits = value(text, "easel_db_pool_waits_total", { pool: "main" }) ?? 0;
    const small = createDatabase(config.databaseUrl, { max: 1 });
    try {
      const queries = Array.from({ length: 4 }, () => small.$client.query("SELECT pg_sleep(0.3)"));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(value(await scrape(), "easel_db_pool_waiting_clients", { pool: "main" })).toBe(3);
      await Promise.all(queries);
      // The waits are counted too, so a scrape between two bursts still knows they happened.
      expect(value(await scrape(), "easel_db_pool_waits_total", { pool: "main" })).toBe(waits + 3);
      expect(value(await scrape(), "easel_db_pool_waiting_clients", { pool: "main" })).toBe(0);
      // A free connection is lent without a wait.
      await small.$client.query("SELECT 1");
      expect(value(await scrape(), "easel_db_pool_waits_total", { pool: "main" })).toBe(waits + 3);
    } finally {
      await small.$client.end();
    }
  });

  it("reports the browse reads' pipelined connections and the statements in flight on them", async () => {
    const reads = createDatabase(config.databaseUrl, { readConnections: 2 });
    try {
      const before = value(await scrape(), "easel_db_pipelined_connections", { pool: "repeated" }) ?? 0;
      // Six slow reads at once: both connections open, all six in flight while they sleep.
      const slow = Array.from({ length: 6 }, () =>
        reads.$repeated.execute(sql`SELECT pg_sleep(0.4)::text AS slept`),
      );
      await new Promise((resolve) => setTimeout(resolve, 150));
      const text = await scrape();
      expect(value(text, "easel_db_pipelined_connections", { pool: "repeated" })).toBe(before + 2);
      expect(value(text, "easel_db_pipelined_statements_in_flight", { pool: "repeated" })).toBe(6);
      await Promise.all(slow);
      expect(value(await scrape(), "easel_db_pipelined_statements_in_flight", { pool: "repeated" })).toBe(0);
    } finally {
      await reads.$client.end();
    }
  });

  it("reports the indexer's head, cursor, lag, batches and events", async () => {
    const head = await chain.getBlockNumber({ cacheTime: 0 });
    await db.execute(sql`DELETE FROM indexer_state; DELETE FROM indexer_leader`);
    const indexer = startIndexer({
      db,
      chain,
      config: { ...config, deployBlock: head + 1n },
      log: () => {},
      pollIntervalMs: 100,
    });
    try {
      const batches = value(await scrape(), "easel_indexer_batch_duration_seconds_count") ?? 0;
      await testClient.mine({ blocks: 3 });
      await waitFor(async () => {
        const text = await scrape();
        return (value(text, "easel_indexer_indexed_block") ?? 0) >= Number(head + 3n);
      });
      const text = await scrape();
      expect(value(text, "easel_indexer_leader")).toBe(1);
      expect(value(text, "easel_indexer_head_block")).toBeGreaterThanOrEqual(Number(head + 3n));
      expect(value(text, "easel_indexer_batch_duration_seconds_count")).toBeGreaterThan(batches);
      expect(value(text, "easel_indexer_batch_duration_seconds_sum")).toBeGreaterThan(0);
      expect(value(text, "easel_indexer_events_total")).toBeGreaterThanOrEqual(0);
      // Caught up with the chain's head: no lag.
      expect(value(text, "easel_indexer_lag_seconds")).toBe(0);
    } finally {
      await indexer.stop();
    }
    expect(value(await scrape(), "easel_indexer_leader")).toBe(0);
  });

  it("reports the lag in seconds of an indexer behind the chain", async () => {
    const head = await chain.getBlockNumber({ cacheTime: 0 });
    await db.execute(sql`DELETE FROM indexer_state; DELETE FROM indexer_leader`);
    // Two blocks two seconds apart; the indexer reads one block per batch and is held in the second.
    await testClient.mine({ blocks: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    await testClient.mine({ blocks: 1 });
    const first = await chain.getBlock({ blockNumber: head + 1n });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let batches = 0;
    const indexer = startIndexer({
      db,
      chain,
      config: { ...config, deployBlock: head + 1n },
      log: () => {},
      pollIntervalMs: 100,
      blockRange: 1n,
      applyLogs: async () => {
        if (++batches > 1) await held;
      },
    });
    try {
      await waitFor(async () => batches > 1);
      const text = await scrape();
      expect(value(text, "easel_indexer_indexed_block")).toBe(Number(head + 1n));
      // Behind the head: the lag is the age of the last indexed block.
      const age = Date.now() / 1000 - Number(first.timestamp);
      const lag = value(text, "easel_indexer_lag_seconds") ?? 0;
      expect(lag).toBeGreaterThanOrEqual(2);
      expect(Math.abs(lag - age)).toBeLessThan(1);
    } finally {
      release();
      await indexer.stop();
    }
  });

  it("reports the worker's queues and counts failed jobs", async () => {
    let worker: Worker | null = null;
    const boss = new PgBoss({ connectionString: config.databaseUrl, max: 2 });
    try {
      worker = await startWorker({ config, db, log: () => {} });
      const text = await scrape();
      for (const queue of ["purge-expired-auth", "deliver-mail"]) {
        expect(value(text, "easel_jobs_queued", { queue, state: "waiting" }), queue).toBeGreaterThanOrEqual(
          0,
        );
        expect(value(text, "easel_jobs_queued", { queue, state: "active" }), queue).toBeGreaterThanOrEqual(0);
      }

      // A queue with jobs waiting and a handler that fails them.
      const queue = `metrics-${randomUUID().slice(0, 8)}`;
      await boss.start();
      await boss.createQueue(queue, { retryLimit: 0 });
      await boss.insert(queue, [{ data: {} }, { data: {} }, { data: {} }]);
      expect(value(await scrape(), "easel_jobs_queued", { queue, state: "waiting" })).toBe(3);
      await boss.work(
        queue,
        { pollingIntervalSeconds: 0.5, batchSize: 1 },
        countFailures(queue, async () => {
          throw new Error("the job fails");
        }),
      );
      await waitFor(async () => value(await scrape(), "easel_jobs_failed_total", { queue }) === 3);
      await waitFor(
        async () => value(await scrape(), "easel_jobs_queued", { queue, state: "waiting" }) === 0,
      );
    } finally {
      await boss.stop({ graceful: false }).catch(() => {});
      await worker?.stop();
    }
  });

  it("counts mail that could not be sent", async () => {
    const before = value(await scrape(), "easel_mail_failures_total", { mailer: "smtp" }) ?? 0;
    // An SMTP server that is not there.
    const mailer = createMailer({ ...config, smtpUrl: `smtp://127.0.0.1:${await freePort()}` }, () => {});
    const tag = `metrics-${randomUUID()}`;
    await queueMail(db, [{ to: `${tag}@example.com`, subject: tag, text: "hi" }]);
    await deliverPendingMail(db, mailer, { limit: 50 });
    expect(value(await scrape(), "easel_mail_failures_total", { mailer: "smtp" })).toBeGreaterThanOrEqual(
      before + 1,
    );
  });

  it("answers nothing but GET /metrics", async () => {
    expect((await fetch(metrics.url.replace("/metrics", "/"))).status).toBe(404);
    expect((await fetch(metrics.url, { method: "POST" })).status).toBe(404);
  });
});

describe("request ids", () => {
  it("come back as X-Request-Id and are in the request's log lines", async () => {
    const response = await fetch(`${apiUrl}/api/config`, { headers: { "x-request-id": "lb-7f3a.2_b" } });
    expect(response.headers.get("x-request-id")).toBe("lb-7f3a.2_b");
    const lines = logLines.filter((line) => line.includes("lb-7f3a.2_b")).map((line) => JSON.parse(line));
    // Fastify's own lines: the request arriving and its answer, both JSON with the id.
    expect(lines.map((line) => line.msg)).toEqual(["incoming request", "request completed"]);
    for (const line of lines) expect(line.requestId).toBe("lb-7f3a.2_b");
  });

  it("are made up when absent or unsafe, and sent on errors and streams too", async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const plain = await fetch(`${apiUrl}/api/config`);
    expect(plain.headers.get("x-request-id")).toMatch(uuid);
    for (const unsafe of ['a b"c', "x".repeat(65), "{}", "<script>"]) {
      const response = await fetch(`${apiUrl}/api/config`, { headers: { "x-request-id": unsafe } });
      expect(response.headers.get("x-request-id"), unsafe).toMatch(uuid);
    }
    // Two requests never share a made-up id.
    const again = await fetch(`${apiUrl}/api/config`);
    expect(again.headers.get("x-request-id")).not.toBe(plain.headers.get("x-request-id"));

    const notFound = await fetch(`${apiUrl}/api/nothing-here`);
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("x-request-id")).toMatch(uuid);
    const invalid = await fetch(`${apiUrl}/api/nft/view`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "bad-body-1" },
      body: "{",
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get("x-request-id")).toBe("bad-body-1");
    const abort = new AbortController();
    const stream = await fetch(`${apiUrl}/api/events`, {
      signal: abort.signal,
      headers: { "x-request-id": "stream-1" },
    });
    expect(stream.headers.get("x-request-id")).toBe("stream-1");
    abort.abort();
  });
});

describe("METRICS_PORT", () => {
  it("is off unless set, private by default, and never the public port", () => {
    expect(loadConfig(validEnv()).metrics).toBeNull();
    expect(loadConfig(validEnv({ METRICS_PORT: "9464" })).metrics).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(loadConfig(validEnv({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" })).metrics).toEqual({
      host: "10.0.0.5",
      port: 9464,
    });
    expect(configError(validEnv({ PORT: "3000", METRICS_PORT: "3000" }))).toContain(
      "METRICS_PORT must differ from PORT",
    );
    for (const bad of ["0", "70000", "metrics", "94.64"]) {
      expect(configError(validEnv({ METRICS_PORT: bad })), bad).toContain("METRICS_PORT");
    }
  });
});

describe("a production role", () => {
  let child: ChildProcess | null = null;
  afterAll(() => {
    child?.kill("SIGKILL");
  });

  it("serves metrics on METRICS_PORT only, never on its public port, and logs JSON lines", async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    child = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(new URL("../src/bin/api.ts", import.meta.url))],
      {
        env: {
          ...process.env,
          ...validEnv({
            HOST: "127.0.0.1",
            PORT: String(port),
            METRICS_PORT: String(metricsPort),
            LOG_LEVEL: "info",
          }),
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    let stdout = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    await waitFor(async () => output.includes("metrics at"), 30_000).catch(() => {
      throw new Error(`the API did not start: ${output}`);
    });
    expect(output).toContain(`metrics at http://127.0.0.1:${metricsPort}/metrics`);
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain("easel_http_request_duration_seconds");
    for (const path of ["/metrics", "/api/metrics"]) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(response.status, path).toBe(404);
      const text = await response.text();
      expect(text).not.toContain("easel_");
      expect(text).not.toContain("# TYPE");
    }
    await fetch(`http://127.0.0.1:${port}/api/config`, { headers: { "x-request-id": "role-req-1" } });
    // The request's last line is written after its answer: wait for it, not for its first.
    await waitFor(async () =>
      stdout.split("\n").some((line) => line.includes("role-req-1") && line.includes("request completed")),
    );
    // Every line is JSON: the role's own ("api started") and the requests' (with their id).
    const lines = stdout
      .split("\n")
      .slice(0, -1) // the text after the last newline is a line still being written
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; requestId?: string; level: number });
    expect(lines.map((line) => line.msg)).toContain("api started (chain 31337)");
    const request = lines.filter((line) => line.requestId === "role-req-1");
    expect(request.map((line) => line.msg)).toEqual(["incoming request", "request completed"]);
    child.kill("SIGTERM");
    await new Promise((resolve) => child?.once("exit", resolve));
    // Stopped with its role: the port is free again.
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  }, 60_000);
});
