import pg from "pg";
import {
  BaseError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  HttpRequestError,
  RpcError,
  TimeoutError,
  WebSocketRequestError,
} from "viem";

/**
 * How long a request waits for a database connection before it is answered 503: a database that is down
 * refuses at once, but one that is unreachable (a failover moving its address, a cut network) would let a
 * connection attempt hang for the operating system's timeout.
 */
export const CONNECT_TIMEOUT_MS = 1_500;
/**
 * How long a statement of the API may run by default (DATABASE_QUERY_TIMEOUT_SECONDS): past it PostgreSQL
 * cancels it (`statement_timeout`), and a server that does not answer at all (frozen, or a failover that
 * blackholes the old primary) has its connection cut `QUERY_TIMEOUT_GRACE_MS` later, so a request waits
 * seconds, not TCP's 15 minutes. Either answers 503.
 */
export const DEFAULT_QUERY_TIMEOUT_MS = 5_000;
/** How much longer than `statement_timeout` the client waits before it gives the server up. */
export const QUERY_TIMEOUT_GRACE_MS = 1_000;
/**
 * TCP keepalive on every connection, first probe after this long idle (then every second, 10 probes: libuv's
 * settings): an idle connection to a server that vanished without a reset is noticed in about 20 s.
 */
export const KEEPALIVE_DELAY_MS = 10_000;
/** What a 503 for an unavailable database tells clients to wait, in seconds (`Retry-After`). */
export const RETRY_AFTER_S = 2;

/** SQLSTATEs of a session the server ended or could not start: shutdown, restart, failover, terminate. */
const UNAVAILABLE_STATES = new Set([
  "57P01", // admin_shutdown: a fast shutdown or pg_terminate_backend
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up, shutting down, in recovery
  "53300", // too_many_connections
  "53000", // insufficient_resources
  "53100", // disk_full: the operator frees room, then it works
  "53200", // out_of_memory
  "57014", // query_canceled: statement_timeout (the server is overloaded or stuck), or cancelled by an operator
]);
/** Socket errors of a server that is not there (or went away). */
const UNAVAILABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
]);
/** node-postgres says these in words only, without a code. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|Connection refused|Query read timeout|Cannot use a pool after calling end/i;

/**
 * Whether an error means the database cannot be reached now (down, restarting, failing over, or this
 * session was ended), as opposed to a query that is wrong. Walks `cause` (Drizzle wraps driver errors)
 * and `errors` (a connection tried on several addresses).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string") {
    if (UNAVAILABLE_STATES.has(code) || code.startsWith("08") || UNAVAILABLE_SOCKET_CODES.has(code))
      return true;
  }
  if (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/**
 * JSON-RPC error codes of a provider that cannot answer now: internal error (-32603, how many providers say
 * "overloaded"), server error (-32000: "header not found", "missing trie node" on a lagging node), limit
 * exceeded (-32005) and resource unavailable (-32002), a rate limit said as 429.
 */
const UNAVAILABLE_RPC_CODES = new Set([-32603, -32000, -32005, -32002, 429]);

/**
 * Whether an error is the chain's RPC not answering (refused, timed out, an HTTP error, or a JSON-RPC error
 * answer such as a rate limit) after viem's retries, as opposed to a call the chain refused (a revert): a retry
 * later may work.
 */
export function isChainUnavailable(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  // A revert is the chain's answer, whatever code the node wrapped it in (-32603 on Hardhat).
  if (error.walk((cause) => cause instanceof ExecutionRevertedError)) return false;
  if (error.walk((cause) => cause instanceof ContractFunctionRevertedError && cause.data !== undefined))
    return false;
  return !!error.walk(
    (cause) =>
      cause instanceof HttpRequestError ||
      cause instanceof TimeoutError ||
      cause instanceof WebSocketRequestError ||
      (cause instanceof RpcError && UNAVAILABLE_RPC_CODES.has(cause.code)),
  );
}

/**
 * A full disk or a storage volume gone read-only or failing, or one this process may no longer write (a volume
 * remounted with other owners, EACCES/EPERM): the operator frees, repairs or remounts it, then it works.
 */
