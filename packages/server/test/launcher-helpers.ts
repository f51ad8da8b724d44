/**
 * The real `npm start` (src/bin/easel.ts) in a test: each stack has its own data folder and ports.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import type { ChildRecord } from "../src/embedded/leftovers.ts";
import { freePort, portIsFree } from "../src/embedded/process.ts";

const launcherPath = fileURLToPath(new URL("../src/bin/easel.ts", import.meta.url));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A launcher stack; `start(args)` runs it (with `--no-demo` unless told otherwise). */
export async function stack() {
  const dir = mkdtempSync(join(tmpdir(), "easel-launcher-"));
  // As root PostgreSQL runs as the postgres user, which must reach the folder.
  chmodSync(dir, 0o755);
  dirs.push(dir);
  const ports = { api: await freePort(), chain: await freePort(), db: await freePort() };
  const start = (args: string[] = ["--no-demo"]) => {
    const child = spawn(process.execPath, ["--import", "tsx", launcherPath, ...args], {
      env: {
        ...process.env,
        EASEL_DATA_DIR: join(dir, "data"),
        PORT: String(ports.api),
        EASEL_CHAIN_PORT: String(ports.chain),
        EASEL_DB_PORT: String(ports.db),
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    return { child, output: () => output };
  };
  const children = () =>
    JSON.parse(readFileSync(join(dir, "data", "children.json"), "utf8")) as ChildRecord[];
  const portsFree = async () =>
    (await portIsFree(ports.chain)) && (await portIsFree(ports.db)) && (await portIsFree(ports.api));
  return { dir, ports, start, children, portsFree };
}

export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
