/**
 * The header search, on PostgreSQL alone: exact, prefix and typo-tolerant (pg_trgm similarity) matches on
 * collection names, usernames and display names, and address prefixes. Ranked exact name first, then
 * prefixes, then by similarity. Until items carry their own names (the mint API's metadata), an item is
 * found as "{collection name} #{token id}" or by its creator's address.
 */
import { SEARCH_GROUP_LIMIT, type SearchResponse } from "@easel/common";
import { sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { escapeLike } from "../db/like.ts";
import { tokenName } from "../trading/profileLists.ts";
import { OWNS_NAME, slugOf, toPerson, type Viewer, visibleCollection, visibleToken } from "./cards.ts";

export async function search(db: Database, viewer: Viewer, text: string): Promise<SearchResponse["data"]> {
  const q = text.trim().toLowerCase();
  const prefix = `${escapeLike(q)}%`;
  const isAddressPrefix = /^0x[0-9a-f]{1,40}$/.test(q);
  const item = /^(.*?)\s*#\s*(\d{1,78})$/.exec(q);

  const collectionMatch = isAddressPrefix
    ? sql`c.address LIKE ${prefix}`
    : sql`(lower(c.name) LIKE ${prefix} OR lower(c.name) % ${q})`;
  const profileMatch = isAddressPrefix
    ? sql`p.address LIKE ${prefix}`
    : sql`(lower(p.username) LIKE ${prefix} OR lower(p.name) LIKE ${prefix}
           OR lower(p.username) % ${q} OR lower(p.name) % ${q})`;

  // Planned for each search text (not as repeated statements): whether the trigram indexes pay off depends
  // on the words.
  const [collections, profiles, items] = await Promise.all([
    db.execute(sql`
      SELECT c.address, c.name, c.symbol, d.logo, ${OWNS_NAME}
      FROM chain_collections c LEFT JOIN collection_details d ON d.address = c.address
      WHERE ${collectionMatch} AND ${visibleCollection(viewer)}
      ORDER BY CASE WHEN lower(c.name) = ${q} OR c.address = ${q} THEN 0
                    WHEN lower(c.name) LIKE ${prefix} OR c.address LIKE ${prefix} THEN 1 ELSE 2 END,
               similarity(lower(c.name), ${q}) DESC, c.created_block, c.address
      LIMIT ${SEARCH_GROUP_LIMIT}`),
    db.execute(sql`
      SELECT p.address, p.username, p.name, p.avatar
      FROM profiles p
      WHERE p.active AND ${profileMatch}
      ORDER BY CASE WHEN lower(p.username) = ${q} OR lower(p.name) = ${q} OR p.address = ${q} THEN 0
                    WHEN lower(p.username) LIKE ${prefix} OR lower(p.name) LIKE ${prefix} OR p.address LIKE ${prefix}
                    THEN 1 ELSE 2 END,
               greatest(similarity(lower(coalesce(p.username, '')), ${q}),
                        similarity(lower(coalesce(p.name, '')), ${q})) DESC,
               p.address
      LIMIT ${SEARCH_GROUP_LIMIT}`),
    item || (isAddressPrefix && q.length === 42)
      ? db.execute(sql`
          SELECT t.collection, t.token_id, t.cid, t.creator, t.status, c.name AS collection_name, c.kind
          FROM chain_tokens t JOIN chain_collections c ON c.address = t.collection
          WHERE ${visibleToken(viewer)}
            AND ${
              item
                ? sql`t.token_id = ${item[2]}::numeric
                      AND (lower(c.name) = ${item[1]} OR lower(c.name) LIKE ${`${escapeLike(item[1] ?? "")}%`})`
                : sql`t.creator = ${q}`
            }
          ORDER BY (lower(c.name) = ${item?.[1] ?? ""}) DESC, t.minted_block DESC, t.collection, t.token_id
          LIMIT ${SEARCH_GROUP_LIMIT}`)
      : Promise.resolve({ rows: [] }),
  ]);

  return {
    collections: (collections.rows as Record<string, unknown>[]).map((r) => ({
      _id: String(r.address),
      name: String(r.name),
      slug: slugOf(r),
      symbol: String(r.symbol),
      logo: (r.logo as string | null) ?? null,
    })),
    items: (items.rows as Record<string, unknown>[]).map((r) => ({
      _id: `${r.collection}:${r.token_id}`,
      name: tokenName(String(r.collection_name), String(r.token_id)),
      tokenId: String(r.token_id),
      image_cid: (r.cid as string | null) ?? null,
      creator: (r.creator as string | null) ?? null,
      status: String(r.status),
      collection: { address: String(r.collection), name: String(r.collection_name), kind: String(r.kind) },
    })),
    profile: (profiles.rows as Record<string, unknown>[]).map((r) =>
      toPerson(String(r.address), r.username, r.name, r.avatar),
    ),
  };
}
