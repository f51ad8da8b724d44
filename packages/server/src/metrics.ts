import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import type pg from "pg";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics of this process: every metric is defined here once. The API, the indexer and the
 * worker record into them; `startMetricsServer` serves them on their own port (METRICS_PORT), never on
 * the public one. Names start with `easel_`; Node's process metrics (CPU, memory, event-loop delay) keep
 * prom-client's usual names.
 */
export const registry = new Registry();

// --- HTTP API --------------------------------------------------------------------------------------

export const httpDuration = new Histogram({
  name: "easel_http_request_duration_seconds",
  help: "Time to answer a request (API, page or file), by method, route pattern and status code.",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const rateLimited = new Counter({
  name: "easel_http_rate_limited_total",
  help: "Requests refused with 429 (a rate limit, or too many live streams), by route pattern.",
  labelNames: ["route"] as const,
  registers: [registry],
});

export const liveStreams = new Gauge({
  name: "easel_live_streams",
  help: "Live-update streams (GET /api/events) open on this API process.",
  registers: [registry],
});

/** A request that matched no route is labelled so, never by its URL: the label set stays bounded. */
const UNMATCHED = "(unmatched)";

/** Records every answer's duration by route pattern (`/api/nft/:id`, never the raw URL) and status. */
export function observeRequests(app: FastifyInstance): void {
  app.addHook("onResponse", (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED;
    httpDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    if (reply.statusCode === 429) rateLimited.inc({ route });
    done();
  });
}

// --- Database pools --------------------------------------------------------------------------------

const pools = new Set<{ name: string; source: pg.Pool }>();

export const poolWaits = new Counter({
  name: "easel_db_pool_waits_total",
  help: "Connection requests that found every connection of a pool in use, and had to wait.",
  labelNames: ["pool"] as const,
  registers: [registry],
});

/**
 * Reports a connection pool under `name` until it ends (several pools of one name are summed), and counts
 * the requests that must wait for a connection (`pool.query` asks through `connect` too), which a gauge
 * read every few seconds would miss.
 */
export function trackPool(name: string, pool: pg.Pool): void {
  pools.add({ name, source: pool });
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) => {
    if (pool.idleCount === 0 && pool.totalCount >= (pool.options.max ?? 10)) poolWaits.inc({ pool: name });
    return connect(...args);
  }) as typeof pool.connect;
}

/**
 * A gauge read when scraped from the connection sources in `entries` (pools or pipelined connections), summed
 * by their name under the `pool` label; a source that has ended is forgotten.
 */
function summedGauge<T extends { readonly ended: boolean }>(
  entries: Set<{ name: string; source: T }>,
  name: string,
  help: string,
  read: (source: T) => number,
) {
  return new Gauge({
    name,
    help,
    labelNames: ["pool"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const sums = new Map<string, number>();
      for (const entry of entries) {
        if (entry.source.ended) {
          entries.delete(entry);
          continue;
        }
        sums.set(entry.name, (sums.get(entry.name) ?? 0) + read(entry.source));
      }
      for (const [pool, value] of sums) this.set({ pool }, value);
    },
  });
}

/** One gauge per figure of node-postgres' pool. */
const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) =>
  summedGauge(pools, name, help, read);

poolGauge(
  "easel_db_pool_connections",
  "Open connections of a PostgreSQL pool ('main').",
  (pool) => pool.totalCount,
);
poolGauge(
  "easel_db_pool_idle_connections",
  "Open connections of a pool not lent out.",
  (pool) => pool.idleCount,
);
poolGauge(
  "easel_db_pool_waiting_clients",
  "Queries waiting for a connection because every connection of the pool is in use.",
  (pool) => pool.waitingCount,
);
poolGauge(
  "easel_db_pool_max_connections",
  "The most connections a pool may open.",
  (pool) => pool.options.max ?? 10,
);

/** What the metrics read of a set of pipelined connections (db/pipelined.ts). */
type Pipelines = { readonly connections: number; readonly inFlight: number; readonly ended: boolean };

const pipelines = new Set<{ name: string; source: Pipelines }>();

/** Reports a set of pipelined connections under `name` until it ends. */
export function trackPipelines(name: string, set: Pipelines): void {
  pipelines.add({ name, source: set });
}

summedGauge(
  pipelines,
  "easel_db_pipelined_connections",
  "Open pipelined PostgreSQL connections ('repeated': the prepared browse reads).",
  (set) => set.connections,
);
summedGauge(
  pipelines,
  "easel_db_pipelined_statements_in_flight",
  "Statements sent on pipelined connections and not yet answered: a growing figure means the database is behind.",
  (set) => set.inFlight,
);

