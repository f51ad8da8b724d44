import type { ServerResponse } from "node:http";
import { ADDRESS_PATTERN } from "@easel/common";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ChainListener } from "../indexer/live.ts";

const HEARTBEAT_MS = 15_000;
const address = z
  .string()
  .regex(ADDRESS_PATTERN, "must be a 0x address")
  .transform((value) => value.toLowerCase());

/**
 * `GET /api/events`: Server-Sent Events with what the indexer just committed (one `chain` event per
 * batch: block range, touched collections, tokens `collection:tokenId` and accounts; `all: true` after a
 * reorg or a reconnect means "refresh everything"). Filters: `token`, `collection`, `account`; none means
 * every batch. Fed by one LISTEN connection per API process.
 */
export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  const listener = new ChainListener(app.deps.config.databaseUrl, (line) => app.log.warn(line));
  const streams = new Set<ServerResponse>();
  app.addHook("preClose", async () => {
    for (const stream of streams) stream.end();
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
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      res.write("retry: 3000\n\nevent: ready\ndata: {}\n\n");
      streams.add(res);
      const unsubscribe = listener.subscribe({ token, collection, account }, (notice) => {
        res.write(`event: chain\ndata: ${JSON.stringify(notice)}\n\n`);
      });
      const heartbeat = setInterval(() => res.write(": ping\n\n"), HEARTBEAT_MS);
      request.raw.on("close", () => {
        clearInterval(heartbeat);
        unsubscribe();
        streams.delete(res);
      });
    },
  );
};
