/**
 * `npm start` (src/bin/easel.ts) in the hard cases: killed without a chance to stop its children, stopped
 * half-way through its first start, and a start that fails half-way. Each case runs the real launcher with its own data folder and ports.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isAlive, portIsFree } from "../src/embedded/process.ts";
import { exited, stack, until } from "./launcher-helpers.ts";

describe("npm start when things go wrong", () => {
  it("stops anvil and PostgreSQL by itself when the launcher is killed, and the next start finds leftovers", async () => {
    const s = await stack();
    // 1. The launcher is killed outright (a closed terminal): its watchdog stops the children.
    const first = s.start();
    await until(() => first.output().includes("Easel is running"), "the first start");
    const [postgres, anvil] = s.children();
    first.child.kill("SIGKILL");
    await until(s.portsFree, "anvil and PostgreSQL to stop after the launcher died", 30_000);
    await until(
      () => !isAlive(postgres?.pid ?? 0) && !isAlive(anvil?.pid ?? 0),
      "their processes to end",
      30_000,
    );

    // 2. The launcher and its watchdog are both killed (the whole group, or kill -9 of everything ours):
    //    anvil and PostgreSQL keep running, and the next start stops them instead of failing on the ports.
    const second = s.start();
    await until(() => second.output().includes("Easel is running"), "the second start");
    const watchdog = s.children().find((c) => c.name === "watchdog");
    process.kill(watchdog?.pid ?? 0, "SIGKILL");
    second.child.kill("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await portIsFree(s.ports.chain)).toBe(false);

    const third = s.start();
    await until(() => third.output().includes("Easel is running"), "the third start");
    expect(third.output()).toMatch(/stopped anvil \(process \d+\), left running by an earlier start/);
    expect(third.output()).toMatch(/stopped PostgreSQL \(process \d+\), left running by an earlier start/);
    third.child.kill("SIGTERM");
    expect(await exited(third.child)).toBe(0);
    expect(await s.portsFree()).toBe(true);
  }, 240_000);

  it("stops at once when told to during the first start's deployment, and the next start begins again", async () => {
    const s = await stack();
    const dataDir = join(s.dir, "data");
    // 1. A closed terminal (SIGHUP) while the first start deploys the contracts.
    const first = s.start([]);
    await until(() => first.output().includes("deploying Easel's contracts"), "the deployment");
    const [postgres, anvil] = s.children();
    let stopping = performance.now();
    first.child.kill("SIGHUP");
    expect(await exited(first.child)).toBe(0);
    console.log(`stopped during the deployment in ${Math.round(performance.now() - stopping)} ms`);
    expect(first.output()).toContain("[easel] stopped.");
    expect(first.output()).not.toContain("could not start");
    expect(await s.portsFree()).toBe(true);
    expect(isAlive(postgres?.pid ?? 0) || isAlive(anvil?.pid ?? 0)).toBe(false);
    expect(existsSync(join(dataDir, "demo-pending"))).toBe(true);

    // 2. The next start deletes what the stopped one made and begins again: a new deployment and the demo.
    const second = s.start([]);
    await until(() => second.output().includes("demo: people"), "the second start's demo");
    expect(second.output()).toContain("starting it over on a new chain and database");
    expect(second.output()).toContain("deploying Easel's contracts");
    stopping = performance.now();
    second.child.kill("SIGTERM");
    expect(await exited(second.child)).toBe(0);
    console.log(`stopped during the demo in ${Math.round(performance.now() - stopping)} ms`);
    expect(await s.portsFree()).toBe(true);

    // 3. --no-demo keeps what the interrupted demo made, and says how to start over.
    const third = s.start(["--no-demo"]);
    await until(() => third.output().includes("Easel is running"), "the third start");
    expect(third.output()).toContain("--no-demo keeps what it made");
    expect(third.output()).not.toContain("deploying");
    expect(existsSync(join(dataDir, "demo-pending"))).toBe(false);
    third.child.kill("SIGINT");
    expect(await exited(third.child)).toBe(0);
    expect(await s.portsFree()).toBe(true);
  }, 300_000);

  it("stops anvil again and says what failed when PostgreSQL cannot start", async () => {
    const s = await stack();
    // A data folder PostgreSQL cannot use: it exits at once, while anvil has started.
    const pgDir = join(s.dir, "data", "postgres");
    mkdirSync(join(s.dir, "data"), { mode: 0o755 });
    mkdirSync(pgDir, { mode: 0o700 });
    writeFileSync(join(pgDir, "PG_VERSION"), "7\n");
    const run = s.start();
    expect(await exited(run.child)).toBe(1);
    expect(run.output(), run.output()).toContain("could not start: PostgreSQL exited");
    expect(await portIsFree(s.ports.chain)).toBe(true);
  }, 120_000);

  it("says, as root, that the postgres user cannot reach the data folder, and what to do", async () => {
    const s = await stack();
    // A data folder inside a folder closed to other users (as /root is).
    chmodSync(s.dir, 0o700);
    const run = s.start();
    if (process.getuid?.() !== 0) {
      // Not root: PostgreSQL runs as this user, who owns the folder, so the start succeeds.
      await until(() => run.output().includes("Easel is running"), "the start");
      run.child.kill("SIGTERM");
      expect(await exited(run.child)).toBe(0);
      return;
    }
    expect(await exited(run.child)).toBe(1);
    expect(run.output()).toContain(`that user cannot enter ${s.dir} (mode 700)`);
    expect(run.output()).toContain("EASEL_DATA_DIR=");
    expect(await portIsFree(s.ports.chain)).toBe(true);
  }, 120_000);
});
