import type pg from "pg";
import { setIndexerLeader } from "../metrics.ts";
import { step } from "./follower.ts";
import {
  claimLease,
  DEFAULT_LEASE_MS,
  HEARTBEAT_MS,
  renewLease,
  takeOverStalledLeader,
  tryLeaderLock,
} from "./lease.ts";
import type { IndexerOptions } from "./options.ts";
import { IndexerHalted } from "./reorg.ts";

/**
 * The indexer's loop: it competes for the leader lease (`lease.ts`), and while it leads runs one step after
 * another (`follower.ts`: the next range of blocks, read and applied as `backfill.ts` does, or a reorg rolled
 * back as `reorg.ts` does), backing off while the database or the chain fails.
 */

export type { IndexerOptions } from "./options.ts";
export { resetChainData } from "./reorg.ts";

/** How long a stopping indexer waits for its batch in flight before rolling it back. */
const STOP_MS = 10_000;

export type Indexer = {
  stop(): Promise<void>;
  /** Why the indexer stopped by itself (a reorg it cannot follow), or null while it runs. */
  halted(): IndexerHalted | null;
};

/**
 * Follows the chain from the deployment block to the head, reading the logs of Easel's contracts
 * in block ranges and advancing its cursor in the same transaction as what it writes.
 * Only the process holding the leader lock indexes (on the connection that holds the lock); the others
 * stand by and take over if it dies, freezes or cannot read the chain.
 */
