import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationFlag, notificationAllowed } from "@easel/common";
import { and, eq, sql } from "drizzle-orm";
import type pg from "pg";
import { tokenName } from "../chain/rows.ts";
import { notifications, profiles } from "../db/schema.ts";
import { CHAIN_CHANNEL } from "../indexer/notice.ts";
import { type DbOrTx, queueMail } from "../mail/outbox.ts";

/** The mail sent for a notification when its recipient turned on email notifications. */
export function notificationMail(to: string, message: string) {
  return {
    to,
    subject: "Easel: new notification",
    text: `${message}\n\nYou receive this mail because you turned on email notifications in your Easel settings.`,
  };
}

/**
 * How a notification names an item: its artwork's name from its metadata, as the item page shows it, or
 * (metadata unknown: a token minted elsewhere) the item page's fallback, "Collection #id"; quoted, since a
 * name is the artist's free text.
 */
export const itemLabel = (name: string) => `“${name}”`;

export function preferences(stored: Record<string, boolean> | null | undefined) {
  return { ...DEFAULT_NOTIFICATION_PREFERENCES, ...(stored ?? {}) };
}

/**
 * Records a notification for a wallet unless its owner switched that kind off, and queues an email
 * when they asked for notifications by email and confirmed the address. Call it inside the transaction of the change.
 * @returns whether a notification was written and whether mail was queued (flush after commit).
 */
export async function notify(
  tx: DbOrTx,
  input: {
    address: string;
    kind: string;
    message: string;
    flag?: NotificationFlag;
    data?: Record<string, unknown>;
  },
): Promise<{ written: boolean; mailQueued: boolean }> {
  const address = input.address.toLowerCase();
  const [recipient] = await tx
    .select({
      notifAllow: profiles.notifAllow,
      email: profiles.email,
      emailVerifiedAt: profiles.emailVerifiedAt,
    })
    .from(profiles)
    .where(eq(profiles.address, address))
    .limit(1);
  const allowed = preferences(recipient?.notifAllow);
  if (!notificationAllowed(allowed, input.kind, input.flag)) return { written: false, mailQueued: false };
  await tx
    .insert(notifications)
    .values({ address, kind: input.kind, message: input.message, data: input.data ?? {} });
  // Only to an address its owner confirmed: an unconfirmed one may be a stranger's.
  if (allowed.email && recipient?.email && recipient.emailVerifiedAt) {
    await queueMail(tx, [notificationMail(recipient.email, input.message)]);
    return { written: true, mailQueued: true };
  }
  return { written: true, mailQueued: false };
}

/**
 * Whether `address` got a notification of `kind` carrying these data values in the last day: repeated
 * toggles (follow, favourite) notify once a day, so they cannot turn Easel into a mailer.
 */
export async function notifiedToday(
  tx: DbOrTx,
  address: string,
  kind: string,
  data: Record<string, string>,
): Promise<boolean> {
  const matches = Object.entries(data).map(([key, value]) => sql`${notifications.data}->>${key} = ${value}`);
  const [recent] = await tx
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.address, address),
        eq(notifications.kind, kind),
        sql`${notifications.createdAt} > now() - interval '1 day'`,
        ...matches,
      ),
    )
    .limit(1);
  return recent !== undefined;
}

/**
 * Alerts everyone who favourited an item (their watchlist) of a change made through the API rather than on
 * chain (a signed listing posted: listed, or a new price; a lazy item repriced), in the transaction of the
 * change when there is one (`writeAlerts` writes rows and mail in one statement either way), as the indexer
 * does for on-chain ones (`indexer/notifications.ts`): each watcher's `favorite` preference decides, `key`
 * (made unique per watcher) keeps a retry from alerting twice, and mail goes to a confirmed address when they
 * asked for it. `except`: whoever made the change. Returns who was alerted.
 */
