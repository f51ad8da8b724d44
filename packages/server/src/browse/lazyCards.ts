/**
 * Unsold lazy items in browse. A lazy item (`lazy_items`) is for sale before it exists on chain: its buyer's
 * `lazyMint` mints it. Browse reads the token rows alone (`chain_tokens`, every sort walking its own index), so
 * each unsold lazy item is projected there as a row of status 'lazy' (owner and holder its creator, its price
 * and listing term, its metadata's CID, royalty and collaborators), and every list, filter, sort, count, floor
 * and search that reads token rows finds it, mint-on-purchase, with no second table to merge. The row has the
 * lazy item's key (collection, token id), so the mint's `Transfer` (the indexer writes the whole token row)
 * replaces it: the item is never shown twice. One function writes the projection, for the API's routes (a lazy
 * item listed or repriced) and for the indexer (a rebuild, a reorg, a lazy collection indexed again); all take
 * the projections' lock first (`lockProjections`), like the signed-listing book.
 */

import { LISTING_DAYS as LAZY_LISTING_DAYS } from "@easel/common";
import type pg from "pg";
import { refreshCollectionStats } from "../indexer/stats.ts";
import type { Runner } from "../indexer/store.ts";
import { withProjectionLock } from "../trading/signedListings.ts";

export type LazyRef = { collection: string; tokenId: string };

/**
 * (Re)projects the unsold lazy items of `items` (or of whole `collections`, or "all") onto token rows: a row
 * is written for each lazy item no token row holds yet, and the price and listing term of a row still 'lazy'
 * follow its item's. A token row the chain wrote (minted, sold, burned) is never touched. Returns the
 * collections whose rows changed (their artwork count and floor must be recomputed).
 */
export async function projectLazyItems(
  client: Runner,
  items: LazyRef[] | { collections: string[] } | "all",
): Promise<string[]> {
  if (Array.isArray(items) && items.length === 0) return [];
  if (!Array.isArray(items) && items !== "all" && items.collections.length === 0) return [];
  const target =
    items === "all"
      ? "SELECT collection, token_id FROM lazy_items"
      : Array.isArray(items)
        ? "SELECT DISTINCT collection, token_id FROM json_to_recordset($1::json) AS x(collection text, token_id numeric)"
        : "SELECT collection, token_id FROM lazy_items WHERE collection = ANY($1::text[])";
  const values =
    items === "all"
      ? []
      : Array.isArray(items)
        ? [JSON.stringify(items.map((i) => ({ collection: i.collection, token_id: i.tokenId })))]
        : [items.collections];
  // "Recently created" orders by the block a token was minted at: a lazy item takes the block indexed when it
  // is projected (its listing), so it sorts among the tokens minted around then.
  const { rows } = await client.query<{ collection: string }>(
    `WITH target AS (${target}),
     block AS (SELECT coalesce(max(indexed_block), 0) AS number FROM indexer_state)
     INSERT INTO chain_tokens AS t (collection, token_id, creator, owner, holder, cid, royalty_bps, collaborators,
       status, lazy, price, listed_at, listing_expires_at, blocked, minted_block, minted_at, mint_tx, updated_block)
     SELECT l.collection, l.token_id, l.creator, l.creator, l.creator, l.metadata_cid, m.royalty * 100,
       (SELECT coalesce(jsonb_agg(jsonb_build_object('account', lower(x->>'address'), 'share', (x->>'share')::int)), '[]'::jsonb)
        FROM jsonb_array_elements(coalesce(m.collaborators, '[]'::jsonb)) x),
       'lazy', true, l.price, l.updated_at, l.updated_at + make_interval(days => ${LAZY_LISTING_DAYS}),
       EXISTS (SELECT 1 FROM chain_blocked_tokens b WHERE b.collection = l.collection AND b.token_id = l.token_id),
       block.number, l.created_at, '', block.number
     FROM target x
     JOIN lazy_items l ON l.collection = x.collection AND l.token_id = x.token_id
     JOIN item_metadata m ON m.cid = l.metadata_cid
     JOIN chain_collections c ON c.address = l.collection
     CROSS JOIN block
     ON CONFLICT (collection, token_id) DO UPDATE SET price = EXCLUDED.price, listed_at = EXCLUDED.listed_at,
       listing_expires_at = EXCLUDED.listing_expires_at
     WHERE t.status = 'lazy'
       AND (t.price, t.listed_at, t.listing_expires_at)
         IS DISTINCT FROM (EXCLUDED.price, EXCLUDED.listed_at, EXCLUDED.listing_expires_at)
     RETURNING t.collection`,
    values,
  );
  return [...new Set(rows.map((r) => r.collection))];
}

/**
 * Shows a lazy item as it now stands (listed, or repriced) in browse: its token row projected, and its
 * collection's artwork count and floor recomputed, under the projections' lock.
 */
export async function showLazyItem(pool: pg.Pool, item: LazyRef): Promise<void> {
  await withProjectionLock(pool, async (client) => {
    const changed = await projectLazyItems(client, [item]);
    if (changed.length > 0) await refreshCollectionStats(client, changed);
  });
}
