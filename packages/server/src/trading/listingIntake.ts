/**
 * Taking a signed order into the book: the checks every posted order passes, single (`POST
 * /api/signed-listings`) or from a bulk signature (`POST /api/signed-listings/bulk`), and the insert. The
 * chain decides last (`signedListingStatus`, or `bulkSignedListingStatus` for a leaf of a bulk signature); the
 * checks before it refuse what the database already knows, in the web app's words.
 */
import type { SignedListingOrder, SignedListingStatus } from "@easel/common";
import { MAX_PRICE_WEI, SIGNED_LISTING_STATUS } from "@easel/contracts";
import { easelMarketAbi } from "@easel/contracts/abis";
import { sql } from "drizzle-orm";
import type pg from "pg";
import { BaseError, ContractFunctionRevertedError, formatEther, type PublicClient } from "viem";
import { notifyWatchers } from "../community/notify.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { dateOf } from "../db/timestamps.ts";
import { ApiError } from "../errors.ts";
import { refreshCollectionStats } from "../indexer/stats.ts";
import {
  type BulkLeaf,
  CONTRACT_SELLER_RECHECK,
  chainOrder,
  marketLocked,
  orderOf,
  orderStatus,
  projectSignedListings,
  type TokenRef,
} from "./signedListings.ts";

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
  duplicate: "This work is in the listing twice: only its first order is listed.",
  oneSeller: "Every listing of one signature must be your own: the orders name another seller.",
} as const;

const DAY_S = 86_400;

/** A posted order with its numbers written canonically ("007" and "7" sign the same number). */
export function canonicalOrder(order: SignedListingOrder): SignedListingOrder {
  return {
    ...order,
    collection: order.collection.toLowerCase(),
    seller: order.seller.toLowerCase(),
    tokenId: BigInt(order.tokenId).toString(),
    price: BigInt(order.price).toString(),
    transferCount: BigInt(order.transferCount).toString(),
    counter: BigInt(order.counter).toString(),
    expiresAt: BigInt(order.expiresAt).toString(),
  };
}

/**
 * The first uint256 field of `order` that does not fit one, or null. A price or an expiry that large is refused
 * in words by `precheck` (too big, too far); a tree of orders cannot even be hashed with one (`all`).
 */
export function overflowingField(
  order: SignedListingOrder,
  all = false,
): "tokenId" | "transferCount" | "counter" | "price" | "expiresAt" | null {
  const fields = [
    "tokenId",
    "transferCount",
    "counter",
    ...(all ? (["price", "expiresAt"] as const) : []),
  ] as const;
  for (const field of fields) if (BigInt(order[field]) >= 2n ** 256n) return field;
  return null;
}

/** What the database says of a token about to be listed (null: no such token). */
export type TokenState = { owner: string; status: string; inAuction: boolean; listedOnChain: boolean };

/** A stored order as the routes answer it (the row), and the watchers told of it (mail flushed after commit). */
export type Stored = { row: Record<string, unknown>; alerted: string[] };

