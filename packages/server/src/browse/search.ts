/**
 * The header search, on PostgreSQL alone: exact, prefix and typo-tolerant (pg_trgm similarity) matches on
 * collection names, usernames and display names, and address prefixes. Ranked exact name first, then
 * prefixes, then typos by similarity; typos are looked up only when the other matches leave the list short. Until items carry their own names (the mint API's metadata), an item is
 * found as "{collection name} #{token id}" or by its creator's address.
 */
import { SEARCH_GROUP_LIMIT, type SearchResponse } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { escapeLike } from "../db/like.ts";
import { tokenName } from "../trading/profileLists.ts";
import { OWNS_NAME, slugOf, toPerson, type Viewer, visibleCollection, visibleToken } from "./cards.ts";

type Row = Record<string, unknown>;

/** A collections lookup: the `where` rows in `order`, with what a result shows. */
function collectionPage(db: Database, viewer: Viewer, where: SQL, order: SQL, limit: number) {
  return db.execute(sql`
    WITH hit AS (
      SELECT c.address, row_number() OVER (ORDER BY ${order}) AS rank FROM chain_collections c
      WHERE ${where} AND ${visibleCollection(viewer)}
      ORDER BY ${order} LIMIT ${limit}
    )
    SELECT c.address, c.name, c.symbol, d.logo, ${OWNS_NAME}
    FROM hit JOIN chain_collections c ON c.address = hit.address
    LEFT JOIN collection_details d ON d.address = c.address
    ORDER BY hit.rank`);
}

/**
 * Collections whose name starts with the text (exact name first, since it sorts before its longer
 * prefixes), or whose address does: a walk of a btree, whatever the number of matches.
 */
async function collectionPrefixes(db: Database, viewer: Viewer, prefix: string, isAddress: boolean) {
  const { rows } = isAddress
    ? await collectionPage(db, viewer, sql`c.address LIKE ${prefix}`, sql`c.address`, SEARCH_GROUP_LIMIT)
    : await collectionPage(
        db,
        viewer,
        sql`lower(c.name) LIKE ${prefix}`,
        sql`lower(c.name), c.created_block, c.address`,
        SEARCH_GROUP_LIMIT,
      );
  return rows as Row[];
}

/** Collections whose name is like the text (trigram similarity), best first, leaving out the prefixes. */
async function collectionTypos(db: Database, viewer: Viewer, q: string, prefix: string, limit: number) {
  const { rows } = await collectionPage(
    db,
    viewer,
    sql`lower(c.name) % ${q} AND lower(c.name) NOT LIKE ${prefix}`,
    sql`similarity(lower(c.name), ${q}) DESC, c.created_block, c.address`,
    limit,
  );
  return rows as Row[];
}

const PROFILE_COLUMNS = sql`p.address, p.username, p.name, p.avatar`;

/** Whether a profile's username or display name is exactly the text (lowercased). */
const profileIsNamed = (r: Row, q: string) =>
  String(r.username ?? "").toLowerCase() === q || String(r.name ?? "").toLowerCase() === q;

/** Profiles by username or display-name prefix (exact first), or by address prefix. */
async function profilePrefixes(db: Database, q: string, prefix: string, isAddress: boolean) {
  if (isAddress) {
    const { rows } = await db.execute(sql`
      SELECT ${PROFILE_COLUMNS} FROM profiles p WHERE p.active AND p.address LIKE ${prefix}
      ORDER BY p.address LIMIT ${SEARCH_GROUP_LIMIT}`);
    return rows as Row[];
  }
  const { rows } = await db.execute(sql`
    (SELECT ${PROFILE_COLUMNS} FROM profiles p WHERE p.active AND lower(p.username) LIKE ${prefix}
     ORDER BY lower(p.username), p.address LIMIT ${SEARCH_GROUP_LIMIT})
    UNION ALL
    (SELECT ${PROFILE_COLUMNS} FROM profiles p WHERE p.active AND lower(p.name) LIKE ${prefix}
     ORDER BY lower(p.name), p.address LIMIT ${SEARCH_GROUP_LIMIT})`);
  const exact = (r: Row) => profileIsNamed(r, q);
  const seen = new Set<string>();
  return [...(rows as Row[]).filter(exact), ...(rows as Row[]).filter((r) => !exact(r))]
    .filter((r) => !seen.has(String(r.address)) && seen.add(String(r.address)))
    .slice(0, SEARCH_GROUP_LIMIT);
}

