/**
 * The header search, on PostgreSQL alone: exact, prefix and typo-tolerant matches on collection names, item
 * names (the mint API's metadata), usernames and display names, and address prefixes. Ranked exact name
 * first, then prefixes, then typos. A typo is first corrected word by word against the dictionary of the
 * names' words (`search_words`, a few thousand rows however many names there are) and the corrected text
 * looked up like typed text; only when that still leaves the list short, and a word is neither a names' word
 * nor near one, are collection and profile names compared by trigram similarity (never the million item
 * names: their typos are the dictionary's). An item is also found as "{collection name} #{token id}" or by
 * its creator's address.
 */
import { SEARCH_GROUP_LIMIT, type SearchResponse } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import { OWNS_NAME, slugOf, tokenName } from "../chain/rows.ts";
import { type Database, literalInteger } from "../db/client.ts";
import { escapeLike } from "../db/like.ts";
import { toPerson, type Viewer, visibleCollection, visibleToken } from "./cards.ts";

type Row = Record<string, unknown>;

type Found = { collections: Row[]; profiles: Row[]; items: Row[] };

/**
 * The values of a step, written into its statement as placeholders: the text a name starts with (`text`, up to
 * `textEnd`), the hex an address starts with (`hex`, up to `hexEnd`), the full-text query of the words
 * (`words`), and the text and its LIKE prefix pattern for trigram similarity (`q`, `prefix`).
 */
const value = {
  text: sql.placeholder("text"),
  textEnd: sql.placeholder("textEnd"),
  hex: sql.placeholder("hex"),
  hexEnd: sql.placeholder("hexEnd"),
  words: sql.placeholder("words"),
  q: sql.placeholder("q"),
  prefix: sql.placeholder("prefix"),
  variants: sql.placeholder("variants"),
};

/** The end of the range of the values that start with `start`: `start` followed by the highest code point. */
const endOf = (start: string) => `${start}\u{10FFFF}`;

/**
 * A step of the search: a collections, a profiles and an items lookup (any may be absent) in one statement,
 * one round trip instead of three. Each lookup is a sorted query whose rows `json_agg` takes in the order they
 * come: nothing between the sort and the aggregate reorders them.
 *
 * Every step is a prepared statement planned once per connection (`$repeated`): its plan does not depend
 * on the text (prefixes are index ranges, words and trigrams go through their GIN indexes),
 * and planning it costs more than running it. Its text is written once per `shape` (the lookups it has, for
 * whom, how many rows), its values filled in at each run.
 */
async function lookUp(
  db: Database,
  shape: string,
  lookups: () => { collections: SQL | null; profiles: SQL | null; items?: SQL | null },
  values: Record<string, unknown>,
): Promise<Found> {
  const list = (query: SQL | null | undefined) =>
    query ? sql`(SELECT coalesce(json_agg(x), '[]'::json) FROM (${query}) x)` : sql`'[]'::json`;
  const { rows } = await db.$repeated.run(
    shape,
    () => {
      const { collections, profiles, items } = lookups();
      return sql`SELECT ${list(collections)} AS collections, ${list(profiles)} AS profiles, ${list(items)} AS items`;
    },
    values,
  );
  return rows[0] as Found;
}

/** Who a step's results are for: a moderator also finds blocked collections and items. */
const audience = (viewer: Viewer) => (viewer.moderator ? "moderator" : "visitor");

/** Names that start with the text, profiles named exactly the text first (the typed text, then the corrected). */
async function namePrefixes(db: Database, viewer: Viewer, text: string): Promise<Found> {
  const found = await lookUp(
    db,
    `prefixes ${audience(viewer)}`,
    () => ({
      collections: collectionPrefixes(viewer),
      profiles: profilePrefixes(),
      items: itemPrefixes(viewer),
    }),
    { text, textEnd: endOf(text) },
  );
  return { ...found, profiles: rankedProfiles(found.profiles, text) };
}

/**
 * The values of `column` that start with the text, as a range in byte order (`COLLATE "C"`, as the prefix
 * indexes are built): from the text itself up to the text followed by the highest code point.
 */
const startsWithText = (column: SQL) =>
  sql`${column} COLLATE "C" >= ${value.text} AND ${column} COLLATE "C" < ${value.textEnd}`;

