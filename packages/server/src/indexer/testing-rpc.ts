/**
 * A JSON-RPC proxy in front of anvil for the indexer's fault tests: it passes calls on, or answers as a faulty
 * node does — `lagging` (a node behind the chain: `[]` for every `eth_getLogs` by block range, and "unknown
 * block" for one by block hash, as EIP-234 says), `behind` (a node whose head is an earlier block: that block
 * number, no header above it, `[]` for logs), `fail` (HTTP 503), `hang` (no answer until the mode changes).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ProxyMode = "pass" | "lagging" | "behind" | "fail" | "hang";

type Call = { id: unknown; method: string; params?: unknown[] };

export async function startRpcProxy(target: string) {
  let mode: ProxyMode = "pass";
  /** The head a `behind` node reports. */
  let behindAt = 0n;
  const held = new Set<() => void>();
  const counts = { getLogsByRange: 0, getLogsByHash: 0, refused: 0 };

  const answer = async (call: Call): Promise<unknown> => {
    if (mode === "behind") {
      const reply = (result: unknown) => ({ jsonrpc: "2.0", id: call.id, result });
      if (call.method === "eth_blockNumber") return reply(`0x${behindAt.toString(16)}`);
      const block = call.params?.[0];
      if (call.method === "eth_getBlockByNumber" && typeof block === "string" && block.startsWith("0x")) {
        if (BigInt(block) > behindAt) return reply(null);
      }
      if (call.method === "eth_getLogs") return reply([]);
    }
    if (call.method === "eth_getLogs" && mode === "lagging") {
      const filter = (call.params?.[0] ?? {}) as { blockHash?: string };
      if (filter.blockHash) {
        counts.getLogsByHash++;
        return { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "unknown block" } };
      }
      counts.getLogsByRange++;
      return { jsonrpc: "2.0", id: call.id, result: [] };
    }
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(call),
    });
    return response.json();
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (mode === "hang") {
      // Held until the mode changes or the proxy stops, then cut without an answer.
      await new Promise<void>((resolve) => held.add(resolve));
      response.destroy();
      return;
    }
    if (mode === "fail") {
      counts.refused++;
      response.writeHead(503, { "content-type": "text/plain" }).end("injected fault");
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Call | Call[];
    const result = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const release = () => {
    for (const resolve of held) resolve();
    held.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    /** `behind`, with its head at `head`. */
    behind(head: bigint) {
      behindAt = head;
      mode = "behind";
    },
    set(next: ProxyMode) {
      mode = next;
      if (next !== "hang") release();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        release();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