export async function notifyWatchers(
  client: pg.ClientBase,
  input: {
    collection: string;
    tokenId: string;
    kind: string;
    key: string;
    message: (item: string) => string;
    except: string[];
    data?: Record<string, unknown>;
  },
): Promise<string[]> {
  const { rows } = await client.query<{
    address: string;
    notif_allow: Record<string, boolean> | null;
    email: string | null;
    item_name: string | null;
    collection_name: string | null;
  }>(
    `SELECT f.address, p.notif_allow, CASE WHEN p.email_verified_at IS NOT NULL THEN p.email END AS email,
       m.name AS item_name, c.name AS collection_name
     FROM item_favorites f
     LEFT JOIN profiles p ON p.address = f.address
     LEFT JOIN chain_tokens t ON t.collection = f.collection AND t.token_id = f.token_id
     LEFT JOIN chain_collections c ON c.address = f.collection
     LEFT JOIN item_metadata m ON m.cid = t.cid
     WHERE f.collection = $1 AND f.token_id = $2::numeric AND f.address <> ALL($3::text[])`,
    [input.collection, input.tokenId, input.except.map((a) => a.toLowerCase())],
  );
  const alerts = rows
    .filter((r) => notificationAllowed(r.notif_allow, input.kind, "favorite"))
    .map((r) => ({
      address: r.address,
      kind: input.kind,
      message: input.message(itemLabel(r.item_name ?? tokenName(r.collection_name, input.tokenId))),
      data: { collection: input.collection, tokenId: input.tokenId, ...input.data },
      source_key: `${input.key}:${r.address}`,
      email: r.email && preferences(r.notif_allow).email ? r.email : null,
    }));
  return [...new Set((await writeAlerts(client, alerts)).map((a) => a.address))];
}

/** A watch alert written outside an indexer batch: its notification row, and where to mail it (null: no mail). */
export type WatchAlert = {
  address: string;
  kind: string;
  message: string;
  data: Record<string, unknown>;
  source_key: string;
  email: string | null;
};

/**
 * Writes watch alerts made outside an indexer batch (the API's `notifyWatchers`, the worker's ending-soon
 * pass): each `source_key` once (a retry or a concurrent pass writes nothing twice), mail for the rows this
 * call wrote, in one statement (so the rows and their mail go together even outside a transaction), then a
 * notice to the alerted accounts' live streams. Returns the alerts written.
 */
export async function writeAlerts(client: pg.ClientBase, alerts: WatchAlert[]): Promise<WatchAlert[]> {
  if (alerts.length === 0) return [];
  const values = alerts.map((a) => {
    const mail = a.email ? notificationMail(a.email, a.message) : null;
    return { ...a, mail_subject: mail?.subject ?? null, mail_text: mail?.text ?? null };
  });
  const { rows: written } = await client.query<{ source_key: string }>(
    `WITH x AS (
       SELECT * FROM json_to_recordset($1::json) AS x(address text, kind text, message text, data jsonb,
         source_key text, email text, mail_subject text, mail_text text)
     ), written AS (
       INSERT INTO notifications (address, kind, message, data, source_key)
       SELECT address, kind, message, data, source_key FROM x
       ON CONFLICT (source_key) DO NOTHING
       RETURNING source_key
     ), mailed AS (
       INSERT INTO mail_outbox ("to", subject, text)
       SELECT x.email, x.mail_subject, x.mail_text FROM x JOIN written w ON w.source_key = x.source_key
       WHERE x.email IS NOT NULL
     )
     SELECT source_key FROM written`,
    [JSON.stringify(values)],
  );
  const fresh = new Set(written.map((r) => r.source_key));
  const wrote = alerts.filter((a) => fresh.has(a.source_key));
  await tellAccounts(client, [...new Set(wrote.map((a) => a.address))]);
  return wrote;
}

/**
 * Tells these accounts' live streams (`GET /api/events?account=`) that something of theirs changed outside
 * an indexer batch (an alert written by the API or the worker), so their pages refresh the badge and the
 * notifications; sent with NOTIFY on the indexer's channel, delivered when the transaction commits. The
 * notice names the indexed block as its range: no new block was read.
 */
export async function tellAccounts(client: pg.ClientBase, accounts: string[]): Promise<void> {
  if (accounts.length === 0) return;
  const { rows } = await client.query<{ block: string }>(
    "SELECT coalesce(max(indexed_block), 0)::text AS block FROM indexer_state",
  );
  const block = rows[0]?.block ?? "0";
  const notice =
    accounts.length > 200 ? { from: block, to: block, all: true } : { from: block, to: block, accounts };
  await client.query("SELECT pg_notify($1, $2)", [CHAIN_CHANNEL, JSON.stringify(notice)]);
}
