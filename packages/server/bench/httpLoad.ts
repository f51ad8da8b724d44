/**
 * The load of `bench:api`: keep-alive HTTP/1.1 connections, each sending its next request as soon as the
 * previous answer is complete, for a given time. It reads only what counting needs (the status line and
 * Content-Length) and skips the body unread, so that the client sharing the machine with the API costs it
 * as little as the replay's `pg` client costs the database's turn. autocannon, used before, decoded every
 * answer into a string and built every request anew: against the held 1,000,000-item stack (explore items
 * with no sort, 50 connections, the two clients in turns of 8 s, 2026-11-27 03:50–03:53 UTC) it took
 * 0.077–0.087 ms of CPU a request and this client 0.045–0.059 ms, while the endpoint served 2,065–2,463 and
 * 2,143–2,709 requests/s: CPU the API's turn lost beside a replay that has no HTTP client at all.
 */
import { connect, type Socket } from "node:net";

export type LoadOptions = {
  /** `http://host:port`; the paths come from `request`. */
  base: string;
  connections: number;
  seconds: number;
  /** Request n (counted across all connections): its path and extra headers. */
  request: (n: number) => { path: string; headers?: Record<string, string> };
  /** Called once per complete answer, with its status and the time from sending to its last byte. */
  onResponse: (status: number, ms: number) => void;
  /** An answer slower than this counts as an error and its connection starts again (10 s). */
  timeoutMs?: number;
};

/**
 * Drives the load until `seconds` have passed; answers still in flight then are not counted. Returns the
 * errors that were not answers: connections refused or lost, answers cut off or too slow.
 */
export async function runLoad(options: LoadOptions): Promise<{ errors: number }> {
  const { hostname, port, host } = new URL(options.base);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = performance.now() + options.seconds * 1000;
  const sockets = new Set<Socket>();
  let next = 0;
  let errors = 0;
  let stopped = false;

  const open = () => {
    if (stopped) return;
    const socket = connect(Number(port), hostname);
    socket.setNoDelay(true);
    sockets.add(socket);
    let sentAt = 0;
    let inFlight = false;
    let head: Buffer | null = null; // the part of an answer's head received so far
    let status = 0;
    let bodyLeft = -1; // bytes of the current answer's body still to come; -1 while reading its head
    const timer = setInterval(() => {
      if (inFlight && performance.now() - sentAt > timeoutMs) fail();
    }, 250);
    const send = () => {
      if (stopped) return;
      const { path, headers = {} } = options.request(next++);
      let text = `GET ${path} HTTP/1.1\r\nhost: ${host}\r\n`;
      for (const [name, value] of Object.entries(headers)) text += `${name}: ${value}\r\n`;
      sentAt = performance.now();
      inFlight = true;
      socket.write(`${text}\r\n`, "latin1");
    };
    const complete = () => {
      inFlight = false;
      bodyLeft = -1;
      options.onResponse(status, performance.now() - sentAt);
      send();
    };
    const fail = () => {
      if (!sockets.delete(socket)) return;
      clearInterval(timer);
      socket.destroy();
      if (stopped) return;
      errors++;
      // A refused connection is tried again after a pause, not in a tight loop.
      setTimeout(open, 100).unref();
    };
    socket.on("connect", send);
    socket.on("data", (chunk: Buffer) => {
      let at = 0;
      while (at < chunk.length) {
        if (bodyLeft < 0) {
          const data: Buffer = head ? Buffer.concat([head, chunk.subarray(at)]) : chunk.subarray(at);
          const end = data.indexOf("\r\n\r\n");
          if (end < 0) {
            head = Buffer.from(data);
            return;
          }
          head = null;
          const text = data.toString("latin1", 0, end);
          status = Number(text.slice(9, 12));
          const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(text);
          // Every answer of the API is written whole, with its length; a chunked one is not counted.
          if (!length) return fail();
          bodyLeft = Number(length[1]);
          at = chunk.length - (data.length - end - 4);
        }
        const taken = Math.min(bodyLeft, chunk.length - at);
        bodyLeft -= taken;
        at += taken;
        if (bodyLeft === 0) complete();
      }
    });
    socket.on("error", fail);
    socket.on("close", fail);
  };

  for (let i = 0; i < options.connections; i++) open();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - performance.now())));
  stopped = true;
  for (const socket of sockets) socket.destroy();
  return { errors };
}