const STORAGE_CODES = /\b(ENOSPC|EDQUOT|EROFS|EIO|EACCES|EPERM)\b/;

/**
 * Whether an error is the media folder's storage failing (full, over quota, read-only, an I/O error), as opposed
 * to a bug: the upload is refused whole, nothing of it acknowledged, and the same upload works once the disk has
 * room again. The blockstore wraps the filesystem's error into its message (`PutFailedError`), so the code is
 * looked for in the message too.
 */
export function isStorageUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== "object" || depth > 5) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (typeof code === "string" && STORAGE_CODES.test(code)) return true;
  if (typeof message === "string" && STORAGE_CODES.test(message)) return true;
  return isStorageUnavailable(cause, depth + 1);
}

/**
 * Makes every connection of a pool safe to lose at any moment. node-postgres listens for a client's
 * errors only while it is idle in the pool; a client checked out (a transaction, a migration, the
 * indexer's leader connection) that loses its server emits an `error` nobody hears, which ends the process.
 * A listener attached to every client for its whole life makes that a failed query instead: the caller's
 * query rejects, and the pool discards the client when it comes back.
 */
export function surviveLostConnections(pool: pg.Pool, log: (line: string) => void = () => {}): void {
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    client.on("error", (error) => log(`database connection lost (${error.message})`));
  });
}

/**
 * Waits until the database answers, trying every `intervalMs`: a role started before its database (or
 * while it restarts) waits for it instead of exiting.
 */
export async function waitForDatabase(
  pool: pg.Pool,
  log: (line: string) => void,
  intervalMs = 1_000,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await pool.query("SELECT 1");
      if (attempt > 0) log("database reachable");
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      if (attempt === 0) log(`waiting for the database (${error instanceof Error ? error.message : error})`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/**
 * The settings of a connection whose statements are bounded to `queryTimeoutMs` (0: unbounded), with TCP
 * keepalive either way.
 */
export function boundedConnection(queryTimeoutMs: number): pg.ClientConfig {
  return {
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    ...(queryTimeoutMs > 0
      ? { statement_timeout: queryTimeoutMs, query_timeout: queryTimeoutMs + QUERY_TIMEOUT_GRACE_MS }
      : {}),
  };
}

const READ_TIMEOUT = "Query read timeout";

/**
 * A pool's client that closes its connection when a statement's answer does not come within `query_timeout`,
 * and leaves the pool when its connection ends while it is checked out.
 *
 * node-postgres fails a timed-out statement but keeps the connection, its statement still running: the
 * transaction's ROLLBACK then waited as long again behind it, and the connection went back to the pool stuck.
 * Cut, every statement queued on it fails at once (unavailable), and the pool discards it.
 *
 * And a connection lost while checked out must still be handed back: Drizzle's transaction releases its client
 * only if its BEGIN succeeded, so a BEGIN that failed kept a slot of the pool for ever (ten of them, and every
 * request waited for a connection). Its connection ended, the client releases itself with the error (the pool
 * removes it); the caller's own release later does nothing.
 */
export class CuttingClient extends pg.Client {
  #release: ((error?: Error | boolean) => void) | null = null;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("end", () => this.#release?.(new Error("Connection terminated while checked out")));
  }

  /** Set by the pool each time it hands the client out: called once, whoever calls it first. */
  get release(): ((error?: Error | boolean) => void) | undefined {
    return this.#release ?? (() => {});
  }

  set release(poolRelease: (error?: Error | boolean) => void) {
    this.#release = (error) => {
      this.#release = null;
      poolRelease(error);
    };
  }

  // biome-ignore lint/suspicious/noExplicitAny: node-postgres' overloads of query.
  override query(...args: any[]): any {
    const cut = (error: unknown) => {
      if (error instanceof Error && error.message === READ_TIMEOUT)
        (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (error: unknown, result: unknown) => {
        if (error) cut(error);
        callback(error, result);
      };
      return super.query(...(args as Parameters<pg.Client["query"]>));
    }
    const result: unknown = super.query(...(args as Parameters<pg.Client["query"]>));
    if (result instanceof Promise) result.then(undefined, cut);
    return result;
  }
}
