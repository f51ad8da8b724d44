/**
 * The signed-listing order book beside the chain's projections. An order lives in `signed_listings` (app
 * data: the chain never sees it until it is filled); the best active order of a token is projected onto its
 * `chain_tokens` row (status 'fix', price, listing_expires_at, listed_at) when the token has no live on-chain
 * listing and no auction, so every browse query, sort and index that reads a listing from the token row shows
 * it unchanged. One function (`projectSignedListings`) writes that projection, for the API's routes and for
 * the indexer; both take `lockProjections` first (see docs/architecture.md, "Signed listings").
 */
import type { SignedListingOrder, SignedListingPauseReason, SignedListingStatus } from "@easel/common";
import { MAX_PRICE_WEI, SIGNED_LISTING_STATUS } from "@easel/contracts";
import { easelMarketAbi } from "@easel/contracts/abis";
import type pg from "pg";
import type { PublicClient } from "viem";
import { dateOf } from "../db/timestamps.ts";
import type { Runner } from "../indexer/store.ts";

/**
 * The transaction-scoped advisory lock that serialises writes of the token rows between the indexer's batches
 * and the API's order book (`pg_advisory_xact_lock`): the indexer writes whole token rows from what it loaded
 * at the start of its batch, so a projection written by the API in between would be lost.
 */
const PROJECTION_LOCK = 7_238_004_131n;

export async function lockProjections(client: Runner): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock($1)", [PROJECTION_LOCK.toString()]);
}

export type TokenRef = { collection: string; tokenId: string };

/**
 * (Re)projects the book onto the token rows of `tokens` ("all": every token with an active order or showing a
 * fixed price without an on-chain listing, after a rebuild or a reorg): a token with no auction and no live
 * on-chain listing shows its best active order (lowest price, then oldest), or no listing when it has none.
 * A token with an on-chain listing keeps it (the indexer owns that); one in an auction or burned loses only
 * a signed order's end. Returns the collections whose tokens
 * changed (their floor must be recomputed).
 */
export async function projectSignedListings(client: Runner, tokens: TokenRef[] | "all"): Promise<string[]> {
  if (tokens !== "all" && tokens.length === 0) return [];
  const target =
    tokens === "all"
      ? `SELECT collection, token_id FROM signed_listings WHERE status = 'active'
         UNION SELECT collection, token_id FROM chain_tokens WHERE status = 'fix'`
      : // Only tokens the book ever held: the others are the indexer's alone.
        `SELECT DISTINCT collection, token_id FROM json_to_recordset($1::json) AS x(collection text, token_id numeric)
         WHERE EXISTS (SELECT 1 FROM signed_listings s WHERE s.collection = x.collection AND s.token_id = x.token_id)`;
  const { rows } = await client.query<{ collection: string }>(
    `WITH target AS (${target}),
     best AS (
       SELECT DISTINCT ON (s.collection, s.token_id) s.collection, s.token_id, s.price, s.expires_at, s.created_at
       FROM signed_listings s JOIN target x ON x.collection = s.collection AND x.token_id = s.token_id
       WHERE s.status = 'active' AND s.expires_at > now()
       ORDER BY s.collection, s.token_id, s.price, s.created_at, s.id),
     -- A token in an auction or burned keeps its row, except a signed order's end (the auction's lock or the
     -- burn voided the orders); any on-chain listing (even lapsed) is the indexer's to show.
     next AS (
       SELECT t.collection, t.token_id,
         CASE WHEN NOT y.open THEN t.status WHEN b.price IS NOT NULL THEN 'fix'
              WHEN t.status = 'fix' THEN 'minted' ELSE t.status END AS status,
         CASE WHEN y.open THEN b.price ELSE t.price END AS price,
         CASE WHEN y.open THEN b.expires_at END AS expires_at,
         CASE WHEN y.open THEN b.created_at ELSE t.listed_at END AS created_at
       FROM target x JOIN chain_tokens t ON t.collection = x.collection AND t.token_id = x.token_id
       CROSS JOIN LATERAL (SELECT t.status IN ('minted', 'fix', 'lazy-sold') AS open) y
       LEFT JOIN best b ON b.collection = t.collection AND b.token_id = t.token_id
       WHERE NOT EXISTS (SELECT 1 FROM chain_sell_orders o
         WHERE o.collection = t.collection AND o.token_id = t.token_id AND o.status = 'active'
           AND (o.expires_at > now() OR b.price IS NULL)))
     UPDATE chain_tokens t SET status = n.status, price = n.price, listing_expires_at = n.expires_at,
       listed_at = n.created_at
     FROM next n
     WHERE t.collection = n.collection AND t.token_id = n.token_id
       AND (t.status, t.price, t.listing_expires_at, t.listed_at)
         IS DISTINCT FROM (n.status, n.price, n.expires_at, n.created_at)
     RETURNING t.collection`,
    tokens === "all"
      ? []
      : [JSON.stringify(tokens.map((t) => ({ collection: t.collection, token_id: t.tokenId })))],
  );
  return [...new Set(rows.map((r) => r.collection))];
}

