/**
 * Lists of NFT cards (explore and the collection page): filters, the eight sorts and keyset pages. Each
 * sort walks an index in order — (key, collection, token_id) — and a page continues strictly after the
 * previous page's last row, so deep pages cost what the first costs and nothing is skipped or repeated
 * while rows change.
 */
import type { ItemSort, ItemStatus, NftCard } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import { parseEther } from "viem";
import type { Database } from "../db/client.ts";
import { ApiError } from "../errors.ts";
import { NFT_CARD_COLUMNS, NFT_CARD_JOINS, toNftCards, type Viewer, visibleToken } from "./cards.ts";

type SortSpec = {
  /** The sort key as SQL over the card query's aliases. */
  key: SQL;
  /** The key as the cursor stores it. */
  keyOf: (row: Record<string, unknown>) => string;
  /** SQL turning the cursor's key back into a comparable value. */
  cast: (value: string) => SQL;
  direction: "asc" | "desc";
  /** Rows without a key are not in this sort's list (nothing listed has no price). */
  present?: SQL;
};

const timeKey = (row: Record<string, unknown>, column: string) => new Date(String(row[column])).toISOString();

const SORTS: Record<ItemSort, SortSpec> = {
  none: {
    key: sql`t.minted_block`,
    keyOf: (row) => String(row.minted_block),
    cast: (v) => sql`${v}::bigint`,
    direction: "asc",
  },
  recentlyCreated: {
    key: sql`t.minted_block`,
    keyOf: (row) => String(row.minted_block),
    cast: (v) => sql`${v}::bigint`,
    direction: "desc",
  },
  recentlyListed: {
    key: sql`t.listed_at`,
    keyOf: (row) => timeKey(row, "listed_at"),
    cast: (v) => sql`${v}::timestamptz`,
    direction: "desc",
    present: sql`t.listed_at IS NOT NULL`,
  },
  recentlySold: {
    key: sql`t.sold_at`,
    keyOf: (row) => timeKey(row, "sold_at"),
    cast: (v) => sql`${v}::timestamptz`,
    direction: "desc",
    present: sql`t.sold_at IS NOT NULL`,
  },
  priceLowToHigh: {
    key: sql`t.price`,
    keyOf: (row) => String(row.price),
    cast: (v) => sql`${v}::numeric`,
    direction: "asc",
    present: sql`t.price IS NOT NULL`,
  },
  priceHighToLow: {
    key: sql`t.price`,
    keyOf: (row) => String(row.price),
    cast: (v) => sql`${v}::numeric`,
    direction: "desc",
    present: sql`t.price IS NOT NULL`,
  },
  mostViewed: {
    key: sql`coalesce(st.views, 0)`,
    keyOf: (row) => String(row.views),
    cast: (v) => sql`${v}::int`,
    direction: "desc",
  },
  mostFavorited: {
    key: sql`coalesce(st.favorites, 0)`,
    keyOf: (row) => String(row.favorites),
    cast: (v) => sql`${v}::int`,
    direction: "desc",
  },
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
};

/** Buyable only when the listing is live and its seller is not banned. */
const BUY_NOW = sql`t.status = 'fix' AND so.expires_at > now()
  AND NOT EXISTS (SELECT 1 FROM chain_accounts ba WHERE ba.address = t.owner AND ba.banned)`;
const LIVE_AUCTION = sql`t.status = 'auction' AND au.end_time > now()
  AND NOT EXISTS (SELECT 1 FROM chain_accounts ba WHERE ba.address = t.owner AND ba.banned)`;
const RESERVE_NOT_MET = sql`t.status = 'auction' AND au.kind = 'reserve' AND au.top_bid IS NULL
  AND NOT EXISTS (SELECT 1 FROM chain_accounts ba WHERE ba.address = t.owner AND ba.banned)`;
const HAS_OFFERS = sql`EXISTS (SELECT 1 FROM chain_offers o
  WHERE o.collection = t.collection AND o.token_id = t.token_id AND o.status = 'active')`;

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

type Cursor = { k: string; c: string; t: string };

export const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString("base64url");

function decodeCursor(value: string): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Cursor;
    if (
      typeof parsed.k === "string" &&
      /^[0-9A-Za-z:.\-+]{1,80}$/.test(parsed.k) &&
      /^0x[0-9a-f]{40}$/.test(parsed.c) &&
      /^\d{1,78}$/.test(parsed.t)
    ) {
      return parsed;
    }
  } catch {}
  throw new ApiError(400, "invalid_request", "cursor is invalid", { cursor: "cursor is invalid" });
}

const wei = (eth: string) => parseEther(eth).toString();

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
  if (filters.minPrice !== undefined) where.push(sql`t.price >= ${wei(filters.minPrice)}::numeric`);
  if (filters.maxPrice !== undefined) where.push(sql`t.price <= ${wei(filters.maxPrice)}::numeric`);
  if (filters.collection) where.push(sql`t.collection = ${filters.collection}`);
  if (filters.creator) where.push(sql`t.creator = ${filters.creator}`);
  if (filters.category !== undefined) {
    where.push(sql`EXISTS (SELECT 1 FROM collection_details d
      WHERE d.address = t.collection AND d.category_id = ${filters.category})`);
  }
  const asc = sort.direction === "asc";
  if (options.cursor) {
    const cursor = decodeCursor(options.cursor);
    const after = sql`(${sort.key}, t.collection, t.token_id) ${asc ? sql`>` : sql`<`} (${sort.cast(cursor.k)}, ${cursor.c}, ${cursor.t}::numeric)`;
    where.push(after);
  }
  const direction = asc ? sql`ASC` : sql`DESC`;
  const query = sql`
    SELECT ${NFT_CARD_COLUMNS}
    FROM chain_tokens t
    JOIN chain_collections c ON c.address = t.collection
    ${NFT_CARD_JOINS}
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY ${sort.key} ${direction}, t.collection ${direction}, t.token_id ${direction}
    LIMIT ${limit + 1}`;
  const { rows } = await db.execute(query);
  const page = rows.slice(0, limit) as Record<string, unknown>[];
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last
      ? encodeCursor({ k: sort.keyOf(last), c: String(last.collection), t: String(last.token_id) })
      : null;
  return { nfts: await toNftCards(db, page), nextCursor };
}
