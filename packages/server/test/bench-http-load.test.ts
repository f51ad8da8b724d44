import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runLoad } from "../bench/httpLoad.ts";

/**
 * bench:api's load generator counts what it is given: answers split anywhere, bodies skipped by their length,
 * statuses as sent, and lost, cut-off, slow or chunked answers as errors, not as answers.
 */
describe("bench:api's HTTP load", () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
    server = null;
  });

  /** A raw HTTP server: `answer(path, socket, head)` writes the answer to a request. */
  async function serve(answer: (path: string, socket: Socket, head: string) => void): Promise<string> {
    server = createServer((socket) => {
      let pending = "";
      socket.on("error", () => {});
      socket.on("data", (chunk) => {
        pending += chunk.toString("latin1");
        for (let end = pending.indexOf("\r\n\r\n"); end >= 0; end = pending.indexOf("\r\n\r\n")) {
          const head = pending.slice(0, end);
          pending = pending.slice(end + 4);
          answer(head.slice(4, head.indexOf(" ", 4)), socket, head);
        }
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (!address || typeof address === "string") throw new Error("no port");
    return `http://127.0.0.1:${address.port}`;
  }
  const reply = (socket: Socket, status: number, body: string) =>
    socket.write(`HTTP/1.1 ${status} X\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

  it("counts each answer once, whatever its size or status, and sends each request's own path and headers", async () => {
    const seen: string[] = [];
    const big = "é".repeat(100_000); // 200 KB: many reads, and a multi-byte body
    const base = await serve((path, socket, head) => {
      seen.push(head);
      if (path === "/big") reply(socket, 200, big);
      else if (path === "/missing") reply(socket, 404, "{}");
      else reply(socket, 200, "");
    });
    const statuses: number[] = [];
    const paths = ["/big", "/missing", "/empty"];
    const { errors } = await runLoad({
      base,
      connections: 3,
      seconds: 0.5,
      request: (n) => ({ path: paths[n % 3] as string, headers: { "x-forwarded-for": `10.0.0.${n}` } }),
      onResponse: (status, ms) => {
        expect(ms).toBeGreaterThan(0);
        statuses.push(status);
      },
    });
    expect(errors).toBe(0);
    expect(statuses.length).toBeGreaterThan(30);
    // Answers still in flight at the end (at most one per connection) are not counted.
    expect(seen.length - statuses.length).toBeGreaterThanOrEqual(0);
    expect(seen.length - statuses.length).toBeLessThanOrEqual(3);
    const missing = statuses.filter((s) => s === 404).length;
    expect(Math.abs(missing - statuses.length / 3)).toBeLessThanOrEqual(3);
    expect(statuses.length - missing).toBe(statuses.filter((s) => s === 200).length);
    expect(seen[0]).toBe(`GET /big HTTP/1.1\r\nhost: ${new URL(base).host}\r\nx-forwarded-for: 10.0.0.0`);
    expect(seen).toContain(`GET /empty HTTP/1.1\r\nhost: ${new URL(base).host}\r\nx-forwarded-for: 10.0.0.2`);
  });

  it("assembles an answer's head sent a byte at a time", async () => {
    const base = await serve((_path, socket) => {
      const answer = "HTTP/1.1 201 X\r\ncontent-length:  3\r\n\r\nabc";
      let i = 0;
      const drip = () => {
        if (i < answer.length && !socket.destroyed)
          socket.write(answer[i++] as string, () => setImmediate(drip));
      };
      socket.setNoDelay(true);
      drip();
    });
    const statuses: number[] = [];
    const { errors } = await runLoad({
      base,
      connections: 1,
      seconds: 0.3,
      request: () => ({ path: "/" }),
      onResponse: (status) => statuses.push(status),
    });
    expect(errors).toBe(0);
    expect(statuses.length).toBeGreaterThan(1);
    expect(new Set(statuses)).toEqual(new Set([201]));
  });

  it("counts a connection lost mid-answer, a chunked answer and a slow one as errors, and goes on", async () => {
    const base = await serve((path, socket) => {
      if (path === "/cut") socket.end("HTTP/1.1 200 X\r\nContent-Length: 10\r\n\r\nabc");
      else if (path === "/chunked")
        socket.write("HTTP/1.1 200 X\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
      else if (path === "/slow") setTimeout(() => reply(socket, 200, "late"), 3_000);
      else reply(socket, 200, "ok");
    });
    const statuses: number[] = [];
    const { errors } = await runLoad({
      base,
      connections: 1,
      seconds: 1.5,
      timeoutMs: 300,
      request: (n) => ({ path: ["/cut", "/ok", "/chunked", "/ok", "/slow", "/ok"][n] ?? "/ok" }),
      onResponse: (status) => statuses.push(status),
    });
    expect(errors).toBe(3);
    expect(statuses.length).toBeGreaterThan(3);
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it("counts a refused connection as an error, and tries again after a pause rather than in a tight loop", async () => {
    const base = await serve(() => {});
    await new Promise((resolve) => server?.close(resolve));
    server = null;
    const { errors } = await runLoad({
      base,
      connections: 1,
      seconds: 0.5,
      request: () => ({ path: "/" }),
      onResponse: () => {},
    });
    expect(errors).toBeGreaterThanOrEqual(1);
    expect(errors).toBeLessThanOrEqual(6);
  });
});
