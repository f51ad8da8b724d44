/**
 * Lists of NFT cards (explore and the collection page): filters, the eight sorts and keyset pages. Each
 * sort walks an index in order — (key, collection, token_id) — and a page continues strictly after the
 * previous page's last row, so deep pages cost what the first costs and nothing is skipped or repeated
 * while rows change.
 */
import type { ItemSort, ItemStatus, NftCard } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import { parseEther } from "viem";
import { LIVE_OFFER } from "../chain/rows.ts";
import { type Database, literalInteger } from "../db/client.ts";
import { shortLived } from "../db/shortLived.ts";
import { dateOf } from "../db/timestamps.ts";
import { ApiError } from "../errors.ts";
import {
  NFT_CARD_COLUMNS,
  NFT_CARD_JOINS,
  rowCount,
  toNftCards,
  type Viewer,
  visibleToken,
} from "./cards.ts";
import { hasTrait, type TraitFilter } from "./traits.ts";

type SortSpec = {
  /** The sort key as SQL over the card query's aliases. */
  key: SQL;
  /** The key as the cursor stores it, from a card row. */
  keyOf: (row: Record<string, unknown>) => string;
  /** Whether a cursor's key is a value of this sort's type (anything else is a 400, not a failed cast). */
  valid: (value: string) => boolean;
  /** SQL turning the cursor's key back into a comparable value. */
  cast: (value: string) => SQL;
  direction: "asc" | "desc";
  /** Rows without a key are not in this sort's list (nothing listed has no price). */
  present?: SQL;
  /** A count kept in `item_stats`: the list walks that table's index, then the tokens counted zero. */
  counted?: "views" | "favorites";
};

const digits = (max: number) => (value: string) => new RegExp(`^\\d{1,${max}}$`).test(value);

/** Sorts by a whole-number column: block numbers (bigint) or counts (int). */
const byInteger = (
  key: SQL,
  column: string,
  type: "bigint" | "int",
  direction: "asc" | "desc",
): SortSpec => ({
  key,
  keyOf: (row) => String(row[column]),
  valid: digits(type === "bigint" ? 18 : 9),
  cast: (v) => (type === "bigint" ? sql`${v}::bigint` : sql`${v}::int`),
  direction,
});

/** Sorts by a time column, newest first; rows without it are left out. */
const byTime = (column: "listed_at" | "sold_at"): SortSpec => ({
  key: sql.raw(`t.${column}`),
  keyOf: (row) => dateOf(row[column]).toISOString(),
  valid: (v) => Number.isFinite(Date.parse(v)) && new Date(v).toISOString() === v,
  cast: (v) => sql`${v}::timestamptz`,
  direction: "desc",
  present: sql.raw(`t.${column} IS NOT NULL`),
});

/** Sorts by the current price; tokens not on sale are left out. */
const byPrice = (direction: "asc" | "desc"): SortSpec => ({
  key: sql`t.price`,
  keyOf: (row) => String(row.price),
  valid: digits(78),
  cast: (v) => sql`${v}::numeric`,
  direction,
  present: sql`t.price IS NOT NULL`,
});

/**
 * Ending soon: live auctions with an end (a reserve auction has none until its first bid), soonest first, on
 * their end's index (`chain_tokens_auction_end_idx`), from now on; a banned seller's auction is left out, as
 * from the Live auction filter.
 */
const ENDING_SOON: SortSpec = {
  key: sql`t.auction_end`,
  keyOf: (row) => dateOf(row.auction_end).toISOString(),
  valid: (v) => Number.isFinite(Date.parse(v)) && new Date(v).toISOString() === v,
  cast: (v) => sql`${v}::timestamptz`,
  direction: "asc",
  present: sql`t.auction_end > now() AND t.status = 'auction'
    AND NOT EXISTS (SELECT 1 FROM chain_accounts ba WHERE ba.address = t.owner AND ba.banned)`,
};

const SORTS: Record<ItemSort, SortSpec> = {
  none: byInteger(sql`t.minted_block`, "minted_block", "bigint", "asc"),
  recentlyCreated: byInteger(sql`t.minted_block`, "minted_block", "bigint", "desc"),
  recentlyListed: byTime("listed_at"),
  recentlySold: byTime("sold_at"),
  priceLowToHigh: byPrice("asc"),
  priceHighToLow: byPrice("desc"),
  mostViewed: { ...byInteger(sql`coalesce(st.views, 0)`, "views", "int", "desc"), counted: "views" },
  mostFavorited: {
    ...byInteger(sql`coalesce(st.favorites, 0)`, "favorites", "int", "desc"),
    counted: "favorites",
  },
  endingSoon: ENDING_SOON,
};

