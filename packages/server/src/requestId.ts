import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyInstance } from "fastify";

/** The header that carries a request's id, in and out. */
export const REQUEST_ID_HEADER = "x-request-id";

/** An id a proxy or a client may hand us: short, and nothing a log reader could mistake for structure. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Fastify's `genReqId`: the caller's `X-Request-Id` when it is a short safe token (so one id follows a
 * request from the load balancer through the logs), otherwise a new UUID.
 */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === "string" && SAFE_ID.test(given) ? given : randomUUID();
}

/**
 * Sends the request's id back as `X-Request-Id` on every answer: set on the raw response before any other
 * hook runs, so errors, refusals and hijacked streams (the SSE endpoint) carry it too.
 */
export function echoRequestId(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
    done();
  });
}
