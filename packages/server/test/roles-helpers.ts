/**
 * The production roles (src/bin/api.ts, indexer.ts, worker.ts) as child processes, and what a client does
 * to them over real HTTP: sign in, read a Server-Sent Events stream.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { SESSION_COOKIE, SIWE_STATEMENT } from "@easel/common";
import type { PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";

export type Role = "api" | "indexer" | "worker";

export type RoleProcess = {
  role: Role;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  alive(): boolean;
};

/** Starts one role with `env` as its whole configuration (plus PATH and the like). */
export function startRole(role: Role, env: Record<string, string>): RoleProcess {
  const path = fileURLToPath(new URL(`../src/bin/${role}.ts`, import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", path], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    role,
    child,
    output: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
}

export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Signs `wallet` in through the real SIWE flow for the API's PUBLIC_URL; returns its cookie. */
export async function signIn(
  apiUrl: string,
  wallet: PrivateKeyAccount,
  publicUrl = "http://127.0.0.1:3000",
): Promise<string> {
  const { nonce } = (await fetch(`${apiUrl}/api/auth/nonce`).then((r) => r.json())) as { nonce: string };
  const message = createSiweMessage({
    domain: new URL(publicUrl).host,
    uri: publicUrl,
    address: wallet.address,
    chainId: 31337,
    version: "1",
    statement: SIWE_STATEMENT,
    issuedAt: new Date(),
    nonce,
  });
  const signature = await wallet.signMessage({ message });
  const response = await fetch(`${apiUrl}/api/auth/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ message, signature }),
  });
  const token = response.headers.get("set-cookie")?.match(new RegExp(`${SESSION_COOKIE}=([^;]+)`))?.[1];
  if (response.status !== 200 || !token) throw new Error(`sign-in failed: ${response.status}`);
  return `${SESSION_COOKIE}=${token}`;
}

/** An open `GET /api/events` stream: everything received so far, and whether the server ended it. */
export async function openStream(url: string) {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal });
  if (response.status !== 200 || !response.body) throw new Error(`stream refused: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const state = { text: "", ended: false };
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        state.text += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted by the test
    }
    state.ended = true;
  })();
  return {
    text: () => state.text,
    ended: () => state.ended,
    /** The `chain` events' data received after `offset` characters of the stream. */
    notices: (offset = 0) =>
      [...state.text.slice(offset).matchAll(/event: chain\ndata: (.*)\n/g)].map(
        (m) => JSON.parse(m[1] as string) as { all?: boolean; from: string; to: string },
      ),
    close: () => abort.abort(),
  };
}

/** Whether a TCP connection to the port is refused (nothing listens there any more). */
export function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}
