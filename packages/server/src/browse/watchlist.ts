/**
 * A member's watchlist (the profile's Favourites tab, `GET /api/watchlist`): every item they hearted, latest
 * first, each as its card (price, auction and its end, status) with when it last sold and an auction's top
 * bid. The alerts about them are the indexer's (`indexer/notifications.ts`, watchers) and the worker's
 * (`worker/endingSoon.ts`).
 */
import type { WatchedItem } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import { type Database, literalInteger } from "../db/client.ts";
import { isoOf } from "../db/timestamps.ts";
import { ApiError } from "../errors.ts";
import { NFT_CARD_COLUMNS, NFT_CARD_JOINS, rowCount, toNftCards, visibleToken } from "./cards.ts";

type Cursor = { t: string; c: string; i: string };
const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString("base64url");
function decodeCursor(value: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(value, "base64url").toString()) as Cursor;
    if (
      typeof cursor.t === "string" &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/.test(cursor.t) &&
      !Number.isNaN(Date.parse(cursor.t)) &&
      /^0x[0-9a-f]{40}$/.test(cursor.c) &&
      /^\d{1,78}$/.test(cursor.i)
    )
      return cursor;
  } catch {}
  throw new ApiError(400, "invalid_cursor", "cursor: not a cursor of this list", {
    cursor: "Invalid cursor",
  });
}

/** One page of `address`'s watchlist, and how many items it holds in all. */
export async function watchlist(
  db: Database,
  address: string,
  options: { limit: number; cursor?: string | undefined },
): Promise<{ items: WatchedItem[]; total: number; nextCursor: string | null }> {
  const viewer = { address, moderator: false };
  const where: SQL[] = [sql`f.address = ${address}`, visibleToken(viewer)];
  if (options.cursor) {
    const c = decodeCursor(options.cursor);
    // Microseconds kept: the cursor is the favourite's time as PostgreSQL stores it.
    where.push(
      sql`(f.created_at, f.collection, f.token_id) < (${c.t}::timestamptz, ${c.c}, ${c.i}::numeric)`,
    );
  }
  const [{ rows }, { rows: counted }] = await Promise.all([
    db.$repeated.execute<Record<string, unknown>>(sql`
      SELECT ${NFT_CARD_COLUMNS}, to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS favorited_at,
        au.top_bid::text AS top_bid
      FROM item_favorites f
      JOIN chain_tokens t ON t.collection = f.collection AND t.token_id = f.token_id
      JOIN chain_collections c ON c.address = t.collection
      ${NFT_CARD_JOINS}
      LEFT JOIN chain_auctions au ON au.collection = t.collection AND au.token_id = t.token_id AND au.status = 'active'
      WHERE ${sql.join(where, sql` AND `)}
      ORDER BY f.created_at DESC, f.collection DESC, f.token_id DESC
      LIMIT ${literalInteger(rowCount(options.limit + 1))}`),
    db.$repeated.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM item_favorites f
      JOIN chain_tokens t ON t.collection = f.collection AND t.token_id = f.token_id
      JOIN chain_collections c ON c.address = t.collection
      WHERE f.address = ${address} AND ${visibleToken(viewer)}`),
  ]);
  const page = rows.slice(0, options.limit);
  const cards = await toNftCards(db, page, viewer);
  const last = page.at(-1);
  return {
    items: cards.map((card, i) => {
      const row = page[i] as Record<string, unknown>;
      return {
        ...card,
        favoritedAt: String(row.favorited_at),
        soldAt: isoOf(row.sold_at),
        topBidWei: card.status === "auction" ? ((row.top_bid as string | null) ?? null) : null,
      };
    }),
    total: counted[0]?.n ?? 0,
    nextCursor:
      rows.length > options.limit && last
        ? encodeCursor({
            t: String(last.favorited_at),
            c: String(last.collection),
            i: String(last.token_id),
          })
        : null,
  };
}
