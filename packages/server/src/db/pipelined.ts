import type { Socket } from "node:net";
import { availableParallelism } from "node:os";
import pg from "pg";
import { CONNECT_TIMEOUT_MS } from "./availability.ts";

/**
 * How many pipelined connections the browse reads use when DATABASE_READ_CONNECTIONS does not say: one more than
 * this machine's cores (each connection keeps one PostgreSQL process busy, and the spare one covers a slow
 * statement at the head of a queue), at most 10, the main pool's size. Measured on the 2-core bench machine:
 * 3 connections served the header search and the card pages faster than 2, 4, 6 or 10.
 */
export function defaultReadConnections(): number {
  return Math.min(10, availableParallelism() + 1);
}

export type PipelinedSettings = {
  connectionString: string;
  /** How many connections. */
  size: number;
  /** Session settings sent at connection (`-c name=value …`). */
  options?: string;
  types?: pg.CustomTypesConfig;
  /** How long a connection takes new statements before a fresh one replaces it. */
  lifetimeSeconds: number;
  /** Said when a connection is lost. */
  log?: (line: string) => void;
  /** More settings of each connection: timeouts, keepalive (availability.ts, `boundedConnection`). */
  connection?: pg.ClientConfig;
};

type Slot = {
  client: pg.Client | null;
  opening: Promise<pg.Client> | null;
  inFlight: number;
  expires: number;
};

/**
 * A few PostgreSQL connections that each take many statements at once (node-postgres' pipeline mode), for
 * single read statements that leave nothing behind in the session (the browse reads, `$repeated`).
 *
 * Why not a pool: a pooled connection carries one statement at a time. Between two, its answer must come
 * back, wait its turn in the API's event loop, and the next statement be sent; PostgreSQL's process sleeps
 * and is woken for every statement (measured: one voluntary context switch a statement). A pipelined
 * connection already holds the next statements in its socket, so its process runs them back to back.
 *
 * Each statement goes to the connection with the fewest statements in flight, so a slow one holds up as little
 * as possible behind it. Each carries its own Sync: an error fails that statement alone. A lost connection
 * (restart, failover, terminate) fails the statements it had in flight, which the API answers 503, and the next
 * statement opens it again. A connection takes new statements for `lifetimeSeconds` (its prepared statements
 * and their plans go with it), then ends once its last answer is in, and a fresh one takes its place.
 *
 * The statements of one turn of the event loop (the requests that arrived together) go out in one write per
 * connection, not one each. Each write costs the API a system call and wakes PostgreSQL's process again.
 * Measured under the header search's load (1,000,000 items, 2 cores; the conditions in docs/architecture.md),
 * PostgreSQL spent 0.137 ms a request beside the API with a write a statement and 0.103 ms with a write a turn
 * (0.098 ms replaying the same statements alone), and the API 0.099 ms against 0.071 ms. Sending at the end
 * of each callback instead (`process.nextTick`) gained nothing.
 */
export class PipelinedConnections {
  readonly #settings: PipelinedSettings;
  readonly #slots: Slot[];
  readonly #retiring = new Set<pg.Client>();
  /** The sockets holding back statements sent in this turn of the event loop (`#send`). */
  readonly #held = new Set<Socket>();
  #ended = false;

  constructor(settings: PipelinedSettings) {
    if (!Number.isSafeInteger(settings.size) || settings.size < 1) {
      throw new Error(
        `pipelined connections: size must be a whole number of at least 1, not ${settings.size}`,
      );
    }
    this.#settings = settings;
    this.#slots = Array.from({ length: settings.size }, () => ({
      client: null,
      opening: null,
      inFlight: 0,
      expires: 0,
    }));
  }

  query<T extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<T>> {
    if (this.#ended) return Promise.reject(new Error("Client was closed and is not queryable"));
    let slot = this.#slots[0] as Slot;
    for (const other of this.#slots) if (other.inFlight < slot.inFlight) slot = other;
    slot.inFlight++;
    const client = this.#open(slot);
    const answer =
      client !== null
        ? this.#send<T>(client, config)
        : this.#connect(slot).then((c) => this.#send<T>(c, config));
    return answer.finally(() => {
      slot.inFlight--;
    });
  }

  /**
   * Sends a statement, held back with the others sent in this turn of the event loop: they all go out when the
   * turn ends (`setImmediate`, after the turn's I/O callbacks), one write per connection.
   */
  #send<T extends pg.QueryResultRow>(client: pg.Client, config: pg.QueryConfig): Promise<pg.QueryResult<T>> {
    const { stream } = (client as unknown as { connection: { stream: Socket } }).connection;
    if (!this.#held.has(stream)) {
      this.#held.add(stream);
      stream.cork();
      if (this.#held.size === 1) setImmediate(this.#release);
    }
    return client.query<T>(config);
  }

  /** Sends what the connections held back this turn (a lost connection's socket takes `uncork` harmlessly). */
  readonly #release = () => {
    for (const stream of this.#held) stream.uncork();
    this.#held.clear();
  };

  /** Connections open (or opening), for the metrics. */
  get connections(): number {
    return this.#slots.filter((slot) => slot.client || slot.opening).length;
  }

  /** Statements sent and not yet answered. */
  get inFlight(): number {
    return this.#slots.reduce((sum, slot) => sum + slot.inFlight, 0);
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Ends every connection once the statements already sent are answered. */
  async end(): Promise<void> {
    this.#ended = true;
    const clients = [...this.#retiring];
    for (const slot of this.#slots) {
      if (slot.client) clients.push(slot.client);
      slot.client = null;
    }
    const opening = this.#slots.map((slot) => slot.opening?.catch(() => null));
    await Promise.all([
      ...clients.map((client) => client.end().catch(() => {})),
      ...opening.map(async (pending) => (await pending)?.end().catch(() => {})),
    ]);
  }

  /** The slot's connection if it is open and young enough; otherwise null, and an old one is retired. */
  #open(slot: Slot): pg.Client | null {
    const { client } = slot;
    if (client === null || Date.now() < slot.expires) return client;
    slot.client = null;
    this.#retiring.add(client);
    // In pipeline mode `end` waits for the statements already sent.
    client.end().then(
      () => this.#retiring.delete(client),
      () => this.#retiring.delete(client),
    );
    return null;
  }

  #connect(slot: Slot): Promise<pg.Client> {
    if (slot.opening) return slot.opening;
    const { connectionString, options, types, lifetimeSeconds, log, connection } = this.#settings;
    const client = new pg.Client({
      ...connection,
      connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      pipeline: true,
      ...(options ? { options } : {}),
      ...(types ? { types } : {}),
    });
    // A lost connection must not end the process: its statements fail, and the next one reconnects.
    client.on("error", (error) => {
      if (slot.client === client) slot.client = null;
      log?.(`database connection lost (${error.message})`);
    });
    slot.opening = client.connect().then(
      () => {
        slot.opening = null;
        if (this.#ended) {
          client.end().catch(() => {});
          throw new Error("Client was closed and is not queryable");
        }
        slot.client = client;
        slot.expires = Date.now() + lifetimeSeconds * 1000;
        return client;
      },
      (error: unknown) => {
        slot.opening = null;
        throw error;
      },
    );
    return slot.opening;
  }
}