/** A collections lookup: the `where` rows of the collections (`c`) in `order`, with what a result shows. */
function collectionPage(viewer: Viewer, where: SQL, order: SQL, limit: number) {
  return sql`
    WITH hit AS (
      SELECT c.address, row_number() OVER (ORDER BY ${order}) AS rank FROM chain_collections c
      WHERE ${where} AND ${visibleCollection(viewer)}
      ORDER BY ${order} LIMIT ${literalInteger(limit)}
    )
    SELECT c.address, c.name, c.symbol, d.logo, ${OWNS_NAME}
    FROM hit JOIN chain_collections c ON c.address = hit.address
    LEFT JOIN collection_details d ON d.address = c.address
    ORDER BY hit.rank`;
}

/**
 * Collections whose name starts with the text (exact name first, since it sorts before its longer
 * prefixes): a walk of a btree, whatever the number of matches.
 */
function collectionPrefixes(viewer: Viewer) {
  return collectionPage(
    viewer,
    startsWithText(sql`lower(c.name)`),
    sql`lower(c.name) COLLATE "C", c.created_block, c.address`,
    SEARCH_GROUP_LIMIT,
  );
}

/**
 * The addresses that start with the hex text: from the text up to the text followed by 'z' (`hexEnd`), which
 * sorts after every hex digit in any collation. A range, not a LIKE pattern, so that the statement can be
 * prepared.
 */
const addressStartsWithHex = (column: SQL) => sql`${column} >= ${value.hex} AND ${column} < ${value.hexEnd}`;

/** Collections whose address starts with the text. */
const collectionAddresses = (viewer: Viewer) =>
  collectionPage(viewer, addressStartsWithHex(sql`c.address`), sql`c.address`, SEARCH_GROUP_LIMIT);