/** Profiles whose username or display name is like the text, best first, leaving out the prefixes. */
async function profileTypos(db: Database, q: string, prefix: string, limit: number) {
  const { rows } = await db.execute(sql`
    SELECT ${PROFILE_COLUMNS} FROM profiles p
    WHERE p.active AND (lower(p.username) % ${q} OR lower(p.name) % ${q})
      AND NOT (coalesce(lower(p.username), '') LIKE ${prefix} OR coalesce(lower(p.name), '') LIKE ${prefix})
    ORDER BY greatest(similarity(lower(coalesce(p.username, '')), ${q}),
                      similarity(lower(coalesce(p.name, '')), ${q})) DESC, p.address
    LIMIT ${limit}`);
  return rows as Row[];
}

export async function search(db: Database, viewer: Viewer, text: string): Promise<SearchResponse["data"]> {
  const q = text.trim().toLowerCase();
  const prefix = `${escapeLike(q)}%`;
  const isAddressPrefix = /^0x[0-9a-f]{1,40}$/.test(q);
  const item = /^(.*?)\s*#\s*(\d{1,78})$/.exec(q);

  // Planned for each search text (not as repeated statements): whether an index pays off depends on the words.
  const [collections, profiles, items] = await Promise.all([
    collectionPrefixes(db, viewer, prefix, isAddressPrefix),
    profilePrefixes(db, q, prefix, isAddressPrefix),
    item || (isAddressPrefix && q.length === 42)
      ? db.execute(sql`
          SELECT t.collection, t.token_id, t.creator, t.status, c.name AS collection_name, c.kind,
            im.name AS item_name, am.thumbnail_cid
          FROM chain_tokens t JOIN chain_collections c ON c.address = t.collection
          LEFT JOIN item_metadata im ON im.cid = t.cid LEFT JOIN media am ON am.cid = im.media_cid
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

  // Typos only when nothing matches the text exactly and the prefix matches leave the list short: trigram
  // lookups read every name that shares enough trigrams with the text (thousands when names look alike), so
  // they are kept for the searches that need them, not run for a name that is found as typed.
  const found = collections.length + profiles.length + items.rows.length;
  const exact =
    collections.some((r) => String(r.name).toLowerCase() === q) || profiles.some((r) => profileIsNamed(r, q));
  if (!isAddressPrefix && !exact && found < SEARCH_GROUP_LIMIT) {
    const [collectionLike, profileLike] = await Promise.all([
      collections.length < SEARCH_GROUP_LIMIT
        ? collectionTypos(db, viewer, q, prefix, SEARCH_GROUP_LIMIT - collections.length)
        : [],
      profiles.length < SEARCH_GROUP_LIMIT
        ? profileTypos(db, q, prefix, SEARCH_GROUP_LIMIT - profiles.length)
        : [],
    ]);
    collections.push(...collectionLike);
    profiles.push(...profileLike);
  }

  return {
    collections: collections.map((r) => ({
      _id: String(r.address),
      name: String(r.name),
      slug: slugOf(r),
      symbol: String(r.symbol),
      logo: (r.logo as string | null) ?? null,
    })),
    items: (items.rows as Record<string, unknown>[]).map((r) => ({
      _id: `${r.collection}:${r.token_id}`,
      name: (r.item_name as string | null) ?? tokenName(String(r.collection_name), String(r.token_id)),
      tokenId: String(r.token_id),
      image_cid: (r.thumbnail_cid as string | null) ?? null,
      creator: (r.creator as string | null) ?? null,
      status: String(r.status),
      collection: { address: String(r.collection), name: String(r.collection_name), kind: String(r.kind) },
    })),
    profile: profiles.map((r) => toPerson(String(r.address), r.username, r.name, r.avatar)),
  };
}