export type ItemFilters = {
  status?: ItemStatus;
  /** Collection page tabs. */
  tab?: "liveAuction" | "buyNow" | "offer";
  minPrice?: string;
  maxPrice?: string;
  category?: number;
  collection?: string;
  creator?: string;
  /** The collection page's trait filter (an EXISTS probe of `item_traits`, see browse/traits.ts). */
  trait?: TraitFilter;
};

/** On sale only while the seller is not banned: the market refuses a banned seller's sale. */
const SELLER_NOT_BANNED = sql`NOT EXISTS (SELECT 1 FROM chain_accounts ba WHERE ba.address = t.owner AND ba.banned)`;
// Each status is a test of the token row itself (the indexer copies the active listing's end, the auction's
// kind and end and the current offer onto it), so a list filtered by status walks its sort's index and
// looks nowhere else for the tokens it passes over: Has offers once probed the offers of every token it
// walked (about ten for each one shown), Reserve not yet met the auction of each token in one.
/** Buyable only when the listing is live: a listed token, or an unsold lazy item (minted at purchase). */
const BUY_NOW = sql`t.status IN ('fix', 'lazy') AND t.listing_expires_at > now() AND ${SELLER_NOT_BANNED}`;
const LIVE_AUCTION = sql`t.status = 'auction' AND t.auction_end > now() AND ${SELLER_NOT_BANNED}`;
/** A reserve auction has no end until its first bid, which must reach the reserve. */
const RESERVE_NOT_MET = sql`t.status = 'auction' AND t.auction_kind = 'reserve' AND t.auction_end IS NULL AND ${SELLER_NOT_BANNED}`;
/** A live offer: an offer past its expiry can no longer be accepted (no event says so). */
const HAS_OFFERS = sql`t.offer IS NOT NULL AND ${LIVE_OFFER}`;

const STATUS_FILTERS: Record<ItemStatus, SQL> = {
  buyNow: BUY_NOW,
  liveAuction: LIVE_AUCTION,
  reserveNotMet: RESERVE_NOT_MET,
  hasOffers: HAS_OFFERS,
  lazy: sql`t.lazy`,
};

const TAB_FILTERS: Record<NonNullable<ItemFilters["tab"]>, SQL> = {
  // Every auction of the collection: running, not started yet, or a reserve waiting for its first bid.
  liveAuction: sql`t.status = 'auction'`,
  buyNow: BUY_NOW,
  offer: HAS_OFFERS,
};

/** A keyset cursor: the sort it belongs to, and the last row's key, collection and token id. */
type Cursor = { s: ItemSort; k: string; c: string; t: string };

const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString("base64url");

/** A cursor of this sort as a previous page gave it, or a 400 (a cursor from another sort included). */
function decodeCursor(value: string, sort: ItemSort): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Cursor;
    if (
      parsed.s === sort &&
      typeof parsed.k === "string" &&
      SORTS[sort].valid(parsed.k) &&
      /^0x[0-9a-f]{40}$/.test(parsed.c) &&
      /^\d{1,78}$/.test(parsed.t)
    ) {
      return parsed;
    }
  } catch {}
  throw new ApiError(400, "invalid_request", "cursor is invalid", { cursor: "cursor is invalid" });
}

const wei = (eth: string) => parseEther(eth).toString();

/** The artwork types' ids (a few dozen rows), read at most once a minute. */
const categoryList = shortLived<Set<number>>(60_000);

/** Whether an artwork type exists: from the list, else (one made within the minute) from its row. */
async function categoryExists(db: Database, id: number): Promise<boolean> {
  const known = await categoryList.get(db, "ids", async () => {
    const { rows } = await db.execute<{ id: number }>(sql`SELECT id FROM categories`);
    return new Set(rows.map((row) => Number(row.id)));
  });
  if (known.has(id)) return true;
  const { rows } = await db.execute(sql`SELECT 1 FROM categories WHERE id = ${id}`);
  return rows.length > 0;
}

