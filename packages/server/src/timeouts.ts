/**
 * How long a client may take. Fastify sets no timeout of its own: a body sent one byte every 10 s held its
 * connection (and a slot of every proxy in front) for ever, even after the request was refused. So:
 * - a request body must have arrived within `requestMs` (`uploadMs` on upload routes: 50 MB on a slow
 *   link), else the request is answered 408 and its connection closed;
 * - headers must arrive within `HEADERS_MS`, and an idle connection closes after `IDLE_MS`;
 * - a request refused before its body was read (429, 413) closes its connection, so the rest of the body is
 *   not waited for.
 * The reverse proxy in front bounds the same things per client (docs/operating.md, "Reverse proxy").
 */
import type { Server } from "node:http";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

export type Timeouts = { requestMs: number; uploadMs: number };

const HEADERS_MS = 10_000;
const IDLE_MS = 60_000;

declare module "fastify" {
  interface FastifyContextConfig {
    /** An upload route: its body may take `uploadMs` to arrive. */
    upload?: boolean;
  }
}

/** Fastify's own options: a socket idle for `IDLE_MS` closes, and no request outlives the upload allowance. */
export function serverTimeouts(timeouts: Timeouts) {
  return { connectionTimeout: IDLE_MS, requestTimeout: timeouts.uploadMs + HEADERS_MS };
}

/** Node's headers deadline, checked every second instead of every 30 s. */
export function applyHeadersTimeout(server: Server) {
  server.headersTimeout = HEADERS_MS;
  (server as Server & { connectionsCheckingInterval?: number }).connectionsCheckingInterval = 1_000;
}

const hasBody = (request: FastifyRequest) =>
  Number(request.headers["content-length"] ?? 0) > 0 || request.headers["transfer-encoding"] !== undefined;

/** Arms the body deadline of every request that carries a body, and closes connections refused early. */
export function bodyDeadlines(app: FastifyInstance, timeouts: Timeouts) {
  app.addHook("onRequest", (request, reply, done) => {
    if (!hasBody(request)) return done();
    const ms = request.routeOptions.config?.upload ? timeouts.uploadMs : timeouts.requestMs;
    const timer = setTimeout(() => tooSlow(request, reply), ms);
    timer.unref();
    // The body has arrived (or the request is gone): nothing left to time.
    request.raw.once("end", () => clearTimeout(timer));
    request.raw.once("close", () => clearTimeout(timer));
    done();
  });
  app.addHook("onSend", (request, reply, payload, done) => {
    if ((reply.statusCode === 429 || reply.statusCode === 413) && hasBody(request) && !request.raw.complete)
      reply.header("connection", "close");
    done(null, payload);
  });
}

function tooSlow(request: FastifyRequest, reply: FastifyReply) {
  request.log.info("request body too slow: connection closed");
  if (!reply.sent) {
    void reply
      .code(408)
      .header("connection", "close")
      .send({ error: { code: "request_timeout", message: "The request took too long to arrive." } });
  }
  // Whatever of the body is still to come is not waited for.
  setTimeout(() => request.raw.socket?.destroy(), 1_000).unref();
}

/**
 * A stopping API closes every connection as soon as its last answer is sent, instead of keeping it for its
 * keep-alive timeout: the answers sent during the stop say `connection: close` (the client opens its next
 * connection elsewhere), and connections that go idle (a live stream ended, an answer written) are closed
 * every 100 ms until the server has closed.
 */
export function closeConnectionsWhenStopping(app: FastifyInstance) {
  let stopping = false;
  app.addHook("preClose", (done) => {
    stopping = true;
    const server = app.server;
    server.closeIdleConnections();
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    sweep.unref();
    server.once("close", () => clearInterval(sweep));
    done();
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (stopping) reply.header("connection", "close");
    done(null, payload);
  });
}
