import {
  apiErrorSchema,
  mySignedListingsResponseSchema,
  type SignedListingPauseReason,
  signedListingFillResponseSchema,
  signedListingInputSchema,
  signedListingResponseSchema,
} from "@easel/common";
import { SIGNED_LISTING_STATUS } from "@easel/contracts";
import { easelMarketAbi } from "@easel/contracts/abis";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { OWNS_NAME, slugOf, tokenName } from "../chain/rows.ts";
import { ApiError } from "../errors.ts";
import { liveSignedOrder } from "../trading/cart.ts";
import {
  canonicalOrder,
  listingIntake,
  listingOf,
  overflowingField,
  reproject,
  SIGNED_LISTING_MESSAGES,
} from "../trading/listingIntake.ts";
import { withProjectionLock } from "../trading/signedListings.ts";
import { badRequest, requireActiveUser, requireSession, walletOrIpKey } from "./guards.ts";
import { signedListingBulkRoutes } from "./signedListingsBulk.ts";

const idParams = z.object({ id: z.uuid() });
const fillQuery = z.object({
  collection: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, "Must be an address")
    .transform((s) => s.toLowerCase()),
  tokenId: z.string().regex(/^\d{1,78}$/, "Must be a whole number"),
});

/**
 * The signed-listing order book (issue 31): sellers post orders they signed (checked on chain first), buyers
 * get the best order of a token rechecked just before they sign the fill, sellers hide theirs and list them.
 */
