/**
 * The market-wide activity feed (`GET /api/activity`, the web app's `/activity`): sales, listings, bids and
 * offers across every collection, newest first, in keyset pages over the chain's activity rows.
 */
import type { FeedKind, FeedRow } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import { OWNS_NAME, slugOf, tokenName } from "../chain/rows.ts";
import { personColumns, personJoin, personOf } from "../community/people.ts";
import { type Database, literalInteger } from "../db/client.ts";
import { dateOf } from "../db/timestamps.ts";
import { ApiError } from "../errors.ts";
import { rowCount } from "./cards.ts";

/**
 * The chain's activity kinds behind each kind of the feed. An auction started is a listing; the rows that
 * only follow another (an outbid beside its bid, an accepted offer beside its sale) and withdrawals are not
 * shown: the feed is what the market is doing.
 */
export const FEED_CHAIN_KINDS: Record<FeedKind, string[]> = {
  sale: ["sale"],
  list: ["list", "auction"],
  bid: ["bid"],
  offer: ["offer"],
};
const ALL_KINDS = Object.values(FEED_CHAIN_KINDS).flat();

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

/**
 * One page of the feed. Each chain kind is read apart, on `chain_activity_kind_idx` (kind, block, log, row)
 * from the cursor down (or on the collection's index when one is named), and the parts are merged: a page
 * costs the same at any depth, and a rare kind (offers) is not found by walking every other row. Blocked
 * collections and items are left out, as everywhere people browse.
 */
export async function activityFeed(
  db: Database,
  options: {
    kind?: FeedKind | undefined;
    collection?: string | undefined;
    limit: number;
    cursor?: string | undefined;
  },
): Promise<{ activity: FeedRow[]; nextCursor: string | null }> {
  const take = literalInteger(rowCount(options.limit + 1));
  const kinds = options.kind ? FEED_CHAIN_KINDS[options.kind] : ALL_KINDS;
  const where: SQL[] = [
    sql`NOT EXISTS (SELECT 1 FROM chain_collections bc WHERE bc.address = a.collection AND bc.blocked)`,
    sql`NOT EXISTS (SELECT 1 FROM chain_tokens bt
      WHERE bt.collection = a.collection AND bt.token_id = a.token_id AND bt.blocked)`,
  ];
  if (options.collection) where.push(sql`a.collection = ${options.collection}`);
  if (options.cursor) {
    const c = decodeCursor(options.cursor);
    where.push(sql`(a.block_number, a.log_index, a.seq) < (${c.b}::bigint, ${c.l}::int, ${c.s}::int)`);
  }
  const parts = kinds.map(
    (kind) => sql`(SELECT a.* FROM chain_activity a
      WHERE a.kind = ${kind} AND ${sql.join(where, sql` AND `)}
      ORDER BY a.block_number DESC, a.log_index DESC, a.seq DESC LIMIT ${take})`,
  );
  const { rows } = await db.$repeated.execute<Record<string, unknown>>(sql`
    SELECT a.block_number, a.log_index, a.seq, a.kind, a.collection, a.token_id::text AS token_id, a."from",
      a."to", a.price::text AS price, a.tx_hash, a.block_time, c.name, c.address, c.kind AS collection_kind,
      coalesce(t.creator, t.owner, c.owner) AS creator, m.name AS item_name, am.thumbnail_cid, ${OWNS_NAME},
      ${personColumns("pf", "from")}, ${personColumns("pt", "to")}
    FROM (${sql.join(parts, sql` UNION ALL `)}) a
    JOIN chain_collections c ON c.address = a.collection
    LEFT JOIN chain_tokens t ON t.collection = a.collection AND t.token_id = a.token_id
    LEFT JOIN item_metadata m ON m.cid = t.cid
    LEFT JOIN media am ON am.cid = m.media_cid
    ${personJoin("pf", sql`a."from"`)}
    ${personJoin("pt", sql`a."to"`)}
    ORDER BY a.block_number DESC, a.log_index DESC, a.seq DESC
    LIMIT ${take}`);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return {
    activity: page.map((row) => {
      const tokenId = String(row.token_id);
      const collectionName = String(row.name);
      return {
        id: `${row.block_number}:${row.log_index}:${row.seq}`,
        kind: String(row.kind),
        collection: { address: String(row.collection), name: collectionName },
        tokenId,
        itemName: (row.item_name as string | null) ?? tokenName(collectionName, tokenId),
        itemPath:
          row.collection_kind === "default"
            ? `/${row.creator}/${tokenId}`
            : `/${row.creator}/${encodeURIComponent(slugOf(row))}/${tokenId}`,
        image_cid: (row.thumbnail_cid as string | null) ?? null,
        from: personOf(row, "from", row.from),
        to: personOf(row, "to", row.to),
        priceWei: (row.price as string | null) ?? null,
        txHash: String(row.tx_hash),
        time: dateOf(row.block_time).toISOString(),
      };
    }),
    nextCursor:
      rows.length > options.limit && last
        ? encodeCursor({ b: String(last.block_number), l: Number(last.log_index), s: Number(last.seq) })
        : null,
  };
}
