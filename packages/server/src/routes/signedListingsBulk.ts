import {
  apiErrorSchema,
  bulkListingInputSchema,
  bulkListingResponseSchema,
  listableWorksResponseSchema,
  MAX_BULK_LISTINGS,
  type SignedListingOrder,
} from "@easel/common";
import { bulkListing, SIGNED_LISTING_STATUS } from "@easel/contracts";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { OWNS_NAME, slugOf, tokenName } from "../chain/rows.ts";
import { ApiError } from "../errors.ts";
import {
  canonicalOrder,
  listingIntake,
  listingOf,
  overflowingField,
  reproject,
  SIGNED_LISTING_MESSAGES,
  type Stored,
} from "../trading/listingIntake.ts";
import { chainOrder, type TokenRef, withProjectionLock } from "../trading/signedListings.ts";
import { badRequest, requireActiveUser, requireSession, walletOrIpKey } from "./guards.ts";

const listableQuery = z.object({
  collection: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "Must be an address")
    .transform((s) => s.toLowerCase())
    .optional(),
});

/** How many orders are rechecked in words at once when the chain refuses them (`notLive` reads more). */
const REFUSALS_AT_ONCE = 8;

/**
 * `POST /api/signed-listings/bulk` (issue 51, "List several"): one signature over a tree of signed listings
 * (`bulkListing` of @easel/contracts). The server rebuilds the tree from the orders as posted, so each order's
 * leaf index and proof are its own; every order passes the single listing's checks and
 * `bulkSignedListingStatus` on chain, and is stored as its own order of the book (with its leaf) or refused
 * with the reason in words. Registered by `signedListingRoutes` under its prefix.
 */
