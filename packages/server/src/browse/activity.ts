/**
 * A collection's history: its activity list (newest first, keyset pages over the chain's activity rows) and
 * its volume and floor per day for the chart.
 */
import type { ActivityFilter, ActivityRow, HistoryPoint, HistoryRange } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import { tokenName } from "../chain/rows.ts";
import { personColumns, personJoin, personOf } from "../community/people.ts";
import { type Database, literalInteger } from "../db/client.ts";
import { dateOf } from "../db/timestamps.ts";
import { ApiError } from "../errors.ts";
import { rowCount } from "./cards.ts";

/** The chain's activity kinds behind each filter people pick. */
const KINDS: Record<ActivityFilter, string[]> = {
  mint: ["mint"],
  list: ["list", "unlist", "auction", "auction_cancelled"],
  sale: ["sale"],
  bid: ["bid", "outbid"],
  offer: ["offer", "offer_cancelled", "offer_accepted"],
  transfer: ["transfer", "burn"],
};

type Cursor = { b: string; l: number; s: number };
const encodeCursor = (cursor: Cursor) => Buffer.from(JSON.stringify(cursor)).toString("base64url");
function decodeCursor(value: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(value, "base64url").toString()) as Cursor;
    if (/^\d{1,18}$/.test(cursor.b) && Number.isInteger(cursor.l) && Number.isInteger(cursor.s))
      return cursor;
  } catch {}
  throw new ApiError(400, "invalid_cursor", "cursor: not a cursor of this list", {
    cursor: "Invalid cursor",
  });
}

export async function collectionActivity(
  db: Database,
  collection: { address: string; name: string },
  options: { kind?: ActivityFilter | undefined; limit: number; cursor?: string | undefined },
): Promise<{ activity: ActivityRow[]; nextCursor: string | null }> {
  const where: SQL[] = [sql`a.collection = ${collection.address}`];
  if (options.kind)
    where.push(
      sql`a.kind IN (${sql.join(
        KINDS[options.kind].map((k) => sql`${k}`),
        sql`, `,
      )})`,
    );
  if (options.cursor) {
    const c = decodeCursor(options.cursor);
    where.push(sql`(a.block_number, a.log_index, a.seq) < (${c.b}::bigint, ${c.l}::int, ${c.s}::int)`);
  }
  // Each row comes with its item's title (the metadata its token was minted from) and the names of the people
  // it names: one statement for the page, however many people it shows.
  const { rows } = await db.$repeated.execute<Record<string, unknown>>(sql`
    SELECT a.block_number, a.log_index, a.seq, a.kind, a.token_id, a."from", a."to", a.price, a.tx_hash,
      a.block_time, m.name AS item_name, ${personColumns("pf", "from")}, ${personColumns("pt", "to")}
    FROM chain_activity a
    LEFT JOIN chain_tokens t ON t.collection = a.collection AND t.token_id = a.token_id
    LEFT JOIN item_metadata m ON m.cid = t.cid
    ${personJoin("pf", sql`a."from"`)}
    ${personJoin("pt", sql`a."to"`)}
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY a.block_number DESC, a.log_index DESC, a.seq DESC
    LIMIT ${literalInteger(rowCount(options.limit + 1))}`);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    activity: page.map((row) => ({
      kind: String(row.kind),
      tokenId: row.token_id == null ? null : String(row.token_id),
      itemName:
        row.token_id == null
          ? null
          : ((row.item_name as string | null) ?? tokenName(collection.name, String(row.token_id))),
      from: (row.from as string | null) ?? null,
      to: (row.to as string | null) ?? null,
      fromPerson: personOf(row, "from", row.from),
      toPerson: personOf(row, "to", row.to),
      priceWei: row.price == null ? null : String(row.price),
      txHash: String(row.tx_hash),
      time: dateOf(row.block_time).toISOString(),
    })),
    nextCursor:
      rows.length > options.limit && last
        ? encodeCursor({ b: String(last.block_number), l: Number(last.log_index), s: Number(last.seq) })
        : null,
  };
}

const RANGE_DAYS: Record<Exclude<HistoryRange, "all">, number> = { "7d": 7, "30d": 30, "90d": 90 };
/** "all" starts at the collection's creation, at most this many days back. */
const MAX_DAYS = 730;

/**
 * Volume and sales per UTC day, and the floor at each day's end: the lowest price among the fixed-price
 * listings open then. A listing is open from its `list` row until the token's next change (a new price,
 * unlist, sale, transfer, auction or burn). A listing whose term ran out without an event still counts until
 * that next change: the chain records no event when a term ends.
 */
export async function collectionHistory(
  db: Database,
  collection: { address: string; createdAt: Date },
  range: HistoryRange,
): Promise<HistoryPoint[]> {
  const dayMs = 86_400_000;
  const today = Math.floor(Date.now() / dayMs) * dayMs;
  const days =
    range === "all"
      ? Math.min(MAX_DAYS, Math.floor((today - collection.createdAt.getTime()) / dayMs) + 1)
      : RANGE_DAYS[range];
  const from = new Date(today - (Math.max(days, 1) - 1) * dayMs).toISOString();
  const { rows } = await db.$repeated.execute<{
    day: string;
    volume: string;
    sales: number;
    floor: string | null;
  }>(sql`
    WITH changes AS (
      SELECT kind, price, block_time,
        lead(block_time) OVER (PARTITION BY token_id ORDER BY block_number, log_index, seq) AS until
      FROM chain_activity
      WHERE collection = ${collection.address}
        AND kind IN ('list', 'unlist', 'sale', 'transfer', 'auction', 'burn')
    ), listings AS (
      SELECT price, block_time AS since, until FROM changes WHERE kind = 'list'
    ), days AS (
      SELECT d AS day, d + interval '1 day' AS day_end
      FROM generate_series(${from}::timestamptz, ${new Date(today).toISOString()}::timestamptz, interval '1 day') d
    )
    SELECT to_char(days.day AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
      coalesce((SELECT sum(s.price) FROM chain_sales s
                WHERE s.collection = ${collection.address}
                  AND s.block_time >= days.day AND s.block_time < days.day_end), 0)::text AS volume,
      (SELECT count(*) FROM chain_sales s
        WHERE s.collection = ${collection.address}
          AND s.block_time >= days.day AND s.block_time < days.day_end)::int AS sales,
      (SELECT min(l.price) FROM listings l
        WHERE l.since < days.day_end AND (l.until IS NULL OR l.until >= days.day_end))::text AS floor
    FROM days ORDER BY days.day`);
  return rows.map((row) => ({
    day: row.day,
    volumeWei: row.volume,
    sales: Number(row.sales),
    floorWei: row.floor,
  }));
}
