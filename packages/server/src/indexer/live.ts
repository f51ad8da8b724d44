import pg from "pg";
import type { Database } from "../db/client.ts";
import { CHAIN_CHANNEL, type ChainNotice } from "./notice.ts";

/** What a live subscriber wants to hear about; empty means everything. Values lowercase. */
export type LiveFilter = { token?: string; collection?: string; account?: string };

/** Whether a batch notice concerns a subscriber. */
export function matches(notice: ChainNotice, filter: LiveFilter): boolean {
  if (notice.all || (!filter.token && !filter.collection && !filter.account)) return true;
  return (
    (!!filter.token && !!notice.tokens?.includes(filter.token)) ||
    (!!filter.collection && !!notice.collections?.includes(filter.collection)) ||
    (!!filter.account && !!notice.accounts?.includes(filter.account))
  );
}

/**
 * Where the indexer's stored events end: the last event's block, log index and block hash ("none" before the
 * first). Every batch that publishes a notice stores events and so moves it, and a reorg that replaces them
 * moves it too: two reads that agree mean nothing a live subscriber hears about was committed in between.
 * A page's first answers are read after one (web/firstPaint.ts) and a stream's `ready` names one, so a page
 * whose stream opens at its own position need not read again what it already shows.
 */
export async function chainPosition(db: Database): Promise<string> {
  const { rows } = await db.$client.query<{ block_number: string; log_index: number; block_hash: string }>(
    "SELECT block_number, log_index, block_hash FROM chain_events ORDER BY block_number DESC, log_index DESC LIMIT 1",
  );
  const last = rows[0];
  return last ? `${last.block_number}:${last.log_index}:${last.block_hash}` : "none";
}

/** The LISTEN connection's application_name in pg_stat_activity. */
export const LISTENER_NAME = "easel-live";
const PING_INTERVAL_MS = 15_000;
const PING_TIMEOUT_MS = 5_000;

type Subscriber = { filter: LiveFilter; send: (notice: ChainNotice) => void };

/**
 * One LISTEN connection per API process, shared by every Server-Sent Events stream: it connects with
 * the first subscriber, reconnects with backoff when the connection drops (telling subscribers to
 * refresh everything, since notices may have been missed) and closes with the app.
 */
export class ChainListener {
  readonly #subscribers = new Set<Subscriber>();
  #client: pg.Client | null = null;
  #starting = false;
  #closed = false;
  #retryMs = 250;
  /** Set when a connection was lost: notices may have been missed until the next one listens. */
  #missed = false;
  #ping: NodeJS.Timeout | null = null;
  /** Who waits for the connection to listen (`listening`). */
  readonly #waiting = new Set<() => void>();

  constructor(
    readonly databaseUrl: string,
    readonly log: (line: string) => void = () => {},
  ) {}

  subscribe(filter: LiveFilter, send: (notice: ChainNotice) => void): () => void {
    const subscriber = { filter, send };
    this.#subscribers.add(subscriber);
    void this.#start();
    return () => this.#subscribers.delete(subscriber);
  }

  /**
   * Resolves true once the LISTEN connection listens, so every batch committed from then on reaches the
   * subscribers; false if it does not within `timeoutMs` (the database is away).
   */
  listening(timeoutMs: number): Promise<boolean> {
    if (this.#client) return Promise.resolve(true);
    void this.#start();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiting.delete(done);
        resolve(false);
      }, timeoutMs);
      this.#waiting.add(done);
    });
  }

  get size(): number {
    return this.#subscribers.size;
  }

  #dispatch(notice: ChainNotice): void {
    for (const s of this.#subscribers) {
      if (matches(notice, s.filter)) s.send(notice);
    }
  }

  async #start(): Promise<void> {
    if (this.#client || this.#starting || this.#closed) return;
    this.#starting = true;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: LISTENER_NAME,
      // A blackholed server is found by TCP keepalive within seconds of idleness, as on the pools.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    let retried = false;
    const retry = () => {
      if (retried) return;
      retried = true;
      if (this.#client === client) this.#client = null;
      this.#stopPing();
      client.removeAllListeners();
      client.on("error", () => {});
      void client.end().catch(() => {});
      if (this.#closed) return;
      this.#missed = true;
      setTimeout(() => void this.#start(), this.#retryMs).unref();
      // At most 2 s apart: streams learn within seconds that the database is back (one attempt costs little).
      this.#retryMs = Math.min(this.#retryMs * 2, 2_000);
    };
    client.on("error", (error) => {
      this.log(`live updates: LISTEN connection lost (${error.message}); reconnecting`);
      retry();
    });
    client.on("end", () => {
      if (!this.#closed && this.#client === client) retry();
    });
    client.on("notification", (message) => {
      if (message.channel !== CHAIN_CHANNEL || !message.payload) return;
      try {
        this.#dispatch(JSON.parse(message.payload) as ChainNotice);
      } catch {
        // Not ours.
      }
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHAIN_CHANNEL}`);
      if (this.#closed) {
        await client.end();
        return;
      }
      this.#client = client;
      this.#retryMs = 250;
      for (const done of this.#waiting) done();
      this.#waiting.clear();
      // A connection that dies without a word (a cut network) is found by a ping that fails.
      this.#ping = setInterval(() => {
        const timeout = setTimeout(retry, PING_TIMEOUT_MS);
        client.query("SELECT 1").then(
          () => clearTimeout(timeout),
          () => {
            clearTimeout(timeout);
            retry();
          },
        );
      }, PING_INTERVAL_MS);
      this.#ping.unref();
      if (this.#missed) {
        this.#missed = false;
        this.#dispatch({ from: "0", to: "0", all: true });
      }
    } catch (error) {
      this.log(`live updates: cannot LISTEN (${error instanceof Error ? error.message : error}); retrying`);
      retry();
    } finally {
      this.#starting = false;
    }
  }

  #stopPing(): void {
    if (this.#ping) clearInterval(this.#ping);
    this.#ping = null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopPing();
    this.#subscribers.clear();
    const client = this.#client;
    this.#client = null;
    if (client) await client.end().catch(() => {});
  }
}