/** The checks and the insert of the book's intake, over the API's database and chain. */
export function listingIntake(deps: { db: Database; chain: PublicClient; config: Config }) {
  const { db, chain, config } = deps;
  const market = { address: config.contracts.market as `0x${string}`, abi: easelMarketAbi } as const;
  const m = SIGNED_LISTING_MESSAGES;

  /** The tokens' states, keyed `collection:tokenId` (one query for any number). */
  async function tokenStates(tokens: TokenRef[]): Promise<Map<string, TokenState>> {
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT t.collection, t.token_id::text AS token_id, t.owner, t.status,
        EXISTS (SELECT 1 FROM chain_auctions a WHERE a.collection = t.collection AND a.token_id = t.token_id
          AND a.status = 'active') AS in_auction,
        EXISTS (SELECT 1 FROM chain_sell_orders o WHERE o.collection = t.collection AND o.token_id = t.token_id
          AND o.status = 'active' AND o.expires_at > now()) AS listed_on_chain
      FROM chain_tokens t
      JOIN json_to_recordset(${JSON.stringify(tokens.map((t) => ({ collection: t.collection, token_id: t.tokenId })))}::json)
        AS x(collection text, token_id numeric) ON t.collection = x.collection AND t.token_id = x.token_id`);
    return new Map(
      rows.map((r) => [
        `${r.collection}:${r.token_id}`,
        {
          owner: String(r.owner),
          status: String(r.status),
          inAuction: r.in_auction === true,
          listedOnChain: r.listed_on_chain === true,
        },
      ]),
    );
  }

  /**
   * The checks made before asking the chain (an ApiError for the first that fails): the seller is the
   * signed-in wallet, the price and the expiry (at most 100 days), the token exists, is not in an auction or
   * listed on chain, and is the seller's.
   */
  function precheck(order: SignedListingOrder, sessionAddress: string, token: TokenState | undefined) {
    if (order.seller !== sessionAddress) throw new ApiError(403, "not_seller", m.notSeller);
    if (BigInt(order.price) > MAX_PRICE_WEI) throw badRequest("price_too_high", "price", m.priceTooHigh);
    const now = Math.floor(Date.now() / 1000);
    if (BigInt(order.expiresAt) <= BigInt(now)) throw badRequest("expired", "expiresAt", m.expired);
    if (BigInt(order.expiresAt) > BigInt(now + 100 * DAY_S))
      throw badRequest("expiry_too_far", "expiresAt", m.expiryTooFar);
    if (!token || token.status === "burned") throw new ApiError(404, "not_found", m.itemNotFound);
    if (token.inAuction) throw new ApiError(409, "in_auction", m.inAuction);
    if (token.listedOnChain) throw new ApiError(409, "listed_on_chain", m.listedOnChain);
    if (token.owner !== order.seller) throw new ApiError(403, "not_owner", m.notOwner);
  }

  /** The order's status on chain at the latest block, and that block. */
  async function chainStatus(order: SignedListingOrder, signature: `0x${string}`, bulk: BulkLeaf | null) {
    const block = await chain.getBlockNumber({ cacheTime: 0 });
    const status = await orderStatus(chain, market.address, order, signature, bulk, block);
    return { status, block };
  }

  /**
   * Why the market refuses an order at `block` (`Refused`): a lock (the market's or its entrance's) read from
   * the chain at that block, else as precisely as the stored chain state allows.
   */
  async function refusal(order: SignedListingOrder, block: bigint): Promise<ApiError> {
    if (await marketLocked(chain, config.contracts.market, block))
      return new ApiError(403, "market_locked", m.locked);
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT
        (SELECT banned FROM chain_accounts WHERE address = ${order.seller}) AS banned,
        (SELECT blocked FROM chain_tokens WHERE collection = ${order.collection}
           AND token_id = ${order.tokenId}::numeric) AS token_blocked,
        (SELECT blocked FROM chain_collections WHERE address = ${order.collection}) AS collection_blocked`);
    const row = rows[0] ?? {};
    if (row.banned === true) return new ApiError(403, "banned", m.banned);
    if (row.collection_blocked === true) return new ApiError(403, "collection_blocked", m.collectionBlocked);
    if (row.token_blocked === true) return new ApiError(403, "token_blocked", m.tokenBlocked);
    const { listing: minimum } = await chain.readContract({ ...market, functionName: "minimums" });
    if (BigInt(order.price) < minimum) return badRequest("price_too_low", "price", m.priceMin(minimum));
    return new ApiError(403, "refused", m.refused);
  }

  /** Whether the order's token is in an auction on chain at `block`, the block its status was read at. */
  async function inAuction(order: SignedListingOrder, block: bigint): Promise<boolean> {
    const auction = await chain.readContract({
      ...market,
      functionName: "getAuction",
      args: [order.collection as `0x${string}`, BigInt(order.tokenId)],
      blockNumber: block,
    });
    return auction.kind !== 0;
  }

  /** The clear 4xx for an order the chain does not find live. */
  async function notLive(status: number, order: SignedListingOrder, block: bigint): Promise<ApiError> {
    const S = SIGNED_LISTING_STATUS;
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
        // An auction leaves the token with its seller, locked by its collection: the chain calls every order of
        // it void, which is no change of hands. Said as the check before the chain says it (`precheck`), for an
        // auction the indexer has not seen yet.
        return (await inAuction(order, block))
          ? new ApiError(409, "in_auction", m.inAuction)
          : new ApiError(409, "void", m.void);
      case S.notApproved:
        return new ApiError(409, "not_approved", m.notApproved);
      case S.feeAboveMax:
        // The fee that applies to the sale was raised since the seller signed: only a new signature fits it.
        return new ApiError(409, "fee_above_max", m.feeAboveMax);
      default:
        return refusal(order, block);
    }
  }

  /**
   * The `bulkSignedListingStatus` of each leaf at the latest block, read together (Multicall3's `aggregate3`,
   * deployless where the chain has none): null for a leaf the market reverts on (`InvalidBulkProof`). A failure
   * of the chain itself (a timeout past RPC_TIMEOUT_SECONDS) is thrown, never read as a refusal.
   */
  async function bulkStatuses(
    leaves: { order: SignedListingOrder; bulk: BulkLeaf }[],
    signature: `0x${string}`,
  ) {
    const block = await chain.getBlockNumber({ cacheTime: 0 });
    if (leaves.length === 0) return { statuses: [] as (number | null)[], block };
    const results = await chain.multicall({
      contracts: leaves.map(({ order, bulk }) => ({
        ...market,
        functionName: "bulkSignedListingStatus" as const,
        args: [chainOrder(order), signature, BigInt(bulk.index), bulk.proof] as const,
      })),
      blockNumber: block,
      allowFailure: true,
      // About 20 leaves per call (each ~700 bytes of calldata with a full proof), the calls made at once.
      batchSize: 16_384,
      deployless: !chain.chain?.contracts?.multicall3,
    });
    const statuses = results.map((r) => {
      if (r.status === "success") return Number(r.result);
      const reverted =
        r.error instanceof BaseError && r.error.walk((e) => e instanceof ContractFunctionRevertedError);
      if (!reverted) throw r.error;
      return null;
    });
    return { statuses, block };
  }

  /** Whether `seller` has code (a contract wallet, whose ERC-1271 answers the worker rechecks on a schedule). */
  async function isContract(seller: string) {
    const code = await chain.getCode({ address: seller as `0x${string}` });
    return code !== undefined && code !== "0x";
  }

  /**
   * Stores an order the chain found live at `block`, inside the caller's transaction (which holds the
   * projections' lock); the caller projects the token again (`reproject`). Throws 409 `changed` before writing
   * anything when an event indexed since `block` may void or pause it.
   */
  async function store(
    client: pg.PoolClient,
    order: SignedListingOrder,
    signature: `0x${string}`,
    block: bigint,
    contractSeller: boolean,
    bulk: (BulkLeaf & { root: `0x${string}` }) | null,
  ): Promise<Stored> {
    // Events indexed since that block may already void or pause the order (a move, an auction's lock, which
    // logs no Transfer, a withdrawn approval, a ban, a block, new minimums or fees), and the indexer will not
    // see them again.
    const { rows: moved } = await client.query(
      `SELECT 1 FROM chain_events WHERE block_number > $1 AND (
         (address = $2 AND name IN ('Transfer', 'Approval') AND args->>'id' = $3)
         OR (address = $2 AND name = 'ApprovalForAll' AND args->>'owner' = $5)
         OR (address = $4 AND args->>'collection' = $2 AND args->>'tokenId' = $3
             AND name IN ('SignedListingCancelled', 'SellOrderSet', 'TokenBlocked', 'AuctionCreated',
               'AuctionCancelled'))
         OR (address = $4 AND args->>'collection' = $2 AND name = 'CollectionBlocked')
         OR (address = $4 AND name IN ('MinimumsSet', 'FeesSet'))
         OR (address = $4 AND name = 'ListingCounterIncremented' AND args->>'seller' = $5)
         OR (address = $4 AND name = 'UserBanned' AND args->>'account' = $5)) LIMIT 1`,
      [block.toString(), order.collection, order.tokenId, config.contracts.market, order.seller],
    );
    if (moved.length > 0) throw new ApiError(409, "changed", m.changed);
    // The same signed order posted again (a retry, or the seller showing a hidden one again) is the same
    // row, made the token's active one: the book never holds one signature twice (a bulk signature once per
    // leaf).
    const { rows: again } = await client.query(
      `SELECT id FROM signed_listings WHERE collection = $1 AND token_id = $2::numeric AND seller = $3
         AND signature = $4 AND bulk_index IS NOT DISTINCT FROM $5::integer
         AND status IN ('active', 'hidden', 'paused')`,
      [order.collection, order.tokenId, order.seller, signature, bulk?.index ?? null],
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
      return { row: shown[0] as Record<string, unknown>, alerted: [] };
    }
    const { rows: inserted } = await client.query(
      `INSERT INTO signed_listings
         (collection, token_id, seller, price, transfer_count, counter, expires_at, signature, checked_block,
          contract_seller, recheck_at, max_fee_bps, bulk_index, bulk_proof, bulk_root)
       VALUES ($1, $2::numeric, $3, $4::numeric, $5::numeric, $6::numeric, to_timestamp($7), $8, $9, $10,
         ${recheckAt}, $11, $12, $13::text[], $14)
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
        bulk?.index ?? null,
        bulk ? bulk.proof : null,
        bulk?.root ?? null,
      ],
    );
    // Whoever favourited the item hears of it, as of an on-chain listing (community/notify.ts).
    let alerted: string[] = [];
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
    return { row: inserted[0] as Record<string, unknown>, alerted };
  }

  return { tokenStates, precheck, chainStatus, bulkStatuses, notLive, isContract, store };
}

/** Shows the tokens' best orders on their rows at once, and their collections' floors. */
export async function reproject(client: Parameters<typeof projectSignedListings>[0], tokens: TokenRef[]) {
  if (tokens.length === 0) return;
  await projectSignedListings(client, tokens);
  await refreshCollectionStats(client, [...new Set(tokens.map((t) => t.collection))]);
}

/** A stored row as the API's `SignedListing`. */
export function listingOf(row: Record<string, unknown>) {
  return {
    id: String(row.id),
    order: orderOf(row),
    status: row.status as SignedListingStatus,
    createdAt: dateOf(row.created_at).toISOString(),
  };
}

function badRequest(code: string, field: string, message: string) {
  return new ApiError(400, code, message, { [field]: message });
}