// --- Indexer ---------------------------------------------------------------------------------------

export const indexerHead = new Gauge({
  name: "easel_indexer_head_block",
  help: "The chain's head block as the indexer last read it.",
  registers: [registry],
});

export const indexerIndexed = new Gauge({
  name: "easel_indexer_indexed_block",
  help: "The last block the indexer has committed.",
  registers: [registry],
});

export const indexerLeader = new Gauge({
  name: "easel_indexer_leader",
  help: "1 while this process leads the indexing and makes progress (its lease is fresh), 0 otherwise.",
  registers: [registry],
});

export const indexerBatchDuration = new Histogram({
  name: "easel_indexer_batch_duration_seconds",
  help: "Time of one indexer batch, from reading its logs to its commit.",
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});

export const indexerEvents = new Counter({
  name: "easel_indexer_events_total",
  help: "Chain events the indexer committed (rate() of it is events per second).",
  registers: [registry],
});

/** Where this process's indexer stands: enough to say how far behind the chain it is, in seconds. */
const progress = { leader: false, caughtUp: true, caughtUpAt: 0, graceMs: 0, indexedTime: 0 };

new Gauge({
  name: "easel_indexer_lag_seconds",
  help:
    "In the leading indexer: how old the last indexed block is while it is behind the chain's final head; while " +
    "it cannot tell (the chain or the database away, a step hung), the time since it last found itself caught up. " +
    "0 when caught up, and in a standby.",
  registers: [registry],
  collect() {
    const now = Date.now();
    let lag = 0;
    if (progress.leader) {
      if (!progress.caughtUp) lag = progress.indexedTime > 0 ? now / 1000 - progress.indexedTime : 0;
      else lag = (now - progress.caughtUpAt - progress.graceMs) / 1000;
    }
    this.set(Math.max(0, lag));
  },
});

/** This process leads the indexing (and makes progress), or no longer does. */
export function setIndexerLeader(leader: boolean): void {
  indexerLeader.set(leader ? 1 : 0);
  progress.leader = leader;
  // A new leader knows nothing of the lag until its first step.
  if (leader) Object.assign(progress, { caughtUp: true, caughtUpAt: Date.now() });
}

/**
 * Records an indexer step: the head it read, the block it committed up to (or stands on) and that block's time
 * (seconds), whether that reached the final head, and the poll interval (a caught-up indexer reads again within
 * it: longer than that and a step is late).
 */
export function observeIndexer(step: {
  head: bigint;
  indexed: bigint | null;
  indexedTime?: number;
  caughtUp: boolean;
  pollMs?: number;
}): void {
  indexerHead.set(Number(step.head));
  if (step.indexed !== null) indexerIndexed.set(Number(step.indexed));
  if (step.indexedTime !== undefined) progress.indexedTime = step.indexedTime;
  progress.caughtUp = step.caughtUp;
  if (step.caughtUp) progress.caughtUpAt = Date.now();
  progress.graceMs = 2 * (step.pollMs ?? 1000) + 1000;
}

/** What an API process reads of the indexer for its health check (`indexer/status.ts`). */
export type IndexerStatus = { lagBlocks: number; lastProgress: number | null };
export type IndexerStatusRead = () => Promise<IndexerStatus | null>;

let indexerStatus: {
  read: IndexerStatusRead;
  last: Promise<Awaited<ReturnType<IndexerStatusRead>>> | null;
} | null = null;

/** One read per scrape, shared by the gauges below; null when the database cannot answer. */
function readIndexerStatus() {
  const watched = indexerStatus;
  if (!watched) return Promise.resolve(null);
  watched.last ??= watched.read().catch(() => null);
  const last = watched.last;
  setTimeout(() => {
    if (watched.last === last) watched.last = null;
  }, 500).unref();
  return last;
}

/** Gauges of every API process, from the same computation as `/api/health` (registered by the first API). */
const apiIndexerGauges = (
  [
    [
      "easel_indexer_lag_blocks",
      "Blocks between the chain's head and the indexed block, as /api/health reports them (lag).",
      (status) => status.lagBlocks,
    ],
    [
      "easel_indexer_last_progress_timestamp_seconds",
      "When the indexing leader last made progress reading the chain (its lease, Unix seconds); " +
        "time() minus it is /api/health's leaderHeartbeatAge.",
      (status) => status.lastProgress,
    ],
  ] as const satisfies [string, string, (status: IndexerStatus) => number | null][]
).map(
  ([name, help, value]) =>
    [
      name,
      new Gauge({
        name,
        help,
        registers: [],
        async collect() {
          // NaN (no alert fires on it) when the database cannot answer or nothing is indexed yet.
          const status = await readIndexerStatus();
          this.set((status ? value(status) : null) ?? Number.NaN);
        },
      }),
    ] as const,
);