/**
 * What a recheck of an order on chain found:
 * - live: fillable now.
 * - final: the chain can never fill it (`expired`, `bumped`, `void`): it leaves the book for good.
 * - locked: the market or its entrance is locked (a pause of all trading, or of every new sale: signed fills
 *   included): nothing in the book changes.
 * - paused: refused for now, for `reason`, and fillable again once that ends: off the book, on Manage.
 */
export type Verdict =
  | { kind: "live" }
  | { kind: "final"; status: Extract<SignedListingStatus, "expired" | "bumped" | "void"> }
  | { kind: "locked" }
  | { kind: "paused"; reason: SignedListingPauseReason };

/**
 * Whether the market refuses every signed-listing fill at `block` (the latest when omitted) whatever the order:
 * the market lock (`setMarketLocked`) or the entrance lock (`setEntranceLocked`, which refuses fills with
 * `MarketEntranceIsLocked`), both in `config()`. During either the book changes nothing: `verdictOf`, the
 * worker's recheck and the routes' refusals all ask here.
 */
export async function marketLocked(chain: PublicClient, market: string, block?: bigint): Promise<boolean> {
  const config = await chain.readContract({
    address: market as `0x${string}`,
    abi: easelMarketAbi,
    functionName: "config",
    ...(block === undefined ? {} : { blockNumber: block }),
  });
  return config.locked || config.entranceLocked;
}

/**
 * The verdict on an order whose `signedListingStatus` at `block` was `status`. Only the expiry, the seller's
 * counter and the token's transfer count end an order for good (each only moves one way); a refusal is looked
 * into at the same block to say which passing state it is (and a lock changes nothing).
 */
export async function verdictOf(
  chain: PublicClient,
  market: string,
  order: SignedListingOrder,
  status: number,
  block: bigint,
): Promise<Verdict> {
  const S = SIGNED_LISTING_STATUS;
  switch (status) {
    case S.live:
      return { kind: "live" };
    case S.expired:
      return { kind: "final", status: "expired" };
    case S.counterIncremented:
      return { kind: "final", status: "bumped" };
    case S.void:
      return { kind: "final", status: "void" };
    case S.notApproved:
      return { kind: "paused", reason: "notApproved" };
    case S.invalidSignature:
      // Checked when it was posted: a signature that no longer passes is a contract wallet's ERC-1271 answer
      // (or an account's code) changing, which may change back.
      return { kind: "paused", reason: "signature" };
    case S.feeAboveMax:
      // The fee that applies to the sale (primary commission or secondary fee) was raised above the order's
      // `maxFeeBps`; the chain answers it only when nothing else refuses the order (no lock either).
      return { kind: "paused", reason: "fee" };
  }
  const at = { address: market as `0x${string}`, abi: easelMarketAbi, blockNumber: block } as const;
  const collection = order.collection as `0x${string}`;
  const [locked, banned, collectionBlocked, tokenBlocked, minimums] = await Promise.all([
    marketLocked(chain, market, block),
    chain.readContract({ ...at, functionName: "isBanned", args: [order.seller as `0x${string}`] }),
    chain.readContract({ ...at, functionName: "isCollectionBlocked", args: [collection] }),
    chain.readContract({ ...at, functionName: "isTokenBlocked", args: [collection, BigInt(order.tokenId)] }),
    chain.readContract({ ...at, functionName: "minimums" }),
  ]);
  if (locked) return { kind: "locked" };
  if (banned) return { kind: "paused", reason: "banned" };
  if (collectionBlocked) return { kind: "paused", reason: "collectionBlocked" };
  if (tokenBlocked) return { kind: "paused", reason: "tokenBlocked" };
  const price = BigInt(order.price);
  if (price < minimums.listing) return { kind: "paused", reason: "priceMin" };
  // Above the largest price (refused when posted) or an expiry too far (it only comes nearer).
  if (price > MAX_PRICE_WEI) return { kind: "final", status: "void" };
  return { kind: "paused", reason: "refused" };
}