export const signedListingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, chain, config } = app.deps;
  const market = { address: config.contracts.market as `0x${string}`, abi: easelMarketAbi } as const;
  const pool = db.$client;

  const intake = listingIntake({ db, chain, config });
  await app.register(signedListingBulkRoutes);

  app.post(
    "/",
    {
      config: { rateLimit: { max: 60, timeWindow: "1 minute", keyGenerator: walletOrIpKey(app) } },
      schema: {
        summary:
          "Store a signed listing after checking it on chain (the seller signs in; it replaces their previous order for the token in the book)",
        body: signedListingInputSchema,
        response: {
          201: signedListingResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { session } = await requireActiveUser(app, request);
      const order = canonicalOrder(request.body.order);
      const signature = request.body.signature.toLowerCase() as `0x${string}`;
      const m = SIGNED_LISTING_MESSAGES;
      const overflow = overflowingField(order);
      if (overflow) throw badRequest("invalid_order", overflow, "Must be a uint256");
      if (signature.length % 2 !== 0) throw badRequest("invalid_signature", "signature", m.invalidSignature);
      const tokens = await intake.tokenStates([order]);
      intake.precheck(order, session.address, tokens.get(`${order.collection}:${order.tokenId}`));
      // The chain decides: the signature (ERC-1271 for a contract wallet), the owner, the approval, the transfer
      // count, the counter, the expiry, bans, blocks, the locks, the minimum price and the fee (`maxFeeBps`).
      const [{ status, block }, contractSeller] = await Promise.all([
        intake.chainStatus(order, signature, null),
        // A contract wallet may stop accepting the signature (ERC-1271) without any event: the worker rechecks
        // its orders on a schedule.
        intake.isContract(order.seller),
      ]);
      if (status !== SIGNED_LISTING_STATUS.live) throw await intake.notLive(status, order, block);
      const { row, alerted } = await withProjectionLock(pool, async (client) => {
        const stored = await intake.store(client, order, signature, block, contractSeller, null);
        await reproject(client, [{ collection: order.collection, tokenId: order.tokenId }]);
        return stored;
      });
      if (alerted.length > 0) app.mail.flush();
      reply.code(201);
      return { data: listingOf(row) };
    },
  );

  app.get(
    "/fill",
    {
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
      schema: {
        summary:
          "The token's best signed listing, rechecked on chain just now, with the signature a buyer passes to fillSignedListing",
        querystring: fillQuery,
        response: {
          200: signedListingFillResponseSchema,
          400: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const { collection, tokenId } = request.query;
      // The cart's recheck, at the head: a stale order never reaches a buyer's wallet.
      const block = await chain.getBlockNumber({ cacheTime: 0 });
      const answer = await liveSignedOrder(
        { db, chain, market: market.address },
        { collection, tokenId },
        block,
      );
      if (answer.kind === "live") {
        const { order, signature, bulkIndex, bulkProof } = answer.order;
        return {
          data: {
            id: answer.id,
            order,
            signature,
            // A leaf of a bulk signature is filled with `fillBulkSignedListing`, its index and proof packed with the
            // signature (`packBulkSignature`).
            bulk: bulkProof.length > 0 ? { index: bulkIndex, proof: bulkProof } : null,
          },
        };
      }
      // A market or entrance lock pauses all trading (or every new sale) for a while: the book stays as it is.
      if (answer.kind === "locked") throw new ApiError(403, "market_locked", SIGNED_LISTING_MESSAGES.locked);
      throw new ApiError(404, "not_found", SIGNED_LISTING_MESSAGES.unavailable);
    },
  );

  app.delete(
    "/:id",
    {
      schema: {
        summary:
          "Hide the seller's signed listing in the app at once (it stays valid on chain until cancelled there)",
        params: idParams,
        response: {
          200: signedListingResponseSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request) => {
      // A banned seller may still hide their orders.
      const session = await requireSession(app, request);
      const m = SIGNED_LISTING_MESSAGES;
      const row = await withProjectionLock(pool, async (client) => {
        const { rows } = await client.query("SELECT * FROM signed_listings WHERE id = $1 FOR UPDATE", [
          request.params.id,
        ]);
        const found = rows[0] as Record<string, unknown> | undefined;
        if (!found) throw new ApiError(404, "not_found", m.notFound);
        if (found.seller !== session.address) throw new ApiError(403, "forbidden", m.notYours);
        if (found.status === "hidden") return found;
        // A paused order is off the book already: hiding it keeps it off when its refusal ends.
        if (found.status !== "active" && found.status !== "paused") throw new ApiError(409, "ended", m.ended);
        const { rows: hidden } = await client.query(
          "UPDATE signed_listings SET status = 'hidden', recheck_at = NULL WHERE id = $1 RETURNING *",
          [request.params.id],
        );
        await reproject(client, [{ collection: String(found.collection), tokenId: String(found.token_id) }]);
        return hidden[0] as Record<string, unknown>;
      });
      return { data: listingOf(row) };
    },
  );

  app.get(
    "/mine",
    {
      schema: {
        summary:
          "The signed-in seller's signed listings that can still be filled on chain (active, hidden, and paused while the chain refuses them for now, with why), newest first, and their listing counter",
        response: { 200: mySignedListingsResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const session = await requireSession(app, request);
      const [{ rows }, counter] = await Promise.all([
        db.execute<Record<string, unknown>>(sql`
          SELECT s.*, im.name AS item_name, c.name, c.kind AS collection_kind, c.address,
            coalesce(t.creator, c.owner) AS creator, ${OWNS_NAME}
          FROM signed_listings s
          LEFT JOIN chain_collections c ON c.address = s.collection
          LEFT JOIN chain_tokens t ON t.collection = s.collection AND t.token_id = s.token_id
          LEFT JOIN item_metadata im ON im.cid = t.cid
          WHERE s.seller = ${session.address} AND s.status IN ('active', 'hidden', 'paused')
            AND s.expires_at > now()
          ORDER BY s.created_at DESC, s.id LIMIT 500`),
        chain.readContract({
          ...market,
          functionName: "listingCounterOf",
          args: [session.address as `0x${string}`],
        }),
      ]);
      return {
        data: rows.map((row) => ({
          ...listingOf(row),
          name:
            (row.item_name as string | null) ??
            tokenName((row.name as string | null) ?? null, String(row.token_id)),
          path: itemPath(row),
          pausedReason: (row.paused_reason as SignedListingPauseReason | null) ?? null,
        })),
        counter: counter.toString(),
      };
    },
  );
};

/** An item's page path, as the web app routes it (null when its collection is unknown). */
function itemPath(row: Record<string, unknown>): string | null {
  if (row.address == null || row.creator == null) return null;
  const creator = String(row.creator);
  if (row.collection_kind === "default") return `/${creator}/${row.token_id}`;
  return `/${creator}/${encodeURIComponent(slugOf(row))}/${row.token_id}`;
}
