import { createHash } from "node:crypto";
import {
  apiErrorSchema,
  ethPriceResponseSchema,
  itemFavoriteResponseSchema,
  itemFavoriteSchema,
  itemQuerySchema,
  itemRefSchema,
  itemResponseSchema,
  itemViewResponseSchema,
} from "@easel/common";
import { aggregatorV3Abi } from "@easel/contracts/abis";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { formatUnits } from "viem";
import { z } from "zod";
import type { Viewer } from "../browse/cards.ts";
import { visibleToken } from "../browse/cards.ts";
import { itemDetail, uploadPath } from "../browse/item.ts";
import type { Database } from "../db/client.ts";
import { ApiError } from "../errors.ts";
import { isAdmin, requireActiveUser, viewerOf } from "./guards.ts";

const ITEM_NOT_FOUND = "Item not found";
/** The feed moves every few minutes at most; one read a minute serves every price on every screen. */
const ETH_PRICE_TTL_MS = 60_000;

/** Whether the token exists on chain and this viewer may see it (not burned; blocked only for moderators). */
async function itemVisible(db: Database, viewer: Viewer, collection: string, tokenId: string) {
  const { rows } = await db.execute(sql`
    SELECT 1 FROM chain_tokens t JOIN chain_collections c ON c.address = t.collection
    WHERE t.collection = ${collection} AND t.token_id = ${tokenId}::numeric AND ${visibleToken(viewer)}`);
  return rows.length > 0;
}

/**
 * Item views and favourites, the counts behind the Most viewed and Most favorited sorts. `item_stats` holds
 * the counts, changed in the same transaction as the row that justifies them, so they never drift.
 */
export const itemRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, chain, config } = app.deps;
  let ethPrice: { usd: string; updatedAt: string; readAt: number } | null = null;

  app.get(
    "/eth-price",
    {
      schema: {
        summary: "USD per ETH, read from the chain's Chainlink ETH/USD feed (cached for a minute)",
        response: { 200: ethPriceResponseSchema, 503: apiErrorSchema },
      },
    },
    async (_request, reply) => {
      if (!ethPrice || Date.now() - ethPrice.readAt > ETH_PRICE_TTL_MS) {
        try {
          const feed = { address: config.contracts.ethUsdFeed, abi: aggregatorV3Abi } as const;
          const [decimals, round] = await Promise.all([
            chain.readContract({ ...feed, functionName: "decimals" }),
            chain.readContract({ ...feed, functionName: "latestRoundData" }),
          ]);
          const [, answer, , updatedAt] = round;
          if (answer <= 0n) throw new Error("no price");
          ethPrice = {
            usd: formatUnits(answer, decimals),
            updatedAt: new Date(Number(updatedAt) * 1000).toISOString(),
            readAt: Date.now(),
          };
        } catch {
          if (!ethPrice)
            throw new ApiError(503, "price_unavailable", "The ETH price is not available right now.");
        }
      }
      reply.header("cache-control", "public, max-age=60");
      return { data: { usd: ethPrice.usd, updatedAt: ethPrice.updatedAt } };
    },
  );

  app.get(
    "/",
    {
      schema: {
        summary:
          "An item's page: what was minted (or listed lazily), its sale state, offers, activity and prices",
        querystring: itemQuerySchema,
        response: { 200: itemResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const viewer = await viewerOf(app, request);
      const data = await itemDetail(db, viewer, request.query, config.contracts.defaultCollection);
      if (!data) throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      return { data };
    },
  );

  app.get(
    "/link/:id",
    {
      schema: {
        summary: "Redirects a minted upload's external_url to its item page",
        params: z.object({ id: z.uuid() }),
        response: { 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const path = await uploadPath(db, request.params.id);
      if (!path) throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      return reply.redirect(path, 302);
    },
  );

  app.post(
    "/view",
    {
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
      schema: {
        summary: "Counts a view of an item: one per viewer (wallet, or a hash of the visitor's IP) a day",
        body: itemRefSchema,
        response: { 200: itemViewResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const viewer = await viewerOf(app, request);
      const { collection, tokenId } = request.body;
      if (!(await itemVisible(db, viewer, collection, tokenId))) {
        throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      }
      // A visitor is known only by a hash of their address on the network: the IP itself is not stored.
      const who =
        viewer.address ?? `ip:${createHash("sha256").update(request.ip).digest("hex").slice(0, 32)}`;
      const { rows } = await db.execute<{ counted: boolean; views: number }>(sql`
        WITH seen AS (
          INSERT INTO item_views (collection, token_id, viewer, day)
          VALUES (${collection}, ${tokenId}::numeric, ${who}, (now() AT TIME ZONE 'utc')::date)
          ON CONFLICT DO NOTHING RETURNING 1
        ), counted AS (
          INSERT INTO item_stats (collection, token_id, views)
          SELECT ${collection}, ${tokenId}::numeric, 1 FROM seen
          ON CONFLICT (collection, token_id) DO UPDATE SET views = item_stats.views + 1
          RETURNING views
        )
        SELECT EXISTS (SELECT 1 FROM seen) AS counted,
          coalesce((SELECT views FROM counted),
                   (SELECT views FROM item_stats WHERE collection = ${collection} AND token_id = ${tokenId}::numeric),
                   0)::int AS views`);
      const row = rows[0] ?? { counted: false, views: 0 };
      return { data: { counted: row.counted, views: Number(row.views) } };
    },
  );

  app.post(
    "/favorite",
    {
      schema: {
        summary: "Favourites an item (the wanted state, or a toggle) for the signed-in user",
        body: itemFavoriteSchema,
        response: {
          200: itemFavoriteResponseSchema,
          400: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      const { collection, tokenId } = request.body;
      const viewer = { address: session.address, moderator: isAdmin(app, session.address) };
      if (!(await itemVisible(db, viewer, collection, tokenId))) {
        throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      }
      return db.transaction(async (tx) => {
        // The stats row is the lock: two requests from one person at once count once.
        await tx.execute(sql`
          INSERT INTO item_stats (collection, token_id) VALUES (${collection}, ${tokenId}::numeric)
          ON CONFLICT DO NOTHING`);
        const {
          rows: [stats],
        } = await tx.execute<{ favorites: number }>(sql`
          SELECT favorites FROM item_stats
          WHERE collection = ${collection} AND token_id = ${tokenId}::numeric FOR UPDATE`);
        const mine = sql`collection = ${collection} AND token_id = ${tokenId}::numeric AND address = ${session.address}`;
        const { rows: existing } = await tx.execute(sql`SELECT 1 FROM item_favorites WHERE ${mine}`);
        const was = existing.length > 0;
        const want = request.body.favorite ?? !was;
        let delta = 0;
        if (want && !was) {
          await tx.execute(sql`
            INSERT INTO item_favorites (collection, token_id, address)
            VALUES (${collection}, ${tokenId}::numeric, ${session.address})`);
          delta = 1;
        } else if (!want && was) {
          await tx.execute(sql`DELETE FROM item_favorites WHERE ${mine}`);
          delta = -1;
        }
        if (delta !== 0) {
          await tx.execute(sql`
            UPDATE item_stats SET favorites = favorites + ${delta}
            WHERE collection = ${collection} AND token_id = ${tokenId}::numeric`);
        }
        return { data: { favorite: want, favorites: Number(stats?.favorites ?? 0) + delta } };
      });
    },
  );
};
