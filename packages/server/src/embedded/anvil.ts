import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { ANVIL_MNEMONIC } from "@easel/common";
import { stopChild } from "./process.ts";

const require = createRequire(import.meta.url);

/** The anvil binary from the platform package that `@foundry-rs/anvil` installs. */
function anvilBinary(): string {
  const cpu = arch() === "x64" ? "amd64" : arch();
  const name = `@foundry-rs/anvil-${platform()}-${cpu}`;
  try {
    return join(dirname(require.resolve(`${name}/package.json`)), "bin", "anvil");
  } catch {
    throw new Error(`The anvil binary for ${platform()}-${arch()} is missing (${name}). Run npm install.`);
  }
}

export type Anvil = { url: string; pid: number; stop(): Promise<void> };

// anvil's well-known development mnemonic: its accounts are public test keys, never real money.
export { ANVIL_MNEMONIC };

/**
 * Starts anvil on 127.0.0.1. With `stateFile`, the chain is loaded from it and dumped to it
 * every `stateIntervalS` seconds and on shutdown, so a restart keeps every block.
 */
export async function startAnvil(options: {
  port: number;
  chainId?: number;
  stateFile?: string;
  stateIntervalS?: number;
  blockTimeS?: number;
  log?: (line: string) => void;
  /** Aborted before anvil is ready: it is stopped again, and the start rejects. */
  signal?: AbortSignal;
}): Promise<Anvil> {
  options.signal?.throwIfAborted();
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(options.port),
    "--chain-id",
    String(options.chainId ?? 31337),
    "--mnemonic",
    ANVIL_MNEMONIC,
    "--accounts",
    "10",
  ];
  if (options.stateFile)
    args.push("--state", options.stateFile, "--state-interval", String(options.stateIntervalS ?? 5));
  if (options.blockTimeS) args.push("--block-time", String(options.blockTimeS));
  const child: ChildProcess = spawn(anvilBinary(), args, {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const url = `http://127.0.0.1:${options.port}`;
  // Not ready yet, it has nothing to save: SIGKILL, since a SIGTERM that comes before anvil listens for it is lost.
  const abort = () => child.kill("SIGKILL");
  options.signal?.addEventListener("abort", abort, { once: true });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      options.log?.(text.trimEnd());
      if (output.length < 20_000) output += text;
      if (text.includes("Listening on")) resolve();
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`anvil exited (code ${code}):\n${output.slice(-2000)}`)));
  }).finally(() => options.signal?.removeEventListener("abort", abort));
  // Keep draining output so anvil never blocks on a full pipe.
  child.stdout?.on("data", () => {});
  child.stderr?.on("data", () => {});
  // anvil writes its state file when it receives SIGINT/SIGTERM.
  return { url, pid: child.pid as number, stop: () => stopChild(child, "SIGTERM", 10_000) };
}
