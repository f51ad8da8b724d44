import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../src/embedded/process.ts";

export type DemoStack = {
  /** http://127.0.0.1:PORT of the API and the web app. */
  base: string;
  /** The launcher's process (API, indexer and worker in one), for its memory. */
  process: ChildProcess;
  /** The launcher's line that says the demo is ready. */
  ready: string;
  stop(): Promise<void>;
};

/**
 * `npm start`'s stack as a newcomer meets it, for the benchmarks: `scripts/start.ts` (the compiled launcher,
 * built first when a source is newer) with a new data folder on free ports, filling the demo marketplace;
 * answers once the demo is ready.
 */
export async function startDemoStack(env: Record<string, string> = {}): Promise<DemoStack> {
  const dir = mkdtempSync(join(tmpdir(), "easel-bench-stack-"));
  // As root PostgreSQL runs as the postgres user, which must reach the folder.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const start = fileURLToPath(new URL("../scripts/start.ts", import.meta.url));
  const child = spawn(process.execPath, [start], {
    env: {
      ...process.env,
      EASEL_DATA_DIR: join(dir, "data"),
      PORT: String(port),
      EASEL_CHAIN_PORT: String(await freePort()),
      EASEL_DB_PORT: String(await freePort()),
      LOG_LEVEL: "silent",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const deadline = Date.now() + 300_000; !/demo ready in/.test(output); ) {
      if (/could not/.test(output) || child.exitCode !== null)
        throw new Error(`the stack did not start:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the demo was not ready within 5 minutes:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    base: `http://127.0.0.1:${port}`,
    process: child,
    ready: output.match(/demo ready in .*/)?.[0] ?? "demo ready",
    stop,
  };
}