export function startIndexer(options: IndexerOptions): Indexer {
  const { db, chain } = options;
  const log = (message: string) => options.log(message);
  const warn = (message: string) => options.log(message, "warn");
  const pollMs = options.pollIntervalMs ?? 1000;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  /**
   * When this process last made progress: a step that read the chain and committed (or found nothing new), a
   * chunk of handlers run on what it read. The lease records it (not the time of the renewal), so a leader that
   * is alive but cannot read the chain looks stalled to the standbys and to `/api/health`.
   */
  let lastProgress = Date.now();
  /** Set by a failure, cleared by progress: while set, taking the lock again does not make the lease fresh. */
  let failing = false;
  const leaderOptions: IndexerOptions = {
    ...options,
    onProgress: () => {
      lastProgress = Date.now();
      options.onProgress?.();
    },
  };
  let stopping = false;
  let halted: IndexerHalted | null = null;
  let wake: (() => void) | null = null;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  /** Retries back off exponentially (from twice the poll interval, at most 30 s) until something succeeds. */
  let backoffMs = pollMs;
  const backOff = () => {
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
    return backoffMs;
  };
  /** Whether this process holds the leader lock, and so whether its leader gauge may say 1. */
  let holding = false;
  let leading = false;
  const setLeading = (value: boolean) => {
    leading = value;
    setIndexerLeader(value);
  };
  /** A chain read of this process's own RPC: it leads, or takes over, only when that works. */
  const readsChain = () => chain.getBlockNumber({ cacheTime: 0 }).then(() => null, firstLine);
  const canTakeOver = async () => {
    const error = await readsChain();
    if (error)
      warn(`indexer: the leader makes no progress, but this process cannot read the chain either (${error})`);
    return error === null;
  };

  /** The leader's connection while it holds one: its session is ended if a stop cannot wait for its batch. */
  let session: pg.PoolClient | null = null;

  const run = async () => {
    while (!stopping) {
      const client = await db.$client.connect().catch((error: unknown) => {
        const wait = backOff();
        warn(`indexer: database unavailable (${firstLine(error)}); retrying in ${seconds(wait)}`);
        return null;
      });
      if (!client) {
        failing = true;
        await sleep(backoffMs);
        continue;
      }
      session = client;
      let broken = false;
      let retryIn = 0;
      let heartbeat: NodeJS.Timeout | null = null;
      // A session ended from outside (a standby taking over from this process after it froze) must not
      // crash the process: the next query fails and the loop starts over as a standby.
      const onError = (error: Error) => {
        broken = true;
        holding = false;
        if (leading) setLeading(false);
        warn(`indexer: database session lost (${error.message})`);
      };
      client.on("error", onError);
      try {
        if (!(await tryLeaderLock(client))) {
          // Another instance leads. If it stopped making progress, end its session (which frees the lock).
          if (!(await takeOverStalledLeader(client, leaseMs, log, canTakeOver))) await sleep(5 * pollMs);
          // Standing by is no failure: should this process lead later, it starts with a full lease (once it has
          // read the chain).
          backoffMs = pollMs;
          failing = false;
          continue;
        }
        holding = true;
        // Lead only with a chain to read: a process whose RPC fails leaves the lock to a standby whose RPC works.
        const unreadable = await readsChain();
        if (unreadable) throw new ChainUnreadable(unreadable);
        // A new leader starts with a full lease; one taking the lock back after failing keeps the time of its
        // last progress, so retrying does not make a leader that cannot index look healthy.
        if (!failing) lastProgress = Date.now();
        const pid = await claimLease(client, Date.now() - lastProgress);
        // The lease is renewed from the pool (the lock's connection may be inside a long batch) with the time of
        // the last progress: a frozen, stuck or blind leader lets it lapse. The gauge says 1 only while it is fresh.
        heartbeat = setInterval(() => {
          const stalled = Date.now() - lastProgress > leaseMs;
          if (stalled && leading) {
            warn(`indexer: no progress for ${seconds(Date.now() - lastProgress)}; a standby may take over`);
            setLeading(false);
          } else if (!stalled && holding && !leading) setLeading(true);
          renewLease(db.$client, pid, Date.now() - lastProgress)
            .then((ours) => {
              // Another process leads now (this one's session was ended).
              if (!ours && leading) setLeading(false);
            })
            .catch(() => {});
        }, HEARTBEAT_MS);
        heartbeat.unref();
        // Said once per leadership: a leader retrying after a failure says how it fails instead.
        if (!failing) log("indexer: leader; following the chain");
        setLeading(Date.now() - lastProgress <= leaseMs);
        while (!stopping) {
          const caughtUp = await step(leaderOptions, client);
          if (failing)
            log(`indexer: leader; following the chain again after ${seconds(Date.now() - lastProgress)}`);
          lastProgress = Date.now();
          failing = false;
          backoffMs = pollMs;
          if (!leading && holding) setLeading(true);
          if (caughtUp) await sleep(pollMs);
        }
      } catch (error) {
        // RPC and database faults never crash the process; the batch rolled back, so retry it.
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
        if (error instanceof IndexerHalted) {
          warn(`indexer: stopped: ${error.message}`);
          halted = error;
          stopping = true;
        } else {
          failing = true;
          retryIn = backOff();
          warn(
            error instanceof ChainUnreadable
              ? `indexer: cannot read the chain (${error.message}); not leading, retrying in ${seconds(retryIn)}`
              : `indexer: ${firstLine(error)}; retrying in ${seconds(retryIn)}`,
          );
        }
      } finally {
        if (heartbeat) clearInterval(heartbeat);
        holding = false;
        if (leading) setLeading(false);
        client.off("error", onError);
        await client.query("SELECT pg_advisory_unlock_all()").catch(() => {
          broken = true;
        });
        session = null;
        client.release(broken);
      }
      // The lock is free meanwhile: a standby whose RPC works may take over.
      if (retryIn > 0) await sleep(retryIn);
    }
  };
  const done = run();

  return {
    // A batch in flight commits before the indexer stops; one still running after `stopMs` is rolled
    // back by ending its session (which also frees the leader lock for a standby).
    async stop() {
      stopping = true;
      (wake as (() => void) | null)?.();
      const timer = setTimeout(() => {
        const pid = (session as (pg.PoolClient & { processID?: number }) | null)?.processID;
        if (!pid) return;
        log("indexer: the batch in flight did not finish in time; rolling it back");
        db.$client.query("SELECT pg_terminate_backend($1)", [pid]).catch(() => {});
      }, options.stopMs ?? STOP_MS);
      await done;
      clearTimeout(timer);
    },
    halted: () => halted,
  };
}

/** The most a failing indexer waits before trying again. */
const MAX_BACKOFF_MS = 30_000;

/** This process cannot read the chain: it does not lead. */
class ChainUnreadable extends Error {}

const firstLine = (error: unknown) => (error instanceof Error ? error.message.split("\n")[0] : String(error));
const seconds = (ms: number) =>
  ms < 1_000 ? `${ms} ms` : `${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)} s`;