export const signedListingBulkRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, chain, config } = app.deps;
  const pool = db.$client;
  const intake = listingIntake({ db, chain, config });
  const m = SIGNED_LISTING_MESSAGES;

  app.get(
    "/listable",
    {
      schema: {
        summary:
          "The signed-in wallet's works it can list by signature now (owned, not in an auction, not listed on chain), in one collection or all, newest first",
        querystring: listableQuery,
        response: { 200: listableWorksResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const session = await requireSession(app, request);
      const { collection } = request.query;
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT t.collection, t.token_id::text AS token_id, im.name AS item_name, md.thumbnail_cid,
          c.name, c.kind AS collection_kind, c.address, coalesce(t.creator, c.owner) AS creator, ${OWNS_NAME},
          (SELECT min(s.price)::text FROM signed_listings s WHERE s.collection = t.collection
             AND s.token_id = t.token_id AND s.seller = t.owner AND s.status = 'active'
             AND s.expires_at > now()) AS signed_price
        FROM chain_tokens t
        JOIN chain_collections c ON c.address = t.collection
        LEFT JOIN item_metadata im ON im.cid = t.cid
        LEFT JOIN media md ON md.cid = im.media_cid
        WHERE t.owner = ${session.address} AND t.status IN ('minted', 'fix', 'lazy-sold')
          AND (${collection ?? null}::text IS NULL OR t.collection = ${collection ?? null})
          AND NOT EXISTS (SELECT 1 FROM chain_auctions a WHERE a.collection = t.collection
            AND a.token_id = t.token_id AND a.status = 'active')
          AND NOT EXISTS (SELECT 1 FROM chain_sell_orders o WHERE o.collection = t.collection
            AND o.token_id = t.token_id AND o.status = 'active' AND o.expires_at > now())
        ORDER BY t.minted_block DESC, t.collection, t.token_id DESC LIMIT ${MAX_BULK_LISTINGS}`);
      return {
        data: rows.map((row) => {
          const creator = String(row.creator);
          return {
            collection: String(row.collection),
            collectionName: (row.name as string | null) ?? null,
            tokenId: String(row.token_id),
            name:
              (row.item_name as string | null) ??
              tokenName((row.name as string | null) ?? null, String(row.token_id)),
            imageCid: (row.thumbnail_cid as string | null) ?? null,
            path:
              row.collection_kind === "default"
                ? `/${creator}/${row.token_id}`
                : `/${creator}/${encodeURIComponent(slugOf(row))}/${row.token_id}`,
            signedPriceWei: (row.signed_price as string | null) ?? null,
          };
        }),
      };
    },
  );

  app.post(
    "/bulk",
    {
      // One post is one write whatever it lists (at most 1,024 orders, the schema's cap), checked in one
      // multicall; fewer posts a minute than single listings, since each may ask the chain of 1,024.
      config: { rateLimit: { max: 10, timeWindow: "1 minute", keyGenerator: walletOrIpKey(app) } },
      schema: {
        summary:
          "Store the orders of one bulk signature (a tree of up to 1,024 signed listings), each checked as a single one and on chain; those refused come back with the reason",
        body: bulkListingInputSchema,
        response: {
          201: bulkListingResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { session } = await requireActiveUser(app, request);
      const signature = request.body.signature.toLowerCase() as `0x${string}`;
      if (signature.length % 2 !== 0) throw badRequest("invalid_signature", "signature", m.invalidSignature);
      const orders = request.body.orders.map(canonicalOrder);
      orders.forEach((order, i) => {
        const overflow = overflowingField(order, true);
        if (overflow) throw badRequest("invalid_order", `orders.${i}.${overflow}`, "Must be a uint256");
      });
      // One seller signed the tree: it must be the signed-in wallet.
      if (orders.some((order) => order.seller !== session.address))
        throw new ApiError(403, "not_seller", m.oneSeller);
      // The tree as the seller signed it (leaf order matters): each order's index and proof are the server's.
      const tree = bulkListing(orders.map(chainOrder));
      const refused: { index: number; tokenId: string; message: string }[] = [];
      const refuse = (index: number, error: unknown) => {
        if (!(error instanceof ApiError)) throw error;
        refused.push({
          index,
          tokenId: (orders[index] as SignedListingOrder).tokenId,
          message: error.message,
        });
      };
      const tokens = await intake.tokenStates(orders);
      const seen = new Set<string>();
      const checked: { index: number; order: SignedListingOrder }[] = [];
      orders.forEach((order, index) => {
        const key = `${order.collection}:${order.tokenId}`;
        try {
          if (seen.has(key)) throw new ApiError(400, "duplicate", m.duplicate);
          seen.add(key);
          intake.precheck(order, session.address, tokens.get(key));
          checked.push({ index, order });
        } catch (error) {
          refuse(index, error);
        }
      });
      const leafOf = (index: number) => {
        const leaf = tree.proofs[index] as (typeof tree.proofs)[number];
        return { index, proof: leaf.proof };
      };
      const [{ statuses, block }, contractSeller] = await Promise.all([
        intake.bulkStatuses(
          checked.map(({ index, order }) => ({ order, bulk: leafOf(index) })),
          signature,
        ),
        intake.isContract(session.address),
      ]);
      const live: { index: number; order: SignedListingOrder }[] = [];
      const notLive: { index: number; order: SignedListingOrder; status: number }[] = [];
      checked.forEach((entry, i) => {
        const status = statuses[i] ?? null;
        if (status === SIGNED_LISTING_STATUS.live) live.push(entry);
        // A leaf the market reverts on (`InvalidBulkProof`) is a signature of no tree it can check.
        else if (status === null)
          refuse(entry.index, new ApiError(400, "invalid_signature", m.invalidSignature));
        else notLive.push({ ...entry, status });
      });
      for (let i = 0; i < notLive.length; i += REFUSALS_AT_ONCE) {
        const errors = await Promise.all(
          notLive
            .slice(i, i + REFUSALS_AT_ONCE)
            .map(({ status, order }) => intake.notLive(status, order, block)),
        );
        errors.forEach((error, j) => {
          refuse((notLive[i + j] as (typeof notLive)[number]).index, error);
        });
      }
      const stored: Stored[] = [];
      if (live.length > 0)
        await withProjectionLock(pool, async (client) => {
          const changed: TokenRef[] = [];
          for (const { index, order } of live) {
            // A savepoint per order: one that changed since the check is refused, the others are stored.
            await client.query("SAVEPOINT bulk_order");
            try {
              const leaf = { ...leafOf(index), root: tree.root };
              stored.push(await intake.store(client, order, signature, block, contractSeller, leaf));
              changed.push({ collection: order.collection, tokenId: order.tokenId });
              await client.query("RELEASE SAVEPOINT bulk_order");
            } catch (error) {
              await client.query("ROLLBACK TO SAVEPOINT bulk_order");
              refuse(index, error);
            }
          }
          await reproject(client, changed);
        });
      if (stored.some((s) => s.alerted.length > 0)) app.mail.flush();
      refused.sort((a, b) => a.index - b.index);
      reply.code(201);
      return { data: { stored: stored.map((s) => listingOf(s.row)), refused } };
    },
  );
};