export async function listItems(
  db: Database,
  viewer: Viewer,
  options: { filters: ItemFilters; sort: ItemSort; limit: number; cursor?: string },
): Promise<{ nfts: NftCard[]; nextCursor: string | null }> {
  const { filters, limit } = options;
  const sort = SORTS[options.sort];
  const where: SQL[] = [visibleToken(viewer)];
  if (sort.present) where.push(sort.present);
  if (filters.status) where.push(STATUS_FILTERS[filters.status]);
  if (filters.tab) where.push(TAB_FILTERS[filters.tab]);
  const hasPriceRange = filters.minPrice !== undefined || filters.maxPrice !== undefined;
  const sortedByPrice = options.sort === "priceLowToHigh" || options.sort === "priceHighToLow";
  if (sortedByPrice) {
    // Sorted by price, the bounds are where the walk of the price index starts and stops. Written as row
    // comparisons, like a cursor, the bounds are still the index's range, but a prepared plan (made without
    // their values) expects a wide range and walks it in order: two plain bounds make it assume a narrow one,
    // read the range through a bitmap and sort it all (145 ms for 5,000 tokens of a category).
    // (price, collection) >= (min, '') is price >= min; (price, collection) < (max + 1, '') is price <= max,
    // prices being whole wei and every address sorting after ''.
    if (filters.minPrice !== undefined)
      where.push(sql`(t.price, t.collection) >= (${wei(filters.minPrice)}::numeric, '')`);
    if (filters.maxPrice !== undefined)
      where.push(sql`(t.price, t.collection) < (${wei(filters.maxPrice)}::numeric + 1, '')`);
  } else {
    if (filters.minPrice !== undefined) where.push(sql`t.price >= ${wei(filters.minPrice)}::numeric`);
    if (filters.maxPrice !== undefined) where.push(sql`t.price <= ${wei(filters.maxPrice)}::numeric`);
  }
  if (filters.collection) where.push(sql`t.collection = ${filters.collection}`);
  if (filters.creator) where.push(sql`t.creator = ${filters.creator}`);
  if (filters.trait) where.push(hasTrait(filters.trait));
  let planned: Planned = "repeated";
  // Only a category that exists is written into a statement: any other number made a new statement shape for
  // each request (and holds no token anyway).
  if (filters.category !== undefined && !(await categoryExists(db, filters.category)))
    return { nfts: [], nextCursor: null };
  if (filters.category !== undefined) {
    // Each token carries its collection's category (kept by triggers, migration 0015), and each sort has an
    // index that starts with the category. The category is written into the statement, so its plan is made
    // for that category (with its size from the statistics, PostgreSQL takes a range of that index, or walks
    // the sort's own index for a large category), and made once per connection. A plan made once for any
    // category walks every token for a small one (400 ms at 1,000,000 items) or intersects bitmaps for a
    // large one (80 ms). Prepared, the page is one card query, like the usual filters. A price range under
    // another sort is planned for each request: how narrow it is decides between walking the sort's index
    // and reading the range.
    where.push(sql`t.category_id = ${literalInteger(filters.category)}`);
    if (hasPriceRange && !sortedByPrice) planned = "each";
  }
  const cursor = options.cursor ? decodeCursor(options.cursor, options.sort) : null;
  const rows = sort.counted
    ? await countedPage(db, where, sort.counted, cursor, limit, planned)
    : await sortedPage(db, where, sort, cursor, limit, planned);
  const page = rows.slice(0, limit) as Record<string, unknown>[];
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last
      ? encodeCursor({
          s: options.sort,
          k: sort.keyOf(last),
          c: String(last.collection),
          t: String(last.token_id),
        })
      : null;
  return { nfts: await toNftCards(db, page, viewer), nextCursor };
}

/** The card rows of one page: the filters, then strictly after the cursor in the sort's order. */
async function sortedPage(
  db: Database,
  where: SQL[],
  sort: SortSpec,
  cursor: Cursor | null,
  limit: number,
  planned: Planned,
) {
  const asc = sort.direction === "asc";
  const conditions = [...where];
  if (cursor) {
    conditions.push(
      sql`(${sort.key}, t.collection, t.token_id) ${asc ? sql`>` : sql`<`} (${sort.cast(cursor.k)}, ${cursor.c}, ${cursor.t}::numeric)`,
    );
  }
  const direction = asc ? sql`ASC` : sql`DESC`;
  return cardRows(
    db,
    conditions,
    sql`${sort.key} ${direction}, t.collection ${direction}, t.token_id ${direction}`,
    limit + 1,
    planned,
  );
}

/**
 * A page of Most viewed or Most favorited. Ordering every token by a count would read them all, so the list
 * has two parts in one order: the counted tokens, walking `item_stats`' (count, collection, token_id) index,
 * then the tokens counted zero, walking the tokens' primary key backwards. A cursor with a zero count is in
 * the second part.
 */