/** How long a paused order waits for its next recheck when no event says its refusal may have ended. */
export const PAUSED_RECHECK = "2 minutes";
/** How often the active orders of contract-wallet sellers are rechecked (ERC-1271 answers have no event). */
export const CONTRACT_SELLER_RECHECK = "30 seconds";

/**
 * Applies a recheck's verdict on the order `id` found `from` (its status when read) at `block`, under the
 * projections' lock; returns whether the book changed (the caller projects the token again). Guards: the row
 * must still be in the status it was read in, a live verdict brings back only an order paused at or before
 * `block`, and a lock changes nothing.
 */
export async function applyVerdict(
  client: Runner,
  id: string,
  from: "active" | "paused",
  verdict: Verdict,
  block: bigint,
  /** The row's `recheck_at` when read (as text, exact): a newer one (an event asked since) is kept. */
  readRecheckAt: string | null = null,
): Promise<boolean> {
  const b = block.toString();
  let result: { rowCount: number | null };
  if (verdict.kind === "locked") return false;
  if (verdict.kind === "final") {
    result = await client.query(
      "UPDATE signed_listings SET status = $3, ended_at = now(), recheck_at = NULL WHERE id = $1 AND status = $2",
      [id, from, verdict.status],
    );
  } else if (verdict.kind === "paused") {
    // A paused order is rechecked later; one paused just now leaves the book.
    result = await client.query(
      `UPDATE signed_listings SET status = 'paused', paused_reason = $3,
         paused_block = greatest(coalesce(paused_block, 0), $4::bigint),
         recheck_at = CASE WHEN $2 = 'paused' AND recheck_at IS DISTINCT FROM $5::timestamptz THEN recheck_at
                           ELSE now() + interval '${PAUSED_RECHECK}' END
       WHERE id = $1 AND status = $2`,
      [id, from, verdict.reason, b, readRecheckAt],
    );
    return from === "active" && (result.rowCount ?? 0) > 0;
  } else if (from === "paused") {
    // Live again: back in the book, unless the refusal seen was later than this check.
    result = await client.query(
      `UPDATE signed_listings SET status = 'active', paused_reason = NULL, paused_block = NULL,
         checked_block = greatest(checked_block, $2::bigint),
         recheck_at = CASE WHEN contract_seller THEN now() + interval '${CONTRACT_SELLER_RECHECK}' END
       WHERE id = $1 AND status = 'paused' AND coalesce(paused_block, 0) <= $2::bigint`,
      [id, b],
    );
  } else {
    // Still live: a contract wallet's order is rechecked again later, any other's only after an event.
    await client.query(
      `UPDATE signed_listings
       SET recheck_at = CASE WHEN contract_seller THEN now() + interval '${CONTRACT_SELLER_RECHECK}' END
       WHERE id = $1 AND status = 'active'`,
      [id],
    );
    return false;
  }
  return (result.rowCount ?? 0) > 0;
}

/** A stored row as the API's order (every uint256 a decimal string, the expiry in unix seconds). */
export function orderOf(row: Record<string, unknown>): SignedListingOrder {
  return {
    collection: String(row.collection),
    tokenId: String(row.token_id),
    price: String(row.price),
    seller: String(row.seller),
    transferCount: String(row.transfer_count),
    counter: String(row.counter),
    expiresAt: String(Math.floor(dateOf(row.expires_at).getTime() / 1000)),
    maxFeeBps: Number(row.max_fee_bps),
  };
}

