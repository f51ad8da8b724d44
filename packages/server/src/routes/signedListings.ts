import {
  apiErrorSchema,
  mySignedListingsResponseSchema,
  type SignedListingOrder,
  type SignedListingPauseReason,
  type SignedListingStatus,
  signedListingFillResponseSchema,
  signedListingInputSchema,
  signedListingResponseSchema,
} from "@easel/common";
import { MAX_PRICE_WEI, SIGNED_LISTING_STATUS } from "@easel/contracts";
import { easelMarketAbi } from "@easel/contracts/abis";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { formatEther } from "viem";
import { z } from "zod";
import { OWNS_NAME, slugOf, tokenName } from "../chain/rows.ts";
import { notifyWatchers } from "../community/notify.ts";
import { dateOf } from "../db/timestamps.ts";
import { ApiError } from "../errors.ts";
import { refreshCollectionStats } from "../indexer/stats.ts";
import {
  applyVerdict,
  CONTRACT_SELLER_RECHECK,
  chainOrder,
  marketLocked,
  orderOf,
  projectSignedListings,
  verdictOf,
  withProjectionLock,
} from "../trading/signedListings.ts";
import { badRequest, requireActiveUser, requireSession, walletOrIpKey } from "./guards.ts";

/** What the API answers for each order `signedListingStatus` refuses (the wording of the web app's errors). */
export const SIGNED_LISTING_MESSAGES = {
  notSeller: "You can only list from your signed-in wallet: the order's seller must be your address.",
  notOwner: "Only the owner of this item can list it.",
  itemNotFound: "Item not found",
  inAuction: "This item is in an auction: it cannot be listed until the auction ends.",
  listedOnChain:
    "This item is already listed on chain: cancel that listing (or change its price) instead of signing another.",
  invalidSignature: "This listing's signature is not the seller's.",
  expired: "This listing has expired.",
  expiryTooFar: "A listing can last at most 100 days.",
  counterIncremented:
    "You cancelled all your listings since signing this one (your listing counter moved on): sign it again.",
  void: "This listing is no longer valid: the item changed hands since it was signed.",
  notApproved: "Easel's market is not approved to transfer this item yet.",
  locked: "The market is locked: trading is paused for now.",
  feeAboveMax:
    "The market's fee is now higher than the most this listing accepts: sign it again with the current fee.",
  banned: "This account is banned from trading on Easel.",
  tokenBlocked: "This item is blocked on Easel.",
  collectionBlocked: "This collection is blocked on Easel.",
  priceMin: (min: bigint) => `Price must be at least ${formatEther(min)} ETH.`,
  priceTooHigh: "The sale price is too big.",
  refused: "The market refuses this listing now.",
  changed: "The item changed while it was being listed: please sign the listing again.",
  unavailable: "This listing is no longer available.",
  notFound: "Listing not found.",
  notYours: "Only the seller can hide this listing.",
  ended: "This listing has already ended.",
} as const;

