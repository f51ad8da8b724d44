import { Socket } from "node:net";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { isDatabaseUnavailable } from "./availability.ts";
import { PipelinedConnections } from "./pipelined.ts";

const url = inject("databaseUrl");
const admin = new pg.Pool({ connectionString: url, max: 2 });
afterAll(() => admin.end());

const open: PipelinedConnections[] = [];
afterAll(() => Promise.all(open.map((set) => set.end())));

function connections(size: number, lifetimeSeconds = 600) {
  const set = new PipelinedConnections({ connectionString: url, size, lifetimeSeconds });
  open.push(set);
  return set;
}

const pidOf = async (set: PipelinedConnections, sql = "SELECT pg_backend_pid() AS pid") =>
  Number((await set.query<{ pid: number }>({ text: sql })).rows[0]?.pid);

const alive = async (pid: number) =>
  (await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid])).rowCount === 1;

/** Counts the writes of every socket of this process (each one system call) until `restore`. */
function countSocketWrites() {
  type Write = (this: Socket, ...args: unknown[]) => unknown;
  const proto = Socket.prototype as unknown as Record<"_write" | "_writev", Write>;
  const originals = { _write: proto._write, _writev: proto._writev };
  const counter = { count: 0, restore: () => Object.assign(proto, originals) };
  for (const key of ["_write", "_writev"] as const) {
    const original = originals[key];
    proto[key] = function (this: Socket, ...args: unknown[]) {
      counter.count++;
      return original.apply(this, args);
    };
  }
  return counter;
}

