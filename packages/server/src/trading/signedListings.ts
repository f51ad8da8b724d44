/**
 * The signed-listing order book beside the chain's projections. An order lives in `signed_listings` (app
 * data: the chain never sees it until it is filled); the best active order of a token is projected onto its
 * `chain_tokens` row (status 'fix', price, listing_expires_at, listed_at) when the token has no live on-chain
 * listing and no auction, so every browse query, sort and index that reads a listing from the token row shows
 * it unchanged. One function (`projectSignedListings`) writes that projection, for the API's routes and for
 * the indexer; both take `lockProjections` first (see docs/architecture.md, "Signed listings").
 */
import type { SignedListingOrder, SignedListingStatus } from "@easel/common";
import { SIGNED_LISTING_STATUS } from "@easel/contracts";
import type pg from "pg";
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
     -- A token in an auction or burned keeps its row, except a signed order's end (its escrow or burn voided
     -- the orders); any on-chain listing (even lapsed) is the indexer's to show.
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

/** What `signedListingStatus` answers, as a stored status when a recheck retires an order. */
export function retiredStatus(chainStatus: number): SignedListingStatus {
  switch (chainStatus) {
    case SIGNED_LISTING_STATUS.expired:
      return "expired";
    case SIGNED_LISTING_STATUS.counterIncremented:
      return "bumped";
    case SIGNED_LISTING_STATUS.void:
      return "void";
    default:
      // A contract wallet that no longer accepts the signature, a lost approval, a ban, a block, a lock or a
      // price under a raised minimum.
      return "refused";
  }
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
  };
}

/**
 * A change the indexer makes to the book for one event, in chain order (see `retireSignedListings`).
 * `block` guards replays: an order checked live at or after the event's block is not the event's to retire.
 * - transfer: any transfer of the token (a sale, a fill, an escrow, a burn, a gift): its orders no longer hold.
 * - fill: `Sale` mechanism signed-listing, the order the buyer filled (the fill's transfer voided it just before).
 * - cancel: `SignedListingCancelled`, every order of the token naming a lower transfer count.
 * - bump: `ListingCounterIncremented`, every order of the seller naming a lower counter.
 * - listed: `SellOrderSet`, the on-chain listing shows; the signed ones are hidden (still valid on chain).
 */
export type BookChange = { block: string; tx: string; time: string } & (
  | { kind: "transfer"; collection: string; tokenId: string }
  | { kind: "fill"; collection: string; tokenId: string; seller: string; price: string }
  | { kind: "cancel"; collection: string; tokenId: string; transferCount: string }
  | { kind: "bump"; seller: string; counter: string }
  | { kind: "listed"; collection: string; tokenId: string }
);

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
  const tokens = changes.flatMap((c) =>
    c.kind === "bump" ? [] : [{ collection: c.collection, token_id: c.tokenId }],
  );
  const sellers = changes.flatMap((c) => (c.kind === "bump" ? [c.seller] : []));
  const { rows: live } = await client.query<{ key: string }>(
    `SELECT DISTINCT s.collection || ':' || s.token_id AS key FROM signed_listings s
     JOIN json_to_recordset($1::json) AS x(collection text, token_id numeric)
       ON s.collection = x.collection AND s.token_id = x.token_id
     WHERE s.status IN ('active', 'hidden')
     UNION SELECT DISTINCT 'seller:' || seller FROM signed_listings
     WHERE seller = ANY($2::text[]) AND status IN ('active', 'hidden')`,
    [JSON.stringify(tokens), sellers],
  );
  if (live.length === 0) return null;
  const keys = new Set(live.map((r) => r.key));
  const relevant = changes.filter((c) =>
    keys.has(c.kind === "bump" ? `seller:${c.seller}` : `${c.collection}:${c.tokenId}`),
  );
  const changed: TokenRef[] = [];
  const run = async (text: string, values: unknown[]) => {
    const { rows } = await client.query<{ collection: string; token_id: string }>(
      `${text} RETURNING collection, token_id::text`,
      values,
    );
    for (const r of rows) changed.push({ collection: r.collection, tokenId: r.token_id });
  };
  const LIVE = "status IN ('active', 'hidden')";
  for (const c of relevant) {
    if (c.kind === "transfer") {
      await run(
        `UPDATE signed_listings SET status = 'void', ended_at = $1, ended_tx = $2
         WHERE collection = $3 AND token_id = $4::numeric AND ${LIVE} AND checked_block < $5::bigint`,
        [c.time, c.tx, c.collection, c.tokenId, c.block],
      );
    } else if (c.kind === "fill") {
      // Several orders may match (signed again at the same price): one was filled, the rest are void.
      await run(
        `UPDATE signed_listings SET status = 'filled', ended_at = $1, ended_tx = $2
         WHERE id = (SELECT id FROM signed_listings
           WHERE collection = $3 AND token_id = $4::numeric AND seller = $6 AND price = $7::numeric
             AND checked_block < $5::bigint AND (${LIVE} OR (status = 'void' AND ended_tx = $2))
           ORDER BY (status = 'active') DESC, created_at LIMIT 1)`,
        [c.time, c.tx, c.collection, c.tokenId, c.block, c.seller, c.price],
      );
    } else if (c.kind === "cancel") {
      await run(
        `UPDATE signed_listings SET status = 'cancelled', ended_at = $1, ended_tx = $2
         WHERE collection = $3 AND token_id = $4::numeric AND ${LIVE} AND transfer_count < $5::numeric`,
        [c.time, c.tx, c.collection, c.tokenId, c.transferCount],
      );
    } else if (c.kind === "bump") {
      await run(
        `UPDATE signed_listings SET status = 'bumped', ended_at = $1, ended_tx = $2
         WHERE seller = $3 AND ${LIVE} AND counter < $4::numeric`,
        [c.time, c.tx, c.seller, c.counter],
      );
    } else {
      await run(
        `UPDATE signed_listings SET status = 'hidden'
         WHERE collection = $1 AND token_id = $2::numeric AND status = 'active' AND checked_block < $3::bigint`,
        [c.collection, c.tokenId, c.block],
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
