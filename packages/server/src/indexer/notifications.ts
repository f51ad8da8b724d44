import { displayName, type NotificationFlag, notificationAllowed } from "@easel/common";
import { itemLabel, notificationMail, preferences } from "../community/notify.ts";
import { ownersBeaten } from "../trading/collectionOffers.ts";
import type { NotificationIntent } from "./batch.ts";
import { timeText } from "./keys.ts";
import { copyRows, Pace, type Runner, type Statements } from "./store.ts";

/** What `storeNotifications` writes: the new notification rows and the mail they send. */
export type NotificationRows = {
  rows: {
    address: string;
    kind: string;
    message: string;
    data: unknown;
    source_key: string;
    created_at: string;
  }[];
  mail: ReturnType<typeof notificationMail>[];
};

/**
 * The notifications a batch produced, written in the batch's transaction (`readNotifications`, then
 * `storeNotifications`): each person's preferences (profiles.notif_allow) decide whether it is written, a
 * unique source key per event and recipient makes replays write nothing twice, and when the person asked for
 * email (at a confirmed address) a message goes to the mail outbox (delivered by the worker's deliver-mail
 * job). Listing notifications go to the seller's followers, watch alerts (a favourited item listed, bid on,
 * repriced) to everyone who favourited the item. Who follows whom, who watches what, who wants what and which
 * keys are stored already are read through any connection (the batch does not change them), so the reads run
 * beside the batch's writes; the rows are written through the batch's statements.
 *
 * This is the reading half: the rows to write (those not stored yet) and their mail.
 */
export async function readNotifications(
  read: Runner,
  intents: NotificationIntent[],
): Promise<NotificationRows> {
  const none = { rows: [], mail: [] };
  if (intents.length === 0) return none;
  const fanOut = [...new Set(intents.filter((n) => n.followersOf).map((n) => n.address))];
  const followers = new Map<string, string[]>();
  if (fanOut.length > 0) {
    const { rows } = await read.query<{ follower: string; followee: string }>(
      "SELECT follower, followee FROM follows WHERE followee = ANY($1::text[])",
      [fanOut],
    );
    for (const r of rows) followers.set(r.followee, [...(followers.get(r.followee) ?? []), r.follower]);
  }
  const [watchers, beaten] = await Promise.all([
    watchersOf(read, intents),
    collectionOfferNotices(read, intents),
  ]);
  // Someone an event notifies already (the seller of a bid, the outbid bidder) gets no watch alert beside it.
  const eventOf = (key: string) => key.split(":", 3).join(":");
  const direct = new Set(
    intents
      .filter((n) => !n.followersOf && !n.watchersOf && !n.ownersBeatenBy)
      .map((n) => `${eventOf(n.key)}:${n.address}`),
  );
  const expanded: NotificationIntent[] = [];
  for (const n of intents) {
    if (n.ownersBeatenBy) {
      expanded.push(...(beaten.get(n.key) ?? []));
      continue;
    }
    if (n.watchersOf) {
      const except = new Set(n.watchersOf.except);
      const block = BigInt(String(n.data.block));
      for (const { address: watcher, since } of watchers.get(`${n.data.collection}:${n.data.tokenId}`) ??
        []) {
        // Only events after they began watching: a resync replays older ones.
        if (since >= block) continue;
        if (except.has(watcher) || direct.has(`${eventOf(n.key)}:${watcher}`)) continue;
        const { watchersOf: _, ...intent } = n;
        expanded.push({ ...intent, address: watcher, key: `${n.key}:${watcher}` });
      }
      continue;
    }
    if (!n.followersOf) {
      expanded.push(n);
      continue;
    }
    for (const follower of followers.get(n.address) ?? []) {
      expanded.push({ ...n, address: follower, key: `${n.key}:${follower}`, followersOf: false });
    }
  }
  if (expanded.length === 0) return none;
  const recipients = [...new Set(expanded.map((n) => n.address))];
  // The recipients' preferences and the names of the people the texts name, in one read.
  const people = [...new Set([...recipients, ...expanded.flatMap((n) => (n.person ? [n.person] : []))])];
  const cids = [...new Set(expanded.flatMap((n) => (n.item?.cid ? [n.item.cid] : [])))];
  const [{ rows: profiles }, { rows: items }] = await Promise.all([
    read.query<{
      address: string;
      notif_allow: Record<string, boolean>;
      email: string | null;
      name: string | null;
      username: string | null;
      ens: string | null;
    }>(
      // Mail goes only to an address its owner confirmed (double opt-in).
      "SELECT address, notif_allow, CASE WHEN email_verified_at IS NOT NULL THEN email END AS email, name, username, ens FROM profiles WHERE address = ANY($1::text[])",
      [people],
    ),
    // The artworks' names, from the metadata uploaded before their mint (keyed by the token's CID).
    read.query<{ cid: string; name: string }>(
      "SELECT cid, name FROM item_metadata WHERE cid = ANY($1::text[])",
      [cids],
    ),
  ]);
  const byAddress = new Map(profiles.map((p) => [p.address, p]));
  const names = new Map(items.map((i) => [i.cid, i.name]));
  // A person reads as everywhere on Easel: their profile's name, else ENS, else their short address.
  const personName = (address: string | undefined) =>
    address ? displayName({ ...byAddress.get(address), address }) : "";
  const text = (n: NotificationIntent) =>
    n.item === undefined
      ? n.message
      : n.message(itemLabel((n.item.cid && names.get(n.item.cid)) || n.item.fallback), personName(n.person));
  const rows: NotificationRows["rows"] = [];
  // Paced: a backfill writes its other rows meanwhile (see `Pace`).
  const pace = new Pace();
  for (const n of expanded) {
    if (pace.due()) await pace.next();
    if (!notificationAllowed(byAddress.get(n.address)?.notif_allow, n.kind, n.flag as NotificationFlag))
      continue;
    rows.push({
      address: n.address,
      kind: n.kind,
      message: text(n),
      data: n.data,
      source_key: n.key,
      created_at: timeText(n.time),
    });
  }
  if (rows.length === 0) return none;
  const mailTo = new Set(
    [...byAddress.values()].filter((p) => p.email && preferences(p.notif_allow).email).map((p) => p.address),
  );
  // The indexer's leader is the only writer of these keys, and it writes them inside its batch: the keys
  // stored already (a replay) are read first and the rest go in with COPY, PostgreSQL's bulk path (a backfill
  // writes tens of thousands; an INSERT … ON CONFLICT of them from JSON cost three times as long).
  // The first row of a key wins, as ON CONFLICT DO NOTHING kept it.
  const byKey = new Map<string, (typeof rows)[number]>();
  for (const r of rows) if (!byKey.has(r.source_key)) byKey.set(r.source_key, r);
  const unique = [...byKey.values()];
  // Read beside the writes too: a key of these events can only have been stored by an earlier batch.
  const { rows: stored } = await read.query<{ source_key: string }>(
    "SELECT source_key FROM notifications WHERE source_key = ANY($1::text[])",
    [unique.map((r) => r.source_key)],
  );
  const already = new Set(stored.map((r) => r.source_key));
  const fresh = unique.filter((r) => !already.has(r.source_key));
  const mail = fresh.flatMap((r) => {
    const p = byAddress.get(r.address);
    if (!p?.email || !mailTo.has(r.address) || !preferences(p.notif_allow).email) return [];
    return [notificationMail(p.email, r.message)];
  });
  return { rows: fresh, mail };
}

