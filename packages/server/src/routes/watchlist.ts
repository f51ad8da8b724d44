import { apiErrorSchema, watchlistQuerySchema, watchlistResponseSchema } from "@easel/common";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { watchlist } from "../browse/watchlist.ts";
import { requireSession } from "./guards.ts";

/**
 * `GET /api/watchlist`: the signed-in member's favourited items with their live state (the profile's
 * Favourites tab), latest favourite first, in keyset pages.
 */
export const watchlistRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  app.get(
    "/",
    {
      schema: {
        summary: "The signed-in member's watchlist: favourited items with price, auction and sale state",
        querystring: watchlistQuerySchema,
        response: { 200: watchlistResponseSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const session = await requireSession(app, request);
      return { data: await watchlist(db, session.address, request.query) };
    },
  );
};
