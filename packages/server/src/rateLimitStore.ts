import type { FastifyRateLimitStore } from "@fastify/rate-limit";
import type pg from "pg";

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;

/** How often (one call in N) a counter update also deletes counters whose window ended long ago. */
const SWEEP_EVERY = 200;

/**
 * Rate-limit counters for @fastify/rate-limit. The routes with their own limits (sign-in, forms, reports,
 * uploads …) count in PostgreSQL, which every API replica shares, so a limit holds however many replicas
 * run. The plugin-wide limit (1,200 requests a minute on every route) stays in this process: it only
 * guards against floods, and a database write on every request would cost more than it protects.
 */
export function sharedRateLimitStore(pool: pg.Pool, scope: string) {
  class LocalCounters implements FastifyRateLimitStore {
    readonly #counters = new Map<string, { count: number; ends: number }>();

    incr(key: string, callback: Callback, timeWindow: number): void {
      const now = Date.now();
      let counter = this.#counters.get(key);
      if (!counter || counter.ends <= now) {
        if (this.#counters.size > 10_000) this.#sweep(now);
        counter = { count: 0, ends: now + timeWindow };
        this.#counters.set(key, counter);
      }
      counter.count++;
      callback(null, { current: counter.count, ttl: counter.ends - now });
    }

    #sweep(now: number) {
      for (const [key, counter] of this.#counters) if (counter.ends <= now) this.#counters.delete(key);
    }

    child(routeOptions: {
      method?: string | string[];
      url?: string;
      routeInfo?: { method?: unknown; url?: unknown };
    }) {
      const info = routeOptions.routeInfo ?? routeOptions;
      // Fastify adds a HEAD route beside each GET that runs the same handler: both spend one budget.
      const method = String(info.method) === "HEAD" ? "GET" : String(info.method);
      return new SharedCounters(`${scope}${method} ${String(info.url)}`);
    }
  }

  class SharedCounters implements FastifyRateLimitStore {
    #calls = 0;
    constructor(readonly route: string) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      this.#increment(`${this.route}|${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    async #increment(key: string, timeWindow: number): Promise<Result> {
      if (++this.#calls % SWEEP_EVERY === 0) {
        await pool.query("DELETE FROM rate_limit_counters WHERE window_ends < now() - interval '1 hour'");
      }
      // One statement: a new window starts when the last one ended, else the count goes up by one.
      const { rows } = await pool.query<{ count: number; ttl: number }>(
        `INSERT INTO rate_limit_counters AS c (key, count, window_ends)
         VALUES ($1, 1, clock_timestamp() + $2 * interval '1 millisecond')
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN c.window_ends <= clock_timestamp() THEN 1 ELSE c.count + 1 END,
           window_ends = CASE WHEN c.window_ends <= clock_timestamp() THEN EXCLUDED.window_ends ELSE c.window_ends END
         RETURNING count, greatest(0, ceil(extract(epoch FROM (window_ends - clock_timestamp())) * 1000))::int AS ttl`,
        [key, timeWindow],
      );
      const row = rows[0] as { count: number; ttl: number };
      return { current: row.count, ttl: row.ttl };
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  }

  return LocalCounters;
}