/**
 * Exports the indexer's lag and last progress as this API process's health check computes them; returns the
 * function that stops (when the app closes). A process that serves no API exports neither.
 */
export function watchIndexer(read: IndexerStatusRead): () => void {
  const watched = { read, last: null };
  indexerStatus = watched;
  for (const [name, gauge] of apiIndexerGauges) {
    if (!registry.getSingleMetric(name)) registry.registerMetric(gauge);
  }
  return () => {
    if (indexerStatus !== watched) return;
    indexerStatus = null;
    for (const [name] of apiIndexerGauges) registry.removeSingleMetric(name);
  };
}

// --- Platform signer ------------------------------------------------------------------------------

let signerBalance: { address: string; read: () => Promise<bigint | null> } | null = null;

new Gauge({
  name: "easel_signer_balance_eth",
  help: "The platform signer's balance in ETH (it pays for voucher revocations); absent when the chain cannot answer.",
  labelNames: ["address"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    if (!signerBalance) return;
    const wei = await signerBalance.read().catch(() => null);
    if (wei !== null) this.set({ address: signerBalance.address.toLowerCase() }, Number(wei) / 1e18);
  },
});

/**
 * The API's reader of the signer's balance (cached, see `chain/signerBalance.ts`): read when scraped. Returns the
 * unwatch, which a closing API calls so that the gauge stops reading through its chain client.
 */
export function watchSignerBalance(address: string, read: () => Promise<bigint | null>): () => void {
  const watched = { address, read };
  signerBalance = watched;
  return () => {
    if (signerBalance === watched) signerBalance = null;
  };
}

// --- Worker and mail -------------------------------------------------------------------------------

export const jobsFailed = new Counter({
  name: "easel_jobs_failed_total",
  help: "Background jobs whose handler threw (pg-boss retries them), by queue.",
  labelNames: ["queue"] as const,
  registers: [registry],
});

export const mailFailures = new Counter({
  name: "easel_mail_failures_total",
  help: "Mail messages that could not be sent (they stay in the outbox and are retried), by mailer.",
  labelNames: ["mailer"] as const,
  registers: [registry],
});

let jobsPool: pg.Pool | null = null;

new Gauge({
  name: "easel_jobs_queued",
  help: "Background jobs waiting (state 'created' or 'retry') or running ('active'), by queue.",
  labelNames: ["queue", "state"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    if (!jobsPool || jobsPool.ended) return;
    // Every queue shows, an empty one with 0, so a dashboard sees the queue drain instead of vanish. When the
    // database cannot answer, the queues are left out and the other metrics still come.
    const { rows } = await jobsPool
      .query<{ queue: string; waiting: number; active: number }>(
        `SELECT q.name AS queue,
                count(j.id) FILTER (WHERE j.state IN ('created', 'retry'))::int AS waiting,
                count(j.id) FILTER (WHERE j.state = 'active')::int AS active
         FROM pgboss.queue q LEFT JOIN pgboss.job j ON j.name = q.name AND j.state < 'completed'
         GROUP BY q.name`,
      )
      .catch(() => ({ rows: [] }));
    for (const row of rows) {
      this.set({ queue: row.queue, state: "waiting" }, row.waiting);
      this.set({ queue: row.queue, state: "active" }, row.active);
    }
  },
});

/** The worker's database, where pg-boss keeps its queues: their depth is counted there when scraped. */
export function watchJobQueues(pool: pg.Pool): void {
  jobsPool = pool;
}

/** A job handler that counts its failures (and still throws, so pg-boss retries the job). */
export function countFailures<A extends unknown[], R>(
  queue: string,
  handler: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await handler(...args);
    } catch (error) {
      jobsFailed.inc({ queue });
      throw error;
    }
  };
}

// --- The metrics endpoint --------------------------------------------------------------------------

export type MetricsServer = { url: string; stop(): Promise<void> };

/**
 * Serves `GET /metrics` (Prometheus text format) on its own port. Bind it to a private interface: it
 * tells anyone who reaches it how the service runs, and it is not rate limited.
 */
export async function startMetricsServer(host: string, port: number): Promise<MetricsServer> {
  // Node's process metrics, measured from the first endpoint on (a process that serves none pays nothing).
  if (!registry.getSingleMetric("process_cpu_user_seconds_total"))
    collectDefaultMetrics({ register: registry });
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found: scrape /metrics\n");
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) =>
        response
          .writeHead(500, { "content-type": "text/plain" })
          .end(`metrics failed: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
