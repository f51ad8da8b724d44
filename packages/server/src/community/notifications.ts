import type { Notification } from "@easel/common";
import { and, count, eq, sql } from "drizzle-orm";
import { OWNS_NAME, slugOf } from "../chain/rows.ts";
import type { Database } from "../db/client.ts";
import { notifications } from "../db/schema.ts";
import { dateOf } from "../db/timestamps.ts";

/** How many notifications of a wallet are not seen yet (the header badge). */
export async function countNewNotifications(db: Database, address: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.address, address.toLowerCase()), eq(notifications.seen, false)));
  return row?.n ?? 0;
}

/** Where a notification about the account itself leads, by its kind. */
const ACCOUNT_LINKS: Record<string, (address: string) => string> = {
  application_approved: () => "/applyToJoin",
  application_rejected: () => "/applyToJoin",
  ens_removed: (address) => `/profile/edit/${address}`,
};

/**
 * A wallet's notifications, newest first, each with the page it speaks of (`link`): the item of a sale, bid,
 * offer, listing, transfer or favourite (its data names the collection and token; the item page's path is
 * read in the same query, as `uploadPath` builds it: the creator, the collection's segment, the id), the
 * profile of a new follower, the artist application or the profile settings; null when there is none (an
 * item burned or never minted, a kind without a page).
 */
export async function listNotifications(
  db: Database,
  address: string,
  limit: number,
): Promise<Notification[]> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT n.id, n.kind, n.message, n.seen, n.created_at, n.data->>'follower' AS follower,
      coalesce(t.token_id, l.token_id)::text AS token_id, coalesce(t.creator, l.creator, c.owner) AS creator,
      c.kind AS collection_kind, c.name, c.address, ${OWNS_NAME}
    FROM (
      SELECT id, kind, message, seen, created_at, data,
        data->>'collection' AS collection,
        CASE WHEN data->>'tokenId' ~ '^[0-9]{1,78}$' THEN (data->>'tokenId')::numeric END AS token_id
      FROM notifications WHERE address = ${address} ORDER BY created_at DESC LIMIT ${limit}
    ) n
    LEFT JOIN chain_collections c ON c.address = n.collection
    LEFT JOIN chain_tokens t ON t.collection = n.collection AND t.token_id = n.token_id AND t.status <> 'burned'
    LEFT JOIN lazy_items l ON l.collection = n.collection AND l.token_id = n.token_id
    ORDER BY n.created_at DESC`);
  return rows.map((row) => ({
    _id: String(row.id),
    kind: String(row.kind),
    message: String(row.message),
    time: Math.floor(dateOf(row.created_at).getTime() / 1000),
    seen: row.seen === true,
    link: linkOf(row, address),
  }));
}

function linkOf(row: Record<string, unknown>, address: string): string | null {
  if (row.token_id != null && row.address != null) {
    const creator = String(row.creator);
    return row.collection_kind === "default"
      ? `/${creator}/${row.token_id}`
      : `/${creator}/${encodeURIComponent(slugOf(row))}/${row.token_id}`;
  }
  if (typeof row.follower === "string") return `/profile/${row.follower}`;
  return ACCOUNT_LINKS[String(row.kind)]?.(address) ?? null;
}