/**
 * Who watches (favourited) the items of the watch alerts among `intents`, by `collection:tokenId`: one read of
 * `item_favorites` on its key for the batch.
 */
async function watchersOf(
  read: Runner,
  intents: NotificationIntent[],
): Promise<Map<string, { address: string; since: bigint }[]>> {
  const watched = new Map<string, { collection: string; tokenId: string }>();
  for (const n of intents) {
    if (!n.watchersOf) continue;
    const collection = String(n.data.collection);
    const tokenId = String(n.data.tokenId);
    watched.set(`${collection}:${tokenId}`, { collection, tokenId });
  }
  const found = new Map<string, { address: string; since: bigint }[]>();
  if (watched.size === 0) return found;
  const items = [...watched.values()];
  const { rows } = await read.query<{ collection: string; token_id: string; address: string; since: string }>(
    `SELECT f.collection, f.token_id::text AS token_id, f.address, f.since_block::text AS since
     FROM item_favorites f
     JOIN unnest($1::text[], $2::numeric[]) AS w(collection, token_id)
       ON w.collection = f.collection AND w.token_id = f.token_id`,
    [items.map((i) => i.collection), items.map((i) => i.tokenId)],
  );
  for (const r of rows) {
    const key = `${r.collection}:${r.token_id}`;
    found.set(key, [...(found.get(key) ?? []), { address: r.address, since: BigInt(r.since) }]);
  }
  return found;
}

/**
 * The owners told of each new collection offer among `intents` (`ownersBeaten`), by the intent's key: one
 * notification per owner and offer (keyed by the offer id, so adding to the same terms tells nobody twice).
 */
async function collectionOfferNotices(
  read: Runner,
  intents: NotificationIntent[],
): Promise<Map<string, NotificationIntent[]>> {
  const found = new Map<string, NotificationIntent[]>();
  for (const n of intents) {
    const offer = n.ownersBeatenBy;
    if (!offer) continue;
    const owners = await ownersBeaten(read, offer);
    found.set(
      n.key,
      owners.map((o) => ({
        // "chain:" and data.block: a reorg that drops the offer removes them (indexer/reorg.ts).
        key: `chain:collection_offer:${offer.offerId}:${o.address}`,
        address: o.address,
        kind: n.kind,
        flag: n.flag,
        message: o.message,
        data: { ...n.data, ...o.data },
        time: n.time,
      })),
    );
  }
  return found;
}

/** Writes what `readNotifications` found, through the batch's statements; returns who was notified. */
export async function storeNotifications(
  write: Statements,
  { rows, mail }: NotificationRows,
): Promise<string[]> {
  await copyRows(
    write,
    "notifications",
    ["address", "kind", "message", "data", "source_key", "created_at"],
    rows,
  );
  if (mail.length > 0) {
    await write.query(
      `INSERT INTO mail_outbox ("to", subject, text)
       SELECT "to", subject, text FROM json_to_recordset($1::json) AS x("to" text, subject text, text text)`,
      [JSON.stringify(mail)],
    );
  }
  return [...new Set(rows.map((r) => r.address))];
}
