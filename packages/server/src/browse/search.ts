/**
 * The header search, on PostgreSQL alone: exact, prefix and typo-tolerant matches on collection names,
 * usernames and display names, and address prefixes. Ranked exact name first, then prefixes, then typos.
 * A typo is first corrected word by word against the dictionary of the names' words (`search_words`, a few
 * thousand rows however many names there are) and the corrected text looked up like typed text; only when
 * that still leaves the list short, and a word is neither a names' word nor near one, are names compared by
 * trigram similarity. Until items carry their own
 * names (the mint API's metadata), an item is found as "{collection name} #{token id}" or by its creator's
 * address.
 */
import { SEARCH_GROUP_LIMIT, type SearchResponse } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { escapeLike } from "../db/like.ts";
import { tokenName } from "../trading/profileLists.ts";
import { OWNS_NAME, slugOf, toPerson, type Viewer, visibleCollection, visibleToken } from "./cards.ts";

type Row = Record<string, unknown>;

/** A collections lookup: the `where` rows of the collections (`c`) in `order`, with what a result shows. */
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

/**
 * The text's words as a full-text query that every word must match (`harbour & lights`), or null when it
 * has none. Words are letters and digits only, so nothing in them is a query operator.
 */
function wordsQuery(text: string): string | null {
  const words = text.match(/[a-z0-9]+/g);
  return words ? words.slice(0, 8).join(" & ") : null;
}

/**
 * Names that have every word of the text, wherever they stand: the first `limit` rows the full-text index
 * finds, shown in name order. A common word is in thousands of names, and ordering them all to show a few
 * cost milliseconds of every such search; these matches rank after the exact names and prefixes anyway.
 * The matches are a materialized CTE, planned without the limit and read only as far as the limit: planned
 * with it, PostgreSQL may instead walk the name order testing every row for a word it guessed common.
 */
const firstWordMatches = (columns: SQL, from: SQL, match: SQL, limit: number) => sql`
  WITH matches AS MATERIALIZED (SELECT ${columns} FROM ${from} WHERE ${match})
  SELECT * FROM matches LIMIT ${limit}`;