/** Collections whose name is like the text (trigram similarity), best first, leaving out the prefixes. */
function collectionTypos(viewer: Viewer, limit: number) {
  return collectionPage(
    viewer,
    sql`lower(c.name) % ${value.q} AND lower(c.name) NOT LIKE ${value.prefix}`,
    sql`similarity(lower(c.name), ${value.q}) DESC, c.created_block, c.address`,
    limit,
  );
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
  SELECT * FROM matches LIMIT ${literalInteger(limit)}`;

/** Collections whose name has every word of the text. */
function collectionWords(viewer: Viewer, limit: number) {
  return sql`
    WITH hit AS (${firstWordMatches(
      sql`c.address`,
      sql`chain_collections c`,
      sql`to_tsvector('simple', lower(c.name)) @@ to_tsquery('simple', ${value.words}) AND ${visibleCollection(viewer)}`,
      limit,
    )})
    SELECT c.address, c.name, c.symbol, d.logo, ${OWNS_NAME}
    FROM hit JOIN chain_collections c ON c.address = hit.address
    LEFT JOIN collection_details d ON d.address = c.address
    ORDER BY lower(c.name), c.created_block, c.address`;
}

/** What an item result shows, from its token (`t`), collection (`c`), metadata (`im`) and artwork (`am`). */
const ITEM_COLUMNS = sql`t.collection, t.token_id::text AS token_id, t.creator, t.status,
  c.name AS collection_name, c.kind, im.name AS item_name, am.thumbnail_cid`;

/**
 * Items whose own name starts with the text (exact name first): a walk of the names' byte-ordered index,
 * each name's token found by its CID (as cards name it), skipping uploads never minted and hidden tokens.
 */
function itemPrefixes(viewer: Viewer) {
  return sql`
    SELECT ${ITEM_COLUMNS}
    FROM item_metadata im JOIN chain_tokens t ON t.cid = im.cid JOIN chain_collections c ON c.address = t.collection
    LEFT JOIN media am ON am.cid = im.media_cid
    WHERE ${startsWithText(sql`lower(im.name)`)} AND ${visibleToken(viewer)}
    ORDER BY lower(im.name) COLLATE "C", im.cid
    LIMIT ${literalInteger(SEARCH_GROUP_LIMIT)}`;
}

/**
 * Items whose name has every word of the text. Only the names are the materialized matches: the tokens are
 * joined to the first of them as they are read, never to the thousands of names a common word is in.
 */
function itemWords(viewer: Viewer, limit: number) {
  return sql`
    WITH matches AS MATERIALIZED (
      SELECT im.cid, im.name, im.media_cid FROM item_metadata im
      WHERE to_tsvector('simple', lower(im.name)) @@ to_tsquery('simple', ${value.words})
    )
    SELECT * FROM (
      SELECT ${ITEM_COLUMNS}
      FROM matches im JOIN chain_tokens t ON t.cid = im.cid JOIN chain_collections c ON c.address = t.collection
      LEFT JOIN media am ON am.cid = im.media_cid
      WHERE ${visibleToken(viewer)}
      LIMIT ${literalInteger(limit)}
    ) i ORDER BY lower(i.item_name), i.collection, i.token_id`;
}

const PROFILE_COLUMNS = sql`p.address, p.username, p.name, p.avatar`;

/** Whether a profile's username or display name is exactly the text (lowercased). */
const profileIsNamed = (r: Row, q: string) =>
  String(r.username ?? "").toLowerCase() === q || String(r.name ?? "").toLowerCase() === q;

/** Profiles by username prefix, then by display-name prefix (see `rankedProfiles`). */
function profilePrefixes() {
  const limit = literalInteger(SEARCH_GROUP_LIMIT);
  return sql`
    (SELECT ${PROFILE_COLUMNS} FROM profiles p WHERE p.active AND ${startsWithText(sql`lower(p.username)`)}
     ORDER BY lower(p.username) COLLATE "C", p.address LIMIT ${limit})
    UNION ALL
    (SELECT ${PROFILE_COLUMNS} FROM profiles p WHERE p.active AND ${startsWithText(sql`lower(p.name)`)}
     ORDER BY lower(p.name) COLLATE "C", p.address LIMIT ${limit})`;
}

/** Profiles whose address starts with the text. */
const profileAddresses = () =>
  sql`SELECT ${PROFILE_COLUMNS} FROM profiles p WHERE p.active AND ${addressStartsWithHex(sql`p.address`)}
      ORDER BY p.address LIMIT ${literalInteger(SEARCH_GROUP_LIMIT)}`;

/** Prefix matches with the profiles named exactly the text first, each once. */
function rankedProfiles(rows: Row[], q: string): Row[] {
  const exact = (r: Row) => profileIsNamed(r, q);
  return merged([], [...rows.filter(exact), ...rows.filter((r) => !exact(r))]);
}

/** Profiles whose username or display name has every word of the text. */
function profileWords(limit: number) {
  const match = sql`(to_tsvector('simple', lower(p.username)) @@ to_tsquery('simple', ${value.words})
    OR to_tsvector('simple', lower(p.name)) @@ to_tsquery('simple', ${value.words})) AND p.active`;
  return sql`
    SELECT * FROM (${firstWordMatches(PROFILE_COLUMNS, sql`profiles p`, match, limit)}) p
    ORDER BY lower(p.name), p.address`;
}

/** Profiles whose username or display name is like the text, best first, leaving out the prefixes. */
function profileTypos(limit: number) {
  const { q, prefix } = value;
  return sql`
    SELECT ${PROFILE_COLUMNS} FROM profiles p
    WHERE p.active AND (lower(p.username) % ${q} OR lower(p.name) % ${q})
      AND NOT (coalesce(lower(p.username), '') LIKE ${prefix} OR coalesce(lower(p.name), '') LIKE ${prefix})
    ORDER BY greatest(similarity(lower(coalesce(p.username, '')), ${q}),
                      similarity(lower(coalesce(p.name, '')), ${q})) DESC, p.address
    LIMIT ${literalInteger(limit)}`;
}

/** How alike (trigram similarity) a dictionary word must be to replace a typed word that no name has. */
const TYPO_SIMILARITY = 0.25;

/**
 * A dictionary word equal to `word`, as a range of the primary key's btree. Written `=`, PostgreSQL takes the
 * trigram GiST index, which also answers equality but slowly: 0.7 ms a word, and 683 ms for the 468 strings
 * one edit away from 'rian' and 'glas' in a dictionary of 60,000 words, against 0.5 ms for all of them here.
 */
const sameWord = (column: SQL, word: SQL) => sql`${column} >= ${word} AND ${column} <= ${word}`;

/** Words of at most this many letters are also corrected by a single edit (see `oneEditAway`). */
const SHORT_WORD = 7;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/**
 * The strings one edit away from a short word: its transpositions of two neighbouring letters ('rian' and
 * 'rain') and deletions of one letter (a few, `near`), and its substitutions and insertions of one letter
 * (some 50 a letter, `far`). Trigrams miss these in a short word: 'rian' and 'rain' share one trigram of
 * five (similarity 0.11), where 'brian' shares three.
 */
function oneEditAway(word: string): { swaps: string[]; deletions: string[]; far: string[] } {
  const swaps: string[] = [];
  const deletions: string[] = [];
  const far: string[] = [];
  for (let i = 0; i < word.length; i++) {
    const [head, tail] = [word.slice(0, i), word.slice(i + 1)];
    if (i + 1 < word.length && word[i] !== word[i + 1])
      swaps.push(`${head}${word[i + 1]}${word[i]}${word.slice(i + 2)}`);
    if (word.length > 3) deletions.push(head + tail);
    for (const letter of LETTERS) {
      if (letter !== word[i]) far.push(head + letter + tail);
      far.push(head + letter + word.slice(i));
    }
  }
  for (const letter of LETTERS) far.push(word + letter);
  return { swaps, deletions, far };
}

/** The trigrams of a word as pg_trgm makes them (two spaces before, one after). */
const trigramsOf = (word: string) => {
  const padded = `  ${word} `;
  return new Set(Array.from({ length: padded.length - 2 }, (_, i) => padded.slice(i, i + 3)));
};

/** pg_trgm's similarity of two words: the trigrams they share over the trigrams either has. */
function similarity(a: string, b: string): number {
  const [x, y] = [trigramsOf(a), trigramsOf(b)];
  const shared = [...x].filter((t) => y.has(t)).length;
  return shared / (x.size + y.size - shared);
}

/** The names' word among `list` most like `typed` (trigram similarity, then alphabetical), if any. */
const mostLike = (list: string[] | undefined, known: Set<string>, typed: string) =>
  list
    ?.filter((w) => known.has(w))
    .sort((a, b) => similarity(b, typed) - similarity(a, typed) || (a < b ? -1 : 1))[0];

/** The names' words among `strings`: probes of the dictionary's primary key. */
const knownWords = (rows: Row[]) => new Set(rows.map((r) => String(r.word)));
const KNOWN_AMONG = sql`SELECT s.word FROM unnest(${value.variants}::text[]) AS v(word)
  JOIN search_words s ON ${sameWord(sql`s.word`, sql`v.word`)}`;

/**
 * The text with each word (3+ letters) that no name contains replaced by a dictionary word (`fixed`, null when
 * no word changes), and whether a word is left that is neither a names' word nor near one (`unknownWord`).
 * A short word (up to `SHORT_WORD` letters) takes a names' word with two neighbouring letters swapped first
 * ('rian' is 'rain'), the commonest slip, which trigrams see least; otherwise each word takes the nearest
 * dictionary word by trigram similarity (its GiST index finds it directly), else a names' word one letter
 * shorter, else (a second statement, for such words only) one letter replaced or added, the most alike first.
 * The swaps and deletions of the short words are looked up in the first statement, a dozen probes of the
 * dictionary's primary key a word; the replacements and insertions (some 50 a letter) only when needed.
 */
async function correctedText(
  db: Database,
  q: string,
): Promise<{ fixed: string | null; unknownWord: boolean }> {
  const parts = q.match(/[a-z]+|[^a-z]+/g) ?? [];
  const words = [...new Set(parts.filter((part) => /^[a-z]{3,}$/.test(part)))].slice(0, 8);
  if (words.length === 0) return { fixed: null, unknownWord: false };
  const edits = new Map(words.filter((w) => w.length <= SHORT_WORD).map((w) => [w, oneEditAway(w)]));
  const variants = [...new Set([...edits.values()].flatMap((e) => [...e.swaps, ...e.deletions]))];
  const { rows } = await db.$repeated.run(
    "corrections",
    () => sql`
      SELECT typed.word AS typed,
        CASE WHEN similarity(nearest.word, typed.word) >= ${TYPO_SIMILARITY} THEN nearest.word END AS fixed
      FROM unnest(${value.words}::text[]) AS typed(word)
      LEFT JOIN LATERAL (SELECT s.word FROM search_words s ORDER BY s.word <-> typed.word LIMIT 1) nearest ON true
      WHERE NOT EXISTS (SELECT 1 FROM search_words known WHERE ${sameWord(sql`known.word`, sql`typed.word`)})
      UNION ALL
      SELECT NULL, k.word FROM (${KNOWN_AMONG}) k`,
    { words, variants },
  );
  const known = new Set(rows.filter((r) => r.typed === null).map((r) => String(r.fixed)));
  const fixes = new Map<string, string>();
  const unfixed: string[] = [];
  for (const row of rows) {
    if (row.typed === null) continue;
    const typed = String(row.typed);
    const near = edits.get(typed);
    const fix =
      mostLike(near?.swaps, known, typed) ??
      (row.fixed as string | null) ??
      mostLike(near?.deletions, known, typed);
    if (fix) fixes.set(typed, fix);
    else unfixed.push(typed);
  }
  const far = unfixed.flatMap((w) => edits.get(w)?.far ?? []);
  if (far.length > 0) {
    const found = knownWords(
      (await db.$repeated.run("corrections, one letter", () => KNOWN_AMONG, { variants: [...new Set(far)] }))
        .rows as Row[],
    );
    for (const typed of [...unfixed]) {
      const fix = mostLike(edits.get(typed)?.far, found, typed);
      if (fix) {
        fixes.set(typed, fix);
        unfixed.splice(unfixed.indexOf(typed), 1);
      }
    }
  }
  return {
    fixed: fixes.size > 0 ? parts.map((part) => fixes.get(part) ?? part).join("") : null,
    unknownWord: unfixed.length > 0,
  };
}

/** A result's identity: a collection's or profile's address, an item's collection and token id. */
const keyOf = (r: Row) => (r.token_id === undefined ? String(r.address) : `${r.collection}:${r.token_id}`);

/** `list` and then `more`, without repeating a result, at most a group's worth. */
function merged(list: Row[], more: Row[]): Row[] {
  const seen = new Set(list.map(keyOf));
  return [...list, ...more.filter((r) => !seen.has(keyOf(r)) && seen.add(keyOf(r)))].slice(
    0,
    SEARCH_GROUP_LIMIT,
  );
}

export async function search(db: Database, viewer: Viewer, text: string): Promise<SearchResponse["data"]> {
  const q = text.trim().toLowerCase();
  const prefix = `${escapeLike(q)}%`;
  const isAddressPrefix = /^0x[0-9a-f]{1,40}$/.test(q);
  const item = /^(.*?)\s*#\s*(\d{1,78})$/.exec(q);

  const [first, numbered] = await Promise.all([
    isAddressPrefix
      ? lookUp(
          db,
          `addresses ${audience(viewer)}`,
          () => ({ collections: collectionAddresses(viewer), profiles: profileAddresses() }),
          { hex: q, hexEnd: `${q}z` },
        )
      : namePrefixes(db, viewer, q),
    item || (isAddressPrefix && q.length === 42)
      ? db.execute(sql`
          SELECT ${ITEM_COLUMNS}
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
  let { collections, profiles } = first;
  // An item asked for by number or creator first, then items by name.
  let items = merged(numbered.rows as Row[], first.items);
  const add = (found: Found) => {
    collections = merged(collections, found.collections);
    profiles = merged(profiles, found.profiles);
    items = merged(items, found.items);
  };

  // Typos only when nothing matches the text exactly and the prefix matches leave the list short.
  const isExact = (text: string) =>
    collections.some((r) => String(r.name).toLowerCase() === text) ||
    items.some((r) => String(r.item_name).toLowerCase() === text) ||
    profiles.some((r) => profileIsNamed(r, text));
  const isShort = () => collections.length + profiles.length + items.length < SEARCH_GROUP_LIMIT;
  if (!isAddressPrefix && !isExact(q) && isShort()) {
    // First the typed words corrected against the dictionary, looked up like typed text (btree walks).
    const { fixed, unknownWord } = await correctedText(db, q);
    const text = fixed ?? q;
    const textPrefix = fixed ? `${escapeLike(fixed)}%` : prefix;
    if (fixed) add(await namePrefixes(db, viewer, fixed));
    // Then names that have the words anywhere (a surname, a second word): a full-text index lookup.
    const words = wordsQuery(text);
    if (words && !isExact(text) && isShort()) {
      const itemsLeft = SEARCH_GROUP_LIMIT - items.length;
      add(
        await lookUp(
          db,
          `words ${audience(viewer)} ${itemsLeft}`,
          () => ({
            collections: collectionWords(viewer, SEARCH_GROUP_LIMIT),
            profiles: profileWords(SEARCH_GROUP_LIMIT),
            items: itemsLeft > 0 ? itemWords(viewer, itemsLeft) : null,
          }),
          { words },
        ),
      );
    }
    // Last, names by trigram similarity, for a word the dictionary does not know or correct (glued words,
    // several typos in one). They read every name sharing enough trigrams with the text (thousands when names
    // look alike: 'neon q' and every 'Neon …'), so not when the words are the names' own.
    if (unknownWord && !isExact(text) && isShort()) {
      const collectionsLeft = SEARCH_GROUP_LIMIT - collections.length;
      const profilesLeft = SEARCH_GROUP_LIMIT - profiles.length;
      add(
        await lookUp(
          db,
          `typos ${audience(viewer)} ${collectionsLeft} ${profilesLeft}`,
          () => ({
            collections: collectionsLeft > 0 ? collectionTypos(viewer, collectionsLeft) : null,
            profiles: profilesLeft > 0 ? profileTypos(profilesLeft) : null,
          }),
          { q: text, prefix: textPrefix },
        ),
      );
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
    items: items.map((r) => ({
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
