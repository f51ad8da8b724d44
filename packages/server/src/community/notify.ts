import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationFlag, notificationAllowed } from "@easel/common";
import { and, eq, sql } from "drizzle-orm";
import { notifications, profiles } from "../db/schema.ts";
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
