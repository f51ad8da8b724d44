import { activityFeedQuerySchema, activityFeedResponseSchema, apiErrorSchema } from "@easel/common";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { activityFeed } from "../browse/feed.ts";

/**
 * `GET /api/activity`: the market-wide activity feed (sales, listings, bids and offers), newest first, in
 * keyset pages, by kind and collection. Public; the web app refetches it on every batch the event stream
 * announces (`GET /api/events` without a filter).
 */
export const activityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  app.get(
    "/",
    {
      schema: {
        summary: "The market's activity (sales, listings, bids, offers), newest first",
        querystring: activityFeedQuerySchema,
        response: { 200: activityFeedResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => ({ data: await activityFeed(db, request.query) }),
  );
};