describe("pipelined connections", () => {
  it("answers many statements at once, each with its own rows, over no more connections than its size", async () => {
    const set = connections(2);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, n) =>
        set.query<{ n: number; pid: number }>({
          name: "echo",
          text: "SELECT $1::int AS n, pg_backend_pid() AS pid",
          values: [n],
        }),
      ),
    );
    expect(answers.map((answer) => answer.rows[0]?.n)).toEqual(Array.from({ length: 60 }, (_, n) => n));
    // Both connections carried statements, and no third was opened.
    expect(new Set(answers.map((answer) => answer.rows[0]?.pid)).size).toBe(2);
    expect(set.connections).toBe(2);
    expect(set.inFlight).toBe(0);
  });

  it("sends the statements of one turn of the event loop in one write, and a later turn's in its own", async () => {
    const set = connections(1);
    await pidOf(set);
    const writes = countSocketWrites();
    let inOneTurn: number;
    let afterNextTurn: number;
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          set.query<{ n: number }>({ name: "turn", text: "SELECT $1::int AS n", values: [n] }),
        ),
      );
      expect(answers.map((answer) => answer.rows[0]?.n)).toEqual(Array.from({ length: 20 }, (_, n) => n));
      inOneTurn = writes.count;
      expect(
        (await set.query<{ n: number }>({ name: "turn", text: "SELECT $1::int AS n", values: [20] })).rows,
      ).toEqual([{ n: 20 }]);
      afterNextTurn = writes.count;
    } finally {
      writes.restore();
    }
    expect(inOneTurn).toBe(1);
    expect(afterNextTurn).toBe(2);
  });

  it("fails only the statement that fails: those sent before and after it on the same connection are answered", async () => {
    const set = connections(1);
    const results = await Promise.allSettled([
      set.query({ text: "SELECT 1 AS v" }),
      set.query({ text: "SELECT 1 / $1::int AS v", values: [0] }),
      set.query({ name: "after", text: "SELECT $1::int AS v", values: [3] }),
      set.query({ name: "after", text: "SELECT $1::int AS v", values: [4] }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: "22012" });
    expect(isDatabaseUnavailable((results[1] as PromiseRejectedResult).reason)).toBe(false);
    expect((results[3] as PromiseFulfilledResult<pg.QueryResult>).value.rows).toEqual([{ v: 4 }]);
  });

  it("sends a statement to the connection with the fewest in flight, not behind a slow one", async () => {
    const set = connections(2);
    // Both connections open first, so the slow statement's connection is known.
    await Promise.all([pidOf(set), pidOf(set)]);
    let slowDone = false;
    const slow = set
      .query<{ pid: number }>({ text: "SELECT pg_backend_pid() AS pid, pg_sleep(0.6) IS NULL AS slept" })
      .then((answer) => {
        slowDone = true;
        return Number(answer.rows[0]?.pid);
      });
    const fast: number[] = [];
    for (let n = 0; n < 5; n++) fast.push(await pidOf(set));
    expect(slowDone).toBe(false);
    const slowPid = await slow;
    expect(fast.every((pid) => pid !== slowPid)).toBe(true);
  });

  it("loses a connection without losing the process: its statements fail as unavailable, the next one reconnects", async () => {
    const set = connections(1);
    const before = await pidOf(set);
    // Its failure is caught from the start: it may come before the terminating statement's own answer.
    const sleeping = set.query({ text: "SELECT pg_sleep(5)" }).then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await admin.query("SELECT pg_terminate_backend($1)", [before]);
    const error = await sleeping;
    expect(isDatabaseUnavailable(error)).toBe(true);
    // The next statement opens a fresh connection.
    let after = Number.NaN;
    for (let attempt = 0; attempt < 3 && Number.isNaN(after); attempt++) {
      after = await pidOf(set).catch((e: unknown) => {
        expect(isDatabaseUnavailable(e)).toBe(true);
        return Number.NaN;
      });
    }
    expect(after).not.toBe(before);
    expect(await alive(after)).toBe(true);
  });

  it("replaces a connection past its lifetime, after answering what was already sent on it", async () => {
    const set = connections(1, 0.3);
    const first = await pidOf(set);
    const slow = set.query<{ pid: number }>({
      text: "SELECT pg_backend_pid() AS pid, pg_sleep(0.5) IS NULL AS slept",
    });
    await new Promise((resolve) => setTimeout(resolve, 350));
    // Past its lifetime: a new statement goes to a fresh connection, the slow one still gets its answer.
    const second = await pidOf(set);
    expect(second).not.toBe(first);
    expect(Number((await slow).rows[0]?.pid)).toBe(first);
    // The old connection ends once its last answer is in.
    for (let wait = 0; wait < 20 && (await alive(first)); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await alive(first)).toBe(false);
  });

  it("answers a statement held back in the same turn as its connection is retired, and the next on a fresh one", async () => {
    const set = connections(1, 0.1);
    const first = await pidOf(set);
    // In one turn: a statement held back on the young connection, then (the turn running past its lifetime)
    // one that retires it, so it ends while the first still waits to be written.
    const held = set.query<{ pid: number }>({ text: "SELECT pg_backend_pid() AS pid" });
    const until = Date.now() + 150;
    while (Date.now() < until) {
      // the turn goes on
    }
    const next = set.query<{ pid: number }>({ text: "SELECT pg_backend_pid() AS pid" });
    expect(Number((await held).rows[0]?.pid)).toBe(first);
    expect(Number((await next).rows[0]?.pid)).not.toBe(first);
  });

  it("answers what was sent before end, and refuses what comes after as unavailable", async () => {
    const set = connections(1);
    const pid = await pidOf(set);
    const slow = set.query({ text: "SELECT 'answered' AS v FROM pg_sleep(0.2)" });
    const ended = set.end();
    const late = await set.query({ text: "SELECT 1" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(late)).toBe(true);
    expect((await slow).rows).toEqual([{ v: "answered" }]);
    await ended;
    expect(await alive(pid)).toBe(false);
    expect(set.ended).toBe(true);
  });

  it("fails at once, as unavailable, when the database cannot be reached", async () => {
    const server = await import("node:net").then(
      ({ createServer }) =>
        new Promise<{ port: number; close: () => void }>((resolve) => {
          const s = createServer();
          s.listen(0, "127.0.0.1", () => {
            const port = (s.address() as { port: number }).port;
            s.close(() => resolve({ port, close: () => {} }));
          });
        }),
    );
    const set = new PipelinedConnections({
      connectionString: `postgres://easel:easel@127.0.0.1:${server.port}/easel`,
      size: 2,
      lifetimeSeconds: 600,
    });
    const error = await set.query({ text: "SELECT 1" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(set.inFlight).toBe(0);
    await set.end();
  });

  it("refuses a size that is not a whole number of at least 1", () => {
    for (const size of [0, -1, 1.5, Number.NaN]) {
      expect(() => new PipelinedConnections({ connectionString: url, size, lifetimeSeconds: 1 })).toThrow(
        /size must be/,
      );
    }
  });
});
