import {
  profileAuctionsResponseSchema,
  profileCreditsResponseSchema,
  profileOffersResponseSchema,
  profileOpenOrdersResponseSchema,
} from "@easel/common";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { offerStatus } from "../chain/rows.ts";
import { chainAuctions, chainBids, chainOffers, chainSellOrders, chainTokens } from "../db/chain-schema.ts";
import { auctionInput, LIST_LIMIT, type RowInput, tradeRows } from "../trading/profileLists.ts";
import { requireSession } from "./guards.ts";

/** Over `chain_offers`: an offer the market would still accept (no expiry: one made before offers expired). */
const LIVE_OFFER_ROW = sql`(${chainOffers.expiresAt} IS NULL OR ${chainOffers.expiresAt} > now())`;

/** An offer's trade row: an active offer past its expiry reads "expired", its expiry is its end. */
function offerInput(o: typeof chainOffers.$inferSelect, counterparty: string | null): RowInput {
  return {
    id: `${o.collection}:${o.tokenId}:${o.buyer}`,
    collection: o.collection,
    tokenId: o.tokenId,
    amount: o.amount,
    status: offerStatus(o.status, o.expiresAt),
    counterparty,
    endTime: o.expiresAt,
    updatedAt: o.updatedAt,
  };
}

/**
 * The signed-in user's offers, auctions and open orders, from the chain tables; only their own. Part of
 * /api/profile: registered by the profile routes.
 */
export const profileTradingRoutes: FastifyPluginAsyncZod = async (app) => {
  // One person's trading lists: no shared or browser cache may keep them.
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });
  const { db } = app.deps;

  app.get(
    "/offers",
    {
      schema: {
        summary: "Offers the signed-in user made, and live offers on their tokens",
        response: { 200: profileOffersResponseSchema },
      },
    },
    async (request) => {
      const { address } = await requireSession(app, request);
      const [made, received] = await Promise.all([
        db
          .select({ offer: chainOffers, owner: chainTokens.owner })
          .from(chainOffers)
          .leftJoin(
            chainTokens,
            and(
              eq(chainTokens.collection, chainOffers.collection),
              eq(chainTokens.tokenId, chainOffers.tokenId),
            ),
          )
          .where(eq(chainOffers.buyer, address))
          .orderBy(desc(chainOffers.updatedBlock))
          .limit(LIST_LIMIT),
        db
          .select({ offer: chainOffers })
          .from(chainOffers)
          .innerJoin(
            chainTokens,
            and(
              eq(chainTokens.collection, chainOffers.collection),
              eq(chainTokens.tokenId, chainOffers.tokenId),
            ),
          )
          // Live offers only: an expired one can no longer be accepted.
          .where(and(eq(chainTokens.owner, address), eq(chainOffers.status, "active"), LIVE_OFFER_ROW))
          .orderBy(desc(chainOffers.updatedBlock))
          .limit(LIST_LIMIT),
      ]);
      return {
        data: {
          made: await tradeRows(
            db,
            made.map((r) => offerInput(r.offer, r.owner)),
          ),
          received: await tradeRows(
            db,
            received.map((r) => offerInput(r.offer, r.offer.buyer)),
          ),
        },
      };
    },
  );

  app.get(
    "/auctions",
    {
      schema: {
        summary: "Auctions the signed-in user held, and auctions they bid in",
        response: { 200: profileAuctionsResponseSchema },
      },
    },
    async (request) => {
      const { address } = await requireSession(app, request);
      const bidOnTokens = db
        .selectDistinct({ collection: chainBids.collection, tokenId: chainBids.tokenId })
        .from(chainBids)
        .where(eq(chainBids.bidder, address));
      const [held, bidOn] = await Promise.all([
        db
          .select()
          .from(chainAuctions)
          .where(eq(chainAuctions.seller, address))
          .orderBy(desc(chainAuctions.createdBlock))
          .limit(LIST_LIMIT),
        db
          .select()
          .from(chainAuctions)
          .where(
            and(
              ne(chainAuctions.seller, address),
              sql`(${chainAuctions.collection}, ${chainAuctions.tokenId}) IN ${bidOnTokens}`,
              sql`${chainAuctions.bidsCount} > 0`,
            ),
          )
          .orderBy(desc(chainAuctions.createdBlock))
          .limit(LIST_LIMIT),
      ]);
      return {
        data: {
          held: await tradeRows(db, held.map(auctionInput)),
          bidOn: await tradeRows(db, bidOn.map(auctionInput)),
        },
      };
    },
  );

  app.get(
    "/open-orders",
    {
      schema: {
        summary:
          "What the signed-in user can still cancel: listings, auctions without bids, offers (expired ones too)",
        response: { 200: profileOpenOrdersResponseSchema },
      },
    },
    async (request) => {
      const { address } = await requireSession(app, request);
      const [listings, auctions, offers] = await Promise.all([
        db
          .select()
          .from(chainSellOrders)
          .where(and(eq(chainSellOrders.seller, address), eq(chainSellOrders.status, "active")))
          .orderBy(desc(chainSellOrders.listedBlock)),
        db
          .select()
          .from(chainAuctions)
          .where(
            and(
              eq(chainAuctions.seller, address),
              eq(chainAuctions.status, "active"),
              eq(chainAuctions.bidsCount, 0),
            ),
          )
          .orderBy(desc(chainAuctions.createdBlock)),
        db
          .select()
          .from(chainOffers)
          .where(and(eq(chainOffers.buyer, address), eq(chainOffers.status, "active")))
          .orderBy(desc(chainOffers.updatedBlock)),
      ]);
      return {
        data: {
          listings: await tradeRows(
            db,
            listings.map((l) => ({
              id: `${l.collection}:${l.tokenId}`,
              collection: l.collection,
              tokenId: l.tokenId,
              amount: l.price,
              status: l.status,
              counterparty: null,
              endTime: l.expiresAt,
              updatedAt: l.listedAt,
            })),
          ),
          auctions: await tradeRows(db, auctions.map(auctionInput)),
          // An expired offer is still the user's to cancel (its ETH stays in the market until then).
          offers: await tradeRows(
            db,
            offers.map((o) => offerInput(o, null)),
          ),
        },
      };
    },
  );

  app.get(
    "/credits",
    {
      schema: {
        summary: "Payments held for the signed-in user (their wallet refused ETH), per contract, to withdraw",
        response: { 200: profileCreditsResponseSchema },
      },
    },
    async (request) => {
      const { address } = await requireSession(app, request);
      const { rows } = await db.execute<{ contract: string; amount: string }>(sql`
        SELECT contract, sum(CASE WHEN kind = 'credit' THEN amount ELSE -amount END)::text AS amount
        FROM chain_credits WHERE account = ${address}
        GROUP BY contract HAVING sum(CASE WHEN kind = 'credit' THEN amount ELSE -amount END) > 0
        ORDER BY contract`);
      return { data: { credits: rows.map((r) => ({ contract: r.contract, amountWei: r.amount })) } };
    },
  );
};