/** Collections whose name has every word of the text. */
async function collectionWords(db: Database, viewer: Viewer, words: string, limit: number) {
  const { rows } = await db.execute(sql`
    WITH hit AS (${firstWordMatches(
      sql`c.address`,
      sql`chain_collections c`,
      sql`to_tsvector('simple', lower(c.name)) @@ to_tsquery('simple', ${words}) AND ${visibleCollection(viewer)}`,
      limit,
    )})
    SELECT c.address, c.name, c.symbol, d.logo, ${OWNS_NAME}
    FROM hit JOIN chain_collections c ON c.address = hit.address
    LEFT JOIN collection_details d ON d.address = c.address
    ORDER BY lower(c.name), c.created_block, c.address`);
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

/** Profiles whose username or display name has every word of the text. */
async function profileWords(db: Database, words: string, limit: number) {
  const match = sql`(to_tsvector('simple', lower(p.username)) @@ to_tsquery('simple', ${words})
    OR to_tsvector('simple', lower(p.name)) @@ to_tsquery('simple', ${words})) AND p.active`;
  const { rows } = await db.execute(sql`
    SELECT * FROM (${firstWordMatches(PROFILE_COLUMNS, sql`profiles p`, match, limit)}) p
    ORDER BY lower(p.name), p.address`);
  return rows as Row[];
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

/** How alike (trigram similarity) a dictionary word must be to replace a typed word that no name has. */
const TYPO_SIMILARITY = 0.25;

/**
 * The text with each word (3+ letters) that no name contains replaced by the nearest dictionary word (`fixed`,
 * null when no word changes), and whether a word is left that is neither a names' word nor near one
 * (`unknownWord`). The dictionary is small, so its GiST index finds the nearest word directly.
 */
async function correctedText(
  db: Database,
  q: string,
): Promise<{ fixed: string | null; unknownWord: boolean }> {
  const parts = q.match(/[a-z]+|[^a-z]+/g) ?? [];
  const words = [...new Set(parts.filter((part) => /^[a-z]{3,}$/.test(part)))].slice(0, 8);
  if (words.length === 0) return { fixed: null, unknownWord: false };
  const { rows } = await db.execute(sql`
    SELECT typed.word AS typed,
      CASE WHEN similarity(nearest.word, typed.word) >= ${TYPO_SIMILARITY} THEN nearest.word END AS fixed
    FROM unnest(ARRAY[${sql.join(
      words.map((word) => sql`${word}`),
      sql`, `,
    )}]::text[]) AS typed(word)
    LEFT JOIN LATERAL (SELECT s.word FROM search_words s ORDER BY s.word <-> typed.word LIMIT 1) nearest ON true
    WHERE NOT EXISTS (SELECT 1 FROM search_words known WHERE known.word = typed.word)`);
  const fixes = new Map(rows.filter((r) => r.fixed !== null).map((r) => [String(r.typed), String(r.fixed)]));
  return {
    fixed: fixes.size > 0 ? parts.map((part) => fixes.get(part) ?? part).join("") : null,
    unknownWord: rows.some((r) => r.fixed === null),
  };
}

/** `list` and then `more`, without repeating an address, at most a group's worth. */
function merged(list: Row[], more: Row[]): Row[] {
  const seen = new Set(list.map((r) => String(r.address)));
  return [...list, ...more.filter((r) => !seen.has(String(r.address)) && seen.add(String(r.address)))].slice(
    0,
    SEARCH_GROUP_LIMIT,
  );
}

export async function search(db: Database, viewer: Viewer, text: string): Promise<SearchResponse["data"]> {
  const q = text.trim().toLowerCase();
  const prefix = `${escapeLike(q)}%`;
  const isAddressPrefix = /^0x[0-9a-f]{1,40}$/.test(q);
  const item = /^(.*?)\s*#\s*(\d{1,78})$/.exec(q);

  // Planned for each search text (not as repeated statements): whether an index pays off depends on the words.
  let [collections, profiles, items] = await Promise.all([
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

  // Typos only when nothing matches the text exactly and the prefix matches leave the list short.
  const isExact = (text: string) =>
    collections.some((r) => String(r.name).toLowerCase() === text) ||
    profiles.some((r) => profileIsNamed(r, text));
  const isShort = () => collections.length + profiles.length + items.rows.length < SEARCH_GROUP_LIMIT;
  if (!isAddressPrefix && !isExact(q) && isShort()) {
    // First the typed words corrected against the dictionary, looked up like typed text (btree walks).
    const { fixed, unknownWord } = await correctedText(db, q);
    const text = fixed ?? q;
    const textPrefix = fixed ? `${escapeLike(fixed)}%` : prefix;
    if (fixed) {
      const [collectionHits, profileHits] = await Promise.all([
        collectionPrefixes(db, viewer, textPrefix, false),
        profilePrefixes(db, fixed, textPrefix, false),
      ]);
      collections = merged(collections, collectionHits);
      profiles = merged(profiles, profileHits);
    }
    // Then names that have the words anywhere (a surname, a second word): a full-text index lookup.
    const words = wordsQuery(text);
    if (words && !isExact(text) && isShort()) {
      const [collectionHits, profileHits] = await Promise.all([
        collectionWords(db, viewer, words, SEARCH_GROUP_LIMIT),
        profileWords(db, words, SEARCH_GROUP_LIMIT),
      ]);
      collections = merged(collections, collectionHits);
      profiles = merged(profiles, profileHits);
    }
    // Last, names by trigram similarity, for a word the dictionary does not know or correct (glued words,
    // several typos in one). They read every name sharing enough trigrams with the text (thousands when names
    // look alike: 'neon q' and every 'Neon …'), so not when the words are the names' own.
    if (unknownWord && !isExact(text) && isShort()) {
      const [collectionLike, profileLike] = await Promise.all([
        collections.length < SEARCH_GROUP_LIMIT
          ? collectionTypos(db, viewer, text, textPrefix, SEARCH_GROUP_LIMIT - collections.length)
          : [],
        profiles.length < SEARCH_GROUP_LIMIT
          ? profileTypos(db, text, textPrefix, SEARCH_GROUP_LIMIT - profiles.length)
          : [],
      ]);
      collections = merged(collections, collectionLike);
      profiles = merged(profiles, profileLike);
    }
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