const DAY_S = 86_400;
/** How many stale orders one fill request retires before giving up (the next request goes on). */
const FILL_RECHECKS = 10;

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

  /** The order's status on chain at the latest block, and that block. */
  async function chainStatus(order: SignedListingOrder, signature: `0x${string}`) {
    const block = await chain.getBlockNumber({ cacheTime: 0 });
    const status = await chain.readContract({
      ...market,
      functionName: "signedListingStatus",
      args: [chainOrder(order), signature],
      blockNumber: block,
    });
    return { status: Number(status), block };
  }

  /**
   * Why the market refuses an order at `block` (`Refused`): a lock (the market's or its entrance's) read from
   * the chain at that block, else as precisely as the stored chain state allows.
   */
  async function refusal(order: SignedListingOrder, block: bigint): Promise<ApiError> {
    if (await marketLocked(chain, config.contracts.market, block))
      return new ApiError(403, "market_locked", SIGNED_LISTING_MESSAGES.locked);
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT
        (SELECT banned FROM chain_accounts WHERE address = ${order.seller}) AS banned,
        (SELECT blocked FROM chain_tokens WHERE collection = ${order.collection}
           AND token_id = ${order.tokenId}::numeric) AS token_blocked,
        (SELECT blocked FROM chain_collections WHERE address = ${order.collection}) AS collection_blocked`);
    const row = rows[0] ?? {};
    if (row.banned === true) return new ApiError(403, "banned", SIGNED_LISTING_MESSAGES.banned);
    if (row.collection_blocked === true)
      return new ApiError(403, "collection_blocked", SIGNED_LISTING_MESSAGES.collectionBlocked);
    if (row.token_blocked === true)
      return new ApiError(403, "token_blocked", SIGNED_LISTING_MESSAGES.tokenBlocked);
    const { listing: minimum } = await chain.readContract({ ...market, functionName: "minimums" });
    if (BigInt(order.price) < minimum)
      return badRequest("price_too_low", "price", SIGNED_LISTING_MESSAGES.priceMin(minimum));
    return new ApiError(403, "refused", SIGNED_LISTING_MESSAGES.refused);
  }

  /** The clear 4xx for an order the chain does not find live. */
  async function notLive(status: number, order: SignedListingOrder, block: bigint): Promise<ApiError> {
    const S = SIGNED_LISTING_STATUS;
    const m = SIGNED_LISTING_MESSAGES;
    switch (status) {
      case S.invalidSignature:
        return badRequest("invalid_signature", "signature", m.invalidSignature);
      case S.expired:
        return badRequest("expired", "expiresAt", m.expired);
      case S.notYetValid:
        return badRequest("expiry_too_far", "expiresAt", m.expiryTooFar);
      case S.counterIncremented:
        return new ApiError(409, "counter_incremented", m.counterIncremented);
      case S.void:
        return new ApiError(409, "void", m.void);
      case S.notApproved:
        return new ApiError(409, "not_approved", m.notApproved);
      case S.feeAboveMax:
        // The fee that applies to the sale was raised since the seller signed: only a new signature fits it.
        return new ApiError(409, "fee_above_max", m.feeAboveMax);
      default:
        return refusal(order, block);
    }
  }

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
      const order: SignedListingOrder = {
        ...request.body.order,
        collection: request.body.order.collection.toLowerCase(),
        seller: request.body.order.seller.toLowerCase(),
        // Canonical decimals ("007" and "7" sign the same number).
        tokenId: BigInt(request.body.order.tokenId).toString(),
        price: BigInt(request.body.order.price).toString(),
        transferCount: BigInt(request.body.order.transferCount).toString(),
        counter: BigInt(request.body.order.counter).toString(),
        expiresAt: BigInt(request.body.order.expiresAt).toString(),
      };
      const signature = request.body.signature.toLowerCase() as `0x${string}`;
      const m = SIGNED_LISTING_MESSAGES;
      for (const field of ["tokenId", "transferCount", "counter"] as const)
        if (BigInt(order[field]) >= 2n ** 256n) throw badRequest("invalid_order", field, "Must be a uint256");
      if (signature.length % 2 !== 0) throw badRequest("invalid_signature", "signature", m.invalidSignature);
      if (order.seller !== session.address) throw new ApiError(403, "not_seller", m.notSeller);
      if (BigInt(order.price) > MAX_PRICE_WEI) throw badRequest("price_too_high", "price", m.priceTooHigh);
      const now = Math.floor(Date.now() / 1000);
      if (BigInt(order.expiresAt) <= BigInt(now)) throw badRequest("expired", "expiresAt", m.expired);
      if (BigInt(order.expiresAt) > BigInt(now + 100 * DAY_S))
        throw badRequest("expiry_too_far", "expiresAt", m.expiryTooFar);
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT t.owner, t.status,
          EXISTS (SELECT 1 FROM chain_auctions a WHERE a.collection = t.collection AND a.token_id = t.token_id
            AND a.status = 'active') AS in_auction,
          EXISTS (SELECT 1 FROM chain_sell_orders o WHERE o.collection = t.collection AND o.token_id = t.token_id
            AND o.status = 'active' AND o.expires_at > now()) AS listed_on_chain
        FROM chain_tokens t WHERE t.collection = ${order.collection} AND t.token_id = ${order.tokenId}::numeric`);
      const token = rows[0];
      if (!token || token.status === "burned") throw new ApiError(404, "not_found", m.itemNotFound);
      if (token.in_auction === true) throw new ApiError(409, "in_auction", m.inAuction);
      if (token.listed_on_chain === true) throw new ApiError(409, "listed_on_chain", m.listedOnChain);
      if (token.owner !== order.seller) throw new ApiError(403, "not_owner", m.notOwner);
      // The chain decides: the signature (ERC-1271 for a contract wallet), the owner, the approval, the transfer
      // count, the counter, the expiry, bans, blocks, the locks, the minimum price and the fee (`maxFeeBps`).
      const [{ status, block }, code] = await Promise.all([
        chainStatus(order, signature),
        chain.getCode({ address: order.seller as `0x${string}` }),
      ]);
      if (status !== SIGNED_LISTING_STATUS.live) throw await notLive(status, order, block);
      // A contract wallet may stop accepting the signature (ERC-1271) without any event: the worker rechecks
      // its orders on a schedule.
      const contractSeller = code !== undefined && code !== "0x";
      // Who was told of the listing by a watch alert: their mail goes out once the transaction commits.
      let alerted: string[] = [];
      const row = await withProjectionLock(pool, async (client) => {
        // Events indexed since that block may already void or pause the order (a withdrawn approval, a ban, a
        // block, new minimums or fees), and the indexer will not see them again.
        const { rows: moved } = await client.query(
          `SELECT 1 FROM chain_events WHERE block_number > $1 AND (
             (address = $2 AND name IN ('Transfer', 'Approval') AND args->>'id' = $3)
             OR (address = $2 AND name = 'ApprovalForAll' AND args->>'owner' = $5)
             OR (address = $4 AND args->>'collection' = $2 AND args->>'tokenId' = $3
                 AND name IN ('SignedListingCancelled', 'SellOrderSet', 'TokenBlocked'))
             OR (address = $4 AND args->>'collection' = $2 AND name = 'CollectionBlocked')
             OR (address = $4 AND name IN ('MinimumsSet', 'FeesSet'))
             OR (address = $4 AND name = 'ListingCounterIncremented' AND args->>'seller' = $5)
             OR (address = $4 AND name = 'UserBanned' AND args->>'account' = $5)) LIMIT 1`,
          [block.toString(), order.collection, order.tokenId, config.contracts.market, order.seller],
        );
        if (moved.length > 0) throw new ApiError(409, "changed", m.changed);
        // The same signed order posted again (a retry, or the seller showing a hidden one again) is the same
        // row, made the token's active one: the book never holds one signature twice.
        const { rows: again } = await client.query(
          `SELECT id FROM signed_listings WHERE collection = $1 AND token_id = $2::numeric AND seller = $3
             AND signature = $4 AND status IN ('active', 'hidden', 'paused')`,
          [order.collection, order.tokenId, order.seller, signature],
        );
        const sameId = (again[0]?.id as string | undefined) ?? null;
        // What the token's watchers saw before: not for sale, or on sale at another price.
        const { rows: before } = await client.query<{ price: string }>(
          `SELECT price::text AS price FROM signed_listings
           WHERE collection = $1 AND token_id = $2::numeric AND status = 'active' ORDER BY price LIMIT 1`,
          [order.collection, order.tokenId],
        );
        // One order per seller and token in the book: the previous one is hidden, but it stays valid on chain
        // until the seller cancels it (`cancelSignedListing`) or bumps their counter.
        // A paused one too, or it would come back beside the new one when its refusal ends.
        await client.query(
          `UPDATE signed_listings SET status = 'hidden', recheck_at = NULL
           WHERE collection = $1 AND token_id = $2::numeric AND seller = $3 AND status IN ('active', 'paused')
             AND id IS DISTINCT FROM $4::uuid`,
          [order.collection, order.tokenId, order.seller, sameId],
        );
        const recheckAt = contractSeller ? `now() + interval '${CONTRACT_SELLER_RECHECK}'` : "NULL";
        if (sameId) {
          // Live at `block`: whatever refused it before has ended.
          const { rows: shown } = await client.query(
            `UPDATE signed_listings SET status = 'active', paused_reason = NULL, paused_block = NULL,
               checked_block = greatest(checked_block, $2::bigint), contract_seller = $3,
               recheck_at = ${recheckAt}
             WHERE id = $1 RETURNING *`,
            [sameId, block.toString(), contractSeller],
          );
          await reproject(client, order.collection, order.tokenId);
          return shown[0] as Record<string, unknown>;
        }
        const { rows: inserted } = await client.query(
          `INSERT INTO signed_listings
             (collection, token_id, seller, price, transfer_count, counter, expires_at, signature, checked_block,
              contract_seller, recheck_at, max_fee_bps)
           VALUES ($1, $2::numeric, $3, $4::numeric, $5::numeric, $6::numeric, to_timestamp($7), $8, $9, $10,
             ${recheckAt}, $11)
           RETURNING *`,
          [
            order.collection,
            order.tokenId,
            order.seller,
            order.price,
            order.transferCount,
            order.counter,
            Number(order.expiresAt),
            signature,
            block.toString(),
            contractSeller,
            order.maxFeeBps,
          ],
        );
        await reproject(client, order.collection, order.tokenId);
        // Whoever favourited the item hears of it, as of an on-chain listing (community/notify.ts).
        const was = before[0]?.price;
        if (was !== order.price) {
          const price = `${formatEther(BigInt(order.price))} ETH`;
          alerted = await notifyWatchers(client, {
            collection: order.collection,
            tokenId: order.tokenId,
            kind: was === undefined ? "watch_listed" : "watch_price",
            key: `signed:${String(inserted[0]?.id)}`,
            message:
              was === undefined
                ? (item) => `${item}, which you favourited, was listed for ${price}.`
                : (item) => `The price of ${item}, which you favourited, is now ${price}.`,
            except: [order.seller],
            data: { price: order.price },
          });
        }
        return inserted[0] as Record<string, unknown>;
      });
      if (alerted.length > 0) app.mail.flush();
      reply.code(201);
      return { data: toListing(row) };
    },
  );

  /** Shows the token's best order on its row at once, and the collection's floor. */
  async function reproject(
    client: Parameters<typeof projectSignedListings>[0],
    collection: string,
    tokenId: string,
  ) {
    await projectSignedListings(client, [{ collection, tokenId }]);
    await refreshCollectionStats(client, [collection]);
  }

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
      for (let i = 0; i < FILL_RECHECKS; i++) {
        // Only orders in the book: a hidden or paused order's signature is its seller's alone (a stranger
        // holding it could fill it the moment a passing refusal ends, at a price its seller forgot).
        const { rows } = await db.execute<Record<string, unknown>>(sql`
          SELECT * FROM signed_listings
          WHERE collection = ${collection} AND token_id = ${tokenId}::numeric AND status = 'active'
          ORDER BY price, created_at, id LIMIT 1`);
        const row = rows[0];
        if (!row) break;
        const order = orderOf(row);
        const signature = String(row.signature) as `0x${string}`;
        const { status, block } = await chainStatus(order, signature);
        const verdict = await verdictOf(chain, config.contracts.market, order, status, block);
        if (verdict.kind === "live") return { data: { id: String(row.id), order, signature } };
        // A market or entrance lock pauses all trading (or every new sale) for a while: the book stays as it is.
        if (verdict.kind === "locked")
          throw new ApiError(403, "market_locked", SIGNED_LISTING_MESSAGES.locked);
        // A stale order never reaches a buyer's wallet: an order the chain can never fill leaves the book, one
        // it refuses for now is paused (off the book, still on its seller's Manage); the next one is tried.
        await withProjectionLock(pool, async (client) => {
          if (await applyVerdict(client, String(row.id), "active", verdict, block))
            await reproject(client, collection, tokenId);
        });
      }
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
        await reproject(client, String(found.collection), String(found.token_id));
        return hidden[0] as Record<string, unknown>;
      });
      return { data: toListing(row) };
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
          ...toListing(row),
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

function toListing(row: Record<string, unknown>) {
  return {
    id: String(row.id),
    order: orderOf(row),
    status: row.status as SignedListingStatus,
    createdAt: dateOf(row.created_at).toISOString(),
  };
}
