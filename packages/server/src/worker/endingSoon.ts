/**
 * The watch alert "ends within an hour" (issue 49 §3): nothing happens on chain when an auction nears its
 * end, so the worker looks every minute for auctions ending within the hour and alerts everyone who
 * favourited the item, once per auction (the notification's `source_key` names the auction and the person,
 * and is unique). The seller is not alerted of their own auction. The other watch alerts come from the
 * indexer's batch (`indexer/notifications.ts`).
 */
import { notificationAllowed } from "@easel/common";
import { formatEther } from "viem";
import { tokenName } from "../chain/rows.ts";
import { itemLabel, preferences, writeAlerts } from "../community/notify.ts";
import type { Database } from "../db/client.ts";

/** How long before an auction's end its watchers are alerted. */
export const ENDING_SOON_MS = 60 * 60 * 1000;
/** Alerts written per pass at most (the next pass, a minute later, goes on). */
const ALERTS_PER_PASS = 5_000;

/**
 * One pass: writes the alerts due and queues their mail, in one transaction; returns how many were written.
 * "Now" is the later of the database's clock and the latest indexed block's time: a chain whose clock runs
 * ahead (a local chain moved forward) ends its auctions by its own time, as the item page counts.
 */
export async function alertEndingAuctions(db: Database): Promise<number> {
  const client = await db.$client.connect();
  try {
    await client.query("BEGIN");
    const { rows } = await client.query<{
      collection: string;
      token_id: string;
      created_block: string;
      created_log_index: number;
      end_time: Date;
      top_bid: string | null;
      base_price: string;
      collection_name: string;
      item_name: string | null;
      address: string;
      notif_allow: Record<string, boolean> | null;
      email: string | null;
      now: Date;
    }>(
      `WITH clock AS (
         SELECT greatest(now(), (SELECT block_time FROM chain_events
                                 ORDER BY block_number DESC, log_index DESC LIMIT 1)) AS now
       ), due AS (
         SELECT au.collection, au.token_id, au.created_block, au.created_log_index, au.end_time, au.seller,
           au.top_bid, au.base_price, t.cid, c.name AS collection_name, clock.now
         FROM clock
         JOIN chain_tokens t ON t.auction_end > clock.now AND t.auction_end <= clock.now + $1 * interval '1 millisecond'
         JOIN chain_collections c ON c.address = t.collection
         JOIN chain_auctions au ON au.collection = t.collection AND au.token_id = t.token_id AND au.status = 'active'
         WHERE t.status = 'auction' AND NOT t.blocked AND NOT c.blocked
       )
       SELECT due.collection, due.token_id::text AS token_id, due.created_block::text AS created_block,
         due.created_log_index, due.end_time, due.top_bid::text AS top_bid, due.base_price::text AS base_price,
         due.collection_name, m.name AS item_name, f.address, p.notif_allow, due.now,
         CASE WHEN p.email_verified_at IS NOT NULL THEN p.email END AS email
       FROM due
       JOIN item_favorites f ON f.collection = due.collection AND f.token_id = due.token_id
       LEFT JOIN item_metadata m ON m.cid = due.cid
       LEFT JOIN profiles p ON p.address = f.address
       WHERE f.address <> due.seller
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.source_key =
           'watch:ending:' || due.created_block || ':' || due.created_log_index || ':' || f.address)
       LIMIT $2`,
      [ENDING_SOON_MS, ALERTS_PER_PASS],
    );
    const alerts = rows.filter((r) => notificationAllowed(r.notif_allow, "watch_ending", "favorite"));
    if (alerts.length === 0) {
      await client.query("COMMIT");
      return 0;
    }
    const values = alerts.map((r) => {
      const minutes = Math.max(1, Math.round((r.end_time.getTime() - r.now.getTime()) / 60_000));
      const item = itemLabel(r.item_name ?? tokenName(r.collection_name, r.token_id));
      const price = r.top_bid
        ? `the top bid is ${formatEther(BigInt(r.top_bid))} ETH`
        : `it starts from ${formatEther(BigInt(r.base_price))} ETH`;
      return {
        address: r.address,
        kind: "watch_ending",
        message: `The auction of ${item}, which you favourited, ends in ${minutes} minute${minutes === 1 ? "" : "s"}; ${price}.`,
        data: { collection: r.collection, tokenId: r.token_id, endTime: r.end_time.toISOString() },
        source_key: `watch:ending:${r.created_block}:${r.created_log_index}:${r.address}`,
        email: r.email && preferences(r.notif_allow).email ? r.email : null,
      };
    });
    // A concurrent pass (two workers) writes each key once: the mail goes with the row this pass wrote, and
    // the watchers' pages refresh their badge and notifications (the live stream's account notices).
    const written = await writeAlerts(client, values);
    await client.query("COMMIT");
    return written.length;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
