import type pg from "pg";

/**
 * The leader lease: the one indexer process that holds a session advisory lock leads; the others stand by. The
 * leader records in `indexer_leader` when it last made progress reading the chain (renewed every second, from
 * the pool), so a standby — and `/api/health` — can tell a leader that works from one that is frozen, hung or
 * cannot read the chain, and a standby that can read the chain ends such a leader's session to take over.
 */

/** Advisory lock key: the one indexer that holds it is the leader; the others wait. */
export const LEADER_LOCK_KEY = 7_340_002;
/** How often the leader renews its lease. */
export const HEARTBEAT_MS = 1_000;
/** How long a leader may make no progress before a standby takes over. */
export const DEFAULT_LEASE_MS = 10_000;

/** Takes the leader lock on this session if no one holds it. */
export async function tryLeaderLock(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>("SELECT pg_try_advisory_lock($1) AS locked", [
    LEADER_LOCK_KEY,
  ]);
  return rows[0]?.locked === true;
}

/**
 * Names this session in the lease, with the time of its last progress `sinceProgressMs` ago (PostgreSQL's clock);
 * returns the session's backend pid, which the renewals name.
 */
export async function claimLease(
  client: pg.ClientBase,
  sinceProgressMs: number,
): Promise<number | undefined> {
  const { rows } = await client.query<{ pid: number }>(
    `INSERT INTO indexer_leader (id, backend_pid, heartbeat_at)
     VALUES (1, pg_backend_pid(), now() - make_interval(secs => $1))
     ON CONFLICT (id) DO UPDATE SET backend_pid = EXCLUDED.backend_pid, heartbeat_at = EXCLUDED.heartbeat_at
     RETURNING backend_pid AS pid`,
    [sinceProgressMs / 1000],
  );
  return rows[0]?.pid;
}

/**
 * Records the leader's last progress, `sinceProgressMs` ago; false when the lease names another session (this
 * one's was ended, and another process leads).
 */
export async function renewLease(
  pool: pg.Pool,
  pid: number | undefined,
  sinceProgressMs: number,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    "UPDATE indexer_leader SET heartbeat_at = now() - make_interval(secs => $2) WHERE backend_pid = $1",
    [pid, sinceProgressMs / 1000],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * A standby's check of the leader: when the lease's last progress is older than `leaseMs`, the session named
 * in it really holds the leader lock and this process can read the chain itself, that session is ended (a
 * frozen or blind process cannot end it itself), so the lock is free on the next try. Returns whether it took
 * that step.
 */
export async function takeOverStalledLeader(
  client: pg.ClientBase,
  leaseMs: number,
  log: (message: string) => void,
  canReadChain: () => Promise<boolean>,
): Promise<boolean> {
  const { rows } = await client.query<{ pid: number; age_ms: number }>(
    `SELECT l.backend_pid AS pid, (extract(epoch FROM now() - l.heartbeat_at) * 1000)::float8 AS age_ms
     FROM indexer_leader l JOIN pg_locks k
       ON k.pid = l.backend_pid AND k.locktype = 'advisory' AND k.objid = $1 AND k.objsubid = 1 AND k.granted
     WHERE l.id = 1`,
    [LEADER_LOCK_KEY],
  );
  const leader = rows[0];
  if (!leader || leader.age_ms <= leaseMs) return false;
  // Taking over helps only if this process can do better.
  if (!(await canReadChain())) return false;
  log(
    `indexer: the leader (database session ${leader.pid}) has made no progress for ${Math.round(leader.age_ms / 1000)} s; taking over`,
  );
  await client.query("SELECT pg_terminate_backend($1)", [leader.pid]);
  return true;
}
