/**
 * Traits: the properties artists give their items (`item_traits`, written by the mint routes beside the
 * metadata's ERC-721 `attributes`), read for the item page (each value with how many of the collection's items
 * share it) and for the collection page (each trait type with its values and counts, and the filter that
 * narrows the grid to one value).
 *
 * A trait row belongs to an upload (its metadata CID); it is an item's trait only when a token row of its
 * collection carries that CID (`chain_tokens.cid`: a minted token, or a lazy item's projection), so every
 * count joins the token rows, with the viewer's visibility (`visibleToken`): an upload nobody minted, a burned
 * token, or (for visitors) a blocked one is not counted, as the grid does not show it.
 */
import type { CollectionTrait, ItemTrait } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { type Viewer, visibleToken } from "./cards.ts";

/** A trait filter of the collection grid: items whose property `type` has this `value`. */
export type TraitFilter = { type: string; value: string };

/** The most values a collection's filter lists (the most common first within each type). */
const MAX_TRAIT_VALUES = 2_000;

/**
 * The grid's condition for a trait filter, over the card query's token row `t`: a probe of `item_traits`'
 * primary key (cid, trait_type) for each token the sort's walk passes, so the list keeps its keyset pages
 * and its sort's index.
 */
export const hasTrait = (trait: TraitFilter): SQL =>
  sql`EXISTS (SELECT 1 FROM item_traits tr WHERE tr.cid = t.cid AND tr.trait_type = ${trait.type}
    AND tr.value = ${trait.value} AND tr.collection = t.collection)`;

/**
 * An item's traits, each with how many of its collection's items (that this viewer sees) have that value,
 * out of how many: the item page's "12% have this". Null when the item is not there for this viewer.
 * @example await itemTraits(db, viewer, "0xabc…", "7") // [{ trait_type: "Mood", value: "Calm", count: 3, total: 25 }]
 */
export async function itemTraits(
  db: Database,
  viewer: Viewer,
  collection: string,
  tokenId: string,
): Promise<ItemTrait[] | null> {
  const { rows } = await db.execute<{
    cid: string | null;
    trait_type: string | null;
    value: string | null;
    count: number | null;
    total: number;
  }>(sql`
    WITH item AS (
      SELECT t.cid FROM chain_tokens t JOIN chain_collections c ON c.address = t.collection
      WHERE t.collection = ${collection} AND t.token_id = ${tokenId}::numeric AND ${visibleToken(viewer)}
    ), total AS (
      SELECT count(*)::int AS n FROM chain_tokens t JOIN chain_collections c ON c.address = t.collection
      WHERE t.collection = ${collection} AND ${visibleToken(viewer)}
    )
    SELECT item.cid, tr.trait_type, tr.value, total.n AS total,
      (SELECT count(*)::int FROM item_traits o
        JOIN chain_tokens t ON t.cid = o.cid AND t.collection = o.collection
        JOIN chain_collections c ON c.address = t.collection
        WHERE o.collection = ${collection} AND o.trait_type = tr.trait_type AND o.value = tr.value
          AND ${visibleToken(viewer)}) AS count
    FROM item CROSS JOIN total
    LEFT JOIN item_traits tr ON tr.cid = item.cid AND tr.collection = ${collection}
    ORDER BY lower(tr.trait_type), tr.trait_type`);
  if (rows.length === 0) return null;
  return rows.flatMap((row) =>
    row.trait_type === null || row.value === null
      ? []
      : [
          {
            trait_type: row.trait_type,
            value: row.value,
            count: Number(row.count ?? 0),
            total: Number(row.total),
          },
        ],
  );
}

/**
 * A collection's trait types, each with its values and how many items (that this viewer sees) have each, the
 * most common value first; and how many items the collection shows in all.
 */
export async function collectionTraits(
  db: Database,
  viewer: Viewer,
  collection: string,
): Promise<{ traits: CollectionTrait[]; total: number }> {
  const [{ rows }, totals] = await Promise.all([
    db.execute<{ trait_type: string; value: string; count: number }>(sql`
      SELECT tr.trait_type, tr.value, count(*)::int AS count
      FROM item_traits tr
      JOIN chain_tokens t ON t.cid = tr.cid AND t.collection = tr.collection
      JOIN chain_collections c ON c.address = t.collection
      WHERE tr.collection = ${collection} AND ${visibleToken(viewer)}
      GROUP BY tr.trait_type, tr.value
      ORDER BY lower(tr.trait_type), tr.trait_type, count(*) DESC, tr.value
      LIMIT ${MAX_TRAIT_VALUES}`),
    db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM chain_tokens t JOIN chain_collections c ON c.address = t.collection
      WHERE t.collection = ${collection} AND ${visibleToken(viewer)}`),
  ]);
  const traits: CollectionTrait[] = [];
  for (const row of rows) {
    const last = traits.at(-1);
    const entry = { value: row.value, count: Number(row.count) };
    if (last?.trait_type === row.trait_type) last.values.push(entry);
    else traits.push({ trait_type: row.trait_type, values: [entry] });
  }
  return { traits, total: Number(totals.rows[0]?.n ?? 0) };
}