async function countedPage(
  db: Database,
  where: SQL[],
  column: "views" | "favorites",
  cursor: Cursor | null,
  limit: number,
  planned: Planned,
) {
  const count = sql.raw(`st.${column}`);
  const rows: Record<string, unknown>[] = [];
  if (cursor?.k !== "0") {
    const counted = [...where, sql`${count} > 0`];
    if (cursor) {
      counted.push(
        sql`(${count}, st.collection, st.token_id) < (${cursor.k}::int, ${cursor.c}, ${cursor.t}::numeric)`,
      );
    }
    rows.push(
      ...(await cardRows(
        db,
        counted,
        sql`${count} DESC, st.collection DESC, st.token_id DESC`,
        limit + 1,
        planned,
      )),
    );
  }
  if (rows.length <= limit) {
    const zero = [...where, sql`coalesce(${count}, 0) = 0`];
    if (cursor?.k === "0") zero.push(sql`(t.collection, t.token_id) < (${cursor.c}, ${cursor.t}::numeric)`);
    rows.push(
      ...(await cardRows(
        db,
        zero,
        sql`t.collection DESC, t.token_id DESC`,
        limit + 1 - rows.length,
        planned,
      )),
    );
  }
  return rows;
}

/**
 * How a page is read: in one card query planned once and reused ("repeated": every list whose best plan does
 * not depend on the values), or ("each": a price range under a sort other than price, with a category, whose
 * values decide the plan) in two steps, the page's keys by a query planned for this request, then their cards.
 */
type Planned = "repeated" | "each";

async function cardRows(db: Database, where: SQL[], order: SQL, limit: number, planned: Planned) {
  if (planned === "each") return keysThenCards(db, where, order, limit);
  const { rows } = await db.$repeated.execute(sql`
    SELECT ${NFT_CARD_COLUMNS}
    FROM chain_tokens t
    JOIN chain_collections c ON c.address = t.collection
    ${NFT_CARD_JOINS}
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${order}
    LIMIT ${literalInteger(rowCount(limit))}`);
  // A few more rows than asked for, at most: the callers take what they need in order.
  return rows as Record<string, unknown>[];
}

/**
 * A page in two steps: the page's keys by a query with only the joins its filters and order need, planned for
 * this request (planning the whole card query costs about 40 ms), then the cards of those keys through the
 * card query planned once.
 */
async function keysThenCards(db: Database, where: SQL[], order: SQL, limit: number) {
  const { rows: keys } = await db.execute<{ collection: string; token_id: string }>(sql`
    SELECT t.collection, t.token_id
    FROM chain_tokens t
    JOIN chain_collections c ON c.address = t.collection
    LEFT JOIN item_stats st ON st.collection = t.collection AND st.token_id = t.token_id
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${order}
    LIMIT ${literalInteger(limit)}`);
  if (keys.length === 0) return [];
  const { rows } = await db.$repeated.execute(sql`
    SELECT ${NFT_CARD_COLUMNS}
    FROM unnest(${sql.param(keys.map((k) => k.collection))}::text[], ${sql.param(keys.map((k) => String(k.token_id)))}::numeric[]) AS page(collection, token_id)
    JOIN chain_tokens t ON t.collection = page.collection AND t.token_id = page.token_id
    JOIN chain_collections c ON c.address = t.collection
    ${NFT_CARD_JOINS}`);
  const position = new Map(keys.map((k, i) => [`${k.collection}:${k.token_id}`, i]));
  const at = (row: Record<string, unknown>) => position.get(`${row.collection}:${row.token_id}`) ?? 0;
  return (rows as Record<string, unknown>[]).sort((a, b) => at(a) - at(b));
}

/**
 * The newest `perCollection` NFTs of each collection (the home page's sliders), for visitors, in one query.
 */
export async function latestItemsOf(
  db: Database,
  collections: string[],
  perCollection: number,
): Promise<Map<string, NftCard[]>> {
  const byCollection = new Map<string, NftCard[]>(collections.map((address) => [address, []]));
  if (collections.length === 0) return byCollection;
  const visitor: Viewer = { address: null, moderator: false };
  const { rows } = await db.$repeated.execute(sql`
    SELECT x.* FROM unnest(${sql.param(collections)}::text[]) AS h(address)
    CROSS JOIN LATERAL (
      SELECT ${NFT_CARD_COLUMNS}
      FROM chain_tokens t
      JOIN chain_collections c ON c.address = t.collection
      ${NFT_CARD_JOINS}
      WHERE t.collection = h.address AND ${visibleToken(visitor)}
      ORDER BY t.minted_block DESC, t.collection DESC, t.token_id DESC
      LIMIT ${literalInteger(perCollection)}
    ) x`);
  for (const card of await toNftCards(db, rows as Record<string, unknown>[], visitor)) {
    byCollection.get(card.collection.address)?.push(card);
  }
  return byCollection;
}
