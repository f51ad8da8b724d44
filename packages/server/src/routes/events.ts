import type { ServerResponse } from "node:http";
import { ADDRESS_PATTERN } from "@easel/common";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ChainListener, chainPosition } from "../indexer/live.ts";
import { liveStreams } from "../metrics.ts";

const HEARTBEAT_MS = 15_000;
/** How long a new stream waits for the LISTEN connection before it says `ready` without a position. */
const LISTENING_WAIT_MS = 2_000;
/** How soon a browser reconnects after this process ends its stream on shutdown. */
export const SHUTDOWN_RETRY_MS = 1_000;
/**
 * Streams one address may hold open, and in total. Every signed-in page holds one (the account and the item
 * it shows share it), and people behind one NAT or office proxy share an address: 32 leaves room for them
 * while one client still cannot take the server's share.
 */
export const STREAMS_PER_CLIENT = 32;
export const STREAMS_IN_TOTAL = 5_000;
const address = z
  .string()
  .regex(ADDRESS_PATTERN, "must be a 0x address")
  .transform((value) => value.toLowerCase());

/**
 * `GET /api/events`: Server-Sent Events with what the indexer just committed (one `chain` event per
 * batch: block range, touched collections, tokens `collection:tokenId` and accounts; `all: true` after a
 * reorg or a reconnect means "refresh everything"). Filters: `token`, `collection`, `account`; none means
 * every batch. Fed by one LISTEN connection per API process. The first event, `ready`, names the chain's
 * position once the stream hears every later batch (`{ position }`, indexer/live.ts; `{}` when the database
 * cannot say): a page whose first answers were read at that position is current.
 */
export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  const listener = new ChainListener(app.deps.config.databaseUrl, (line) => app.log.warn(line));
  const streams = new Set<ServerResponse>();
  const perClient = new Map<string, number>();
  // On shutdown every stream ends with a retry hint: the browser reconnects (to another replica, or to this
  // one restarted) after a second and refreshes what it shows.
  app.addHook("preClose", async () => {
    for (const stream of streams) stream.end(`retry: ${SHUTDOWN_RETRY_MS}\nevent: closing\ndata: {}\n\n`);
    await listener.close();
  });

  app.get(
    "/events",
    {
      schema: {
        summary: "Live chain updates (Server-Sent Events)",
        querystring: z.object({
          token: z
            .string()
            .regex(/^0x[0-9a-fA-F]{40}[:/]\d+$/, "must be collection:tokenId")
            .transform((value) => value.toLowerCase().replace("/", ":"))
            .optional(),
          collection: address.optional(),
          account: address.optional(),
        }),
      },
    },
    async (request, reply) => {
      const { token, collection, account } = request.query;
      const client = request.ip;
      const open = perClient.get(client) ?? 0;
      if (open >= STREAMS_PER_CLIENT || streams.size >= STREAMS_IN_TOTAL) {
        return reply.status(429).send({
          error: { code: "rate_limited", message: "Too many live-update streams are open; close one first." },
        });
      }
      perClient.set(client, open + 1);
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      res.flushHeaders();
      streams.add(res);
      liveStreams.inc();
      const unsubscribe = listener.subscribe({ token, collection, account }, (notice) => {
        res.write(`event: chain\ndata: ${JSON.stringify(notice)}\n\n`);
      });
      // A heartbeat that cannot be written (a dead peer) ends the stream, which frees its place.
      const heartbeat = setInterval(() => {
        if (!res.write(": ping\n\n") && res.writableLength > 64 * 1024) res.destroy();
      }, HEARTBEAT_MS);
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(res);
        liveStreams.dec();
        const left = (perClient.get(client) ?? 1) - 1;
        if (left > 0) perClient.set(client, left);
        else perClient.delete(client);
      };
      request.raw.on("close", close);
      res.on("close", close);
      // Read once the stream hears every batch committed after it: a batch in between is both in the
      // position and among the stream's notices, never in neither.
      const listening = await listener.listening(LISTENING_WAIT_MS);
      // A stream closed meanwhile (a page left at once) has no one to tell: no read for it.
      if (closed || res.writableEnded) return;
      const position = listening ? await chainPosition(app.deps.db).catch(() => null) : null;
      if (!closed && !res.writableEnded)
        res.write(
          `retry: 3000\n\nevent: ready\ndata: ${JSON.stringify(position === null ? {} : { position })}\n\n`,
        );
    },
  );
};
