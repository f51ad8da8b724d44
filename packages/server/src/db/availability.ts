import type pg from "pg";
import { BaseError, HttpRequestError, TimeoutError, WebSocketRequestError } from "viem";

/**
 * How long a request waits for a database connection before it is answered 503: a database that is down
 * refuses at once, but one that is unreachable (a failover moving its address, a cut network) would let a
 * connection attempt hang for the operating system's timeout.
 */
export const CONNECT_TIMEOUT_MS = 1_500;
/** What a 503 for an unavailable database tells clients to wait, in seconds (`Retry-After`). */
export const RETRY_AFTER_S = 2;

/** SQLSTATEs of a session the server ended or could not start: shutdown, restart, failover, terminate. */
const UNAVAILABLE_STATES = new Set([
  "57P01", // admin_shutdown: a fast shutdown or pg_terminate_backend
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up, shutting down, in recovery
  "53300", // too_many_connections
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
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|Connection refused/i;

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
 * Whether an error is the chain's RPC not answering (refused, timed out, or an HTTP error from it) after
 * viem's retries, as opposed to a call the chain refused (a revert): a retry later may work.
 */
export function isChainUnavailable(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return !!error.walk(
    (cause) =>
      cause instanceof HttpRequestError ||
      cause instanceof TimeoutError ||
      cause instanceof WebSocketRequestError,
  );
}

/** A full disk or a storage volume gone read-only or failing: the operator frees or repairs it, then it works. */
const STORAGE_CODES = /\b(ENOSPC|EDQUOT|EROFS|EIO)\b/;

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