/** An order as `signedListingStatus` and `fillSignedListing` take it. */
export function chainOrder(order: SignedListingOrder) {
  return {
    collection: order.collection as `0x${string}`,
    tokenId: BigInt(order.tokenId),
    price: BigInt(order.price),
    seller: order.seller as `0x${string}`,
    transferCount: BigInt(order.transferCount),
    counter: BigInt(order.counter),
    expiresAt: BigInt(order.expiresAt),
    maxFeeBps: order.maxFeeBps,
  };
}

/** Where an order from a bulk signature sits in its tree: its leaf index and proof (null for a single order). */
export type BulkLeaf = { index: number; proof: `0x${string}`[] };

/** A stored row's bulk leaf, or null for a single signed listing. */
export function bulkOf(row: Record<string, unknown>): BulkLeaf | null {
  if (row.bulk_index === null || row.bulk_index === undefined) return null;
  return { index: Number(row.bulk_index), proof: (row.bulk_proof as `0x${string}`[] | null) ?? [] };
}

/**
 * The order's `signedListingStatus` at `block`, or `bulkSignedListingStatus` for an order from a bulk signature
 * (its leaf index and proof): every recheck of a stored order asks here.
 */
export async function orderStatus(
  chain: PublicClient,
  market: string,
  order: SignedListingOrder,
  signature: `0x${string}`,
  bulk: BulkLeaf | null,
  block: bigint,
): Promise<number> {
  const at = { address: market as `0x${string}`, abi: easelMarketAbi, blockNumber: block } as const;
  const status = bulk
    ? await chain.readContract({
        ...at,
        functionName: "bulkSignedListingStatus",
        args: [chainOrder(order), signature, BigInt(bulk.index), bulk.proof],
      })
    : await chain.readContract({
        ...at,
        functionName: "signedListingStatus",
        args: [chainOrder(order), signature],
      });
  return Number(status);
}

/**
 * A change the indexer makes to the book for one event, in chain order (see `retireSignedListings`).
 * `block` guards replays: an order checked live at or after the event's block is not the event's to retire.
 * - transfer: any transfer of the token (a sale, a fill, a burn, a gift), or what the collection counts as one
 *   without moving it (`AuctionCreated`: the auction's lock; `AuctionCancelled`: its release): its orders no
 *   longer hold.
 * - fill: `Sale` mechanism signed-listing, the order the buyer filled (the fill's transfer voided it just before).
 * - cancel: `SignedListingCancelled`, every order of the token naming a lower transfer count.
 * - bump: `ListingCounterIncremented`, every order of the seller naming a lower counter.
 * - listed: `SellOrderSet`, the on-chain listing shows; the signed ones are hidden (still valid on chain).
 * - refuse / allow: an event that makes the chain refuse orders for now (`ApprovalForAll(seller, market,
 *   false)`, a token approval given to another account, a ban, a block, a raised minimum) or that may end such
 *   a refusal (the approval given again, the ban or block lifted, a lowered minimum). `refuse` pauses the
 *   matching active orders at once (off the book and the floor within the batch, still on Manage), `allow` asks
 *   the worker to recheck the matching paused orders now (it alone can tell whether nothing else refuses them).
 *   A `refuse` may overreach (a token approval beside an approval for all): the recheck it asks for brings
 *   such orders back. New fees (`FeesSet`) refuse the orders whose `maxFeeBps` is under both fees, and
 *   allow those paused for the fee.
 * - recheck: the worker rechecks the matching active orders now (new fees: an order whose `maxFeeBps` is
 *   under one of them is refused only if that fee is the one its token's next sale pays, which the chain
 *   alone says).
 */
export type RefusalScope =
  | { seller: string; collection: string }
  | { seller: string }
  | { collection: string; tokenId: string }
  | { collection: string }
  | { belowPrice: string }
  | { feeAbove: string }
  | { all: true };
export type BookChange = { block: string; tx: string; time: string } & (
  | { kind: "transfer"; collection: string; tokenId: string }
  | { kind: "fill"; collection: string; tokenId: string; seller: string; price: string }
  | { kind: "cancel"; collection: string; tokenId: string; transferCount: string }
  | { kind: "bump"; seller: string; counter: string }
  | { kind: "listed"; collection: string; tokenId: string }
  | { kind: "refuse"; scope: RefusalScope; reason: SignedListingPauseReason }
  | { kind: "allow"; scope: RefusalScope; reason: SignedListingPauseReason }
  | { kind: "recheck"; scope: RefusalScope }
);

/** The SQL condition (on signed_listings) of a refusal's scope, its values numbered from `$first`. */
function scopeSql(scope: RefusalScope, first: number): { where: string; values: string[] } {
  if ("all" in scope) return { where: "TRUE", values: [] };
  if ("belowPrice" in scope) return { where: `price < $${first}::numeric`, values: [scope.belowPrice] };
  // Orders accepting less than the fee (`maxFeeBps` under it).
  if ("feeAbove" in scope) return { where: `max_fee_bps < $${first}::integer`, values: [scope.feeAbove] };
  if ("tokenId" in scope)
    return {
      where: `collection = $${first} AND token_id = $${first + 1}::numeric`,
      values: [scope.collection, scope.tokenId],
    };
  if ("seller" in scope && "collection" in scope)
    return {
      where: `seller = $${first} AND collection = $${first + 1}`,
      values: [scope.seller, scope.collection],
    };
  if ("seller" in scope) return { where: `seller = $${first}`, values: [scope.seller] };
  return { where: `collection = $${first}`, values: [scope.collection] };
}

/** The key `retireSignedListings` looks a change up by (a token, a seller, a collection, or every order). */
function changeKey(c: BookChange): string {
  if (c.kind === "bump") return `seller:${c.seller}`;
  if (c.kind === "refuse" || c.kind === "allow" || c.kind === "recheck") {
    const scope = c.scope;
    if ("all" in scope || "belowPrice" in scope || "feeAbove" in scope) return "all";
    if ("tokenId" in scope) return `${scope.collection}:${scope.tokenId}`;
    if ("seller" in scope) return `seller:${scope.seller}`;
    return `collection:${scope.collection}`;
  }
  return `${c.collection}:${c.tokenId}`;
}

/**
 * Applies the indexer's changes to the book, in order, inside the batch's transaction (after
 * `lockProjections`); returns the tokens whose orders changed, to project again, or null when no change
 * concerns a live order (a backfill's usual case: then nothing else is read).
 */
export async function retireSignedListings(
  client: Runner,
  changes: BookChange[],
): Promise<TokenRef[] | null> {
  // Only the changes that find a live order run (one statement each): a backfill's transfers read once.
  const keys = changes.map(changeKey);
  const tokens = keys.flatMap((k) => {
    if (k === "all" || k.startsWith("seller:") || k.startsWith("collection:")) return [];
    const [collection, tokenId] = k.split(":") as [string, string];
    return [{ collection, token_id: tokenId }];
  });
  const prefixed = (prefix: string) =>
    keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  const { rows: live } = await client.query<{ key: string }>(
    `SELECT DISTINCT s.collection || ':' || s.token_id AS key FROM signed_listings s
     JOIN json_to_recordset($1::json) AS x(collection text, token_id numeric)
       ON s.collection = x.collection AND s.token_id = x.token_id
     WHERE s.status IN ('active', 'hidden', 'paused')
     UNION SELECT DISTINCT 'seller:' || seller FROM signed_listings
     WHERE seller = ANY($2::text[]) AND status IN ('active', 'hidden', 'paused')
     UNION SELECT DISTINCT 'collection:' || collection FROM signed_listings
     WHERE collection = ANY($3::text[]) AND status IN ('active', 'hidden', 'paused')
     UNION (SELECT 'all' FROM signed_listings WHERE $4 AND status IN ('active', 'paused') LIMIT 1)`,
    [JSON.stringify(tokens), prefixed("seller:"), prefixed("collection:"), keys.includes("all")],
  );
  if (live.length === 0) return null;
  const found = new Set(live.map((r) => r.key));
  const relevant = changes.filter((_c, i) => found.has(keys[i] as string));
  const changed: TokenRef[] = [];
  const run = async (text: string, values: unknown[]) => {
    const { rows } = await client.query<{ collection: string; token_id: string }>(
      `${text} RETURNING collection, token_id::text`,
      values,
    );
    for (const r of rows) changed.push({ collection: r.collection, tokenId: r.token_id });
  };
  // Every order the chain could still fill: shown, hidden by its seller, or paused by a passing refusal.
  const LIVE = "status IN ('active', 'hidden', 'paused')";
  for (const c of relevant) {
    if (c.kind === "transfer") {
      await run(
        `UPDATE signed_listings SET status = 'void', ended_at = $1, ended_tx = $2, recheck_at = NULL
         WHERE collection = $3 AND token_id = $4::numeric AND ${LIVE} AND checked_block < $5::bigint`,
        [c.time, c.tx, c.collection, c.tokenId, c.block],
      );
    } else if (c.kind === "fill") {
      // Several orders may match (signed again at the same price): one was filled, the rest are void.
      await run(
        `UPDATE signed_listings SET status = 'filled', ended_at = $1, ended_tx = $2, recheck_at = NULL
         WHERE id = (SELECT id FROM signed_listings
           WHERE collection = $3 AND token_id = $4::numeric AND seller = $6 AND price = $7::numeric
             AND checked_block < $5::bigint AND (${LIVE} OR (status = 'void' AND ended_tx = $2))
           ORDER BY (status = 'active') DESC, created_at LIMIT 1)`,
        [c.time, c.tx, c.collection, c.tokenId, c.block, c.seller, c.price],
      );
    } else if (c.kind === "cancel") {
      await run(
        `UPDATE signed_listings SET status = 'cancelled', ended_at = $1, ended_tx = $2, recheck_at = NULL
         WHERE collection = $3 AND token_id = $4::numeric AND ${LIVE} AND transfer_count < $5::numeric`,
        [c.time, c.tx, c.collection, c.tokenId, c.transferCount],
      );
    } else if (c.kind === "bump") {
      await run(
        `UPDATE signed_listings SET status = 'bumped', ended_at = $1, ended_tx = $2, recheck_at = NULL
         WHERE seller = $3 AND ${LIVE} AND counter < $4::numeric`,
        [c.time, c.tx, c.seller, c.counter],
      );
    } else if (c.kind === "listed") {
      // A paused order too: it must not come back over the on-chain listing when its refusal ends.
      await run(
        `UPDATE signed_listings SET status = 'hidden', recheck_at = NULL
         WHERE collection = $1 AND token_id = $2::numeric AND status IN ('active', 'paused')
           AND checked_block < $3::bigint`,
        [c.collection, c.tokenId, c.block],
      );
    } else if (c.kind === "refuse") {
      // Hidden, not retired: the chain fills it again when the refusal ends (and its seller sees it on Manage).
      const { where, values } = scopeSql(c.scope, 3);
      await run(
        `UPDATE signed_listings SET status = 'paused', paused_reason = $1, paused_block = $2::bigint,
           recheck_at = now() + interval '${PAUSED_RECHECK}'
         WHERE ${where} AND status = 'active' AND checked_block < $2::bigint`,
        [c.reason, c.block, ...values],
      );
      // One paused already: a recheck that found it live before this block must not bring it back.
      const paused = scopeSql(c.scope, 2);
      await client.query(
        `UPDATE signed_listings SET paused_block = $1::bigint
         WHERE ${paused.where} AND status = 'paused' AND coalesce(paused_block, 0) < $1::bigint`,
        [c.block, ...paused.values],
      );
    } else if (c.kind === "recheck") {
      // Active orders the chain may refuse now: the worker asks it at once (no change to the book until then).
      const { where, values } = scopeSql(c.scope, 1);
      await client.query(
        `UPDATE signed_listings SET recheck_at = now() WHERE ${where} AND status = 'active'`,
        values,
      );
    } else {
      // The worker rechecks them at once: it alone can say whether something else still refuses them. Only
      // those paused for this reason (a recheck keeps the reason up to date: the first the chain finds).
      const { where, values } = scopeSql(c.scope, 2);
      await client.query(
        `UPDATE signed_listings SET recheck_at = now()
         WHERE ${where} AND status = 'paused' AND paused_reason = $1`,
        [c.reason, ...values],
      );
    }
  }
  return changed;
}

/** Runs `work` in a transaction on a connection of `pool`, holding the projections' lock. */
export async function withProjectionLock<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>) {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await lockProjections(client);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
