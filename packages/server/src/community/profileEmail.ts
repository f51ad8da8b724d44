import { and, count, eq, gt, sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import { mailOutbox, profiles } from "../db/schema.ts";
import { type DbOrTx, queueMail } from "../mail/outbox.ts";
import { signedLink } from "./signedLinks.ts";

export const EMAIL_CONFIRM_SUBJECT = "Confirm your email for Easel";
/** A profile gets at most one confirmation link a minute. */
const RESEND_INTERVAL_MS = 60_000;
/**
 * An address gets at most this many confirmation links a day, however many wallets name it: a stranger's
 * address cannot be flooded by creating wallets.
 */
export const MAX_CONFIRMATIONS_PER_ADDRESS_PER_DAY = 3;

export type ConfirmationOutcome = "sent" | "wait" | "limit";

/**
 * Queues the double opt-in link for a profile's email (no notification mail goes to an address before
 * its owner opens it). Call inside the transaction that set the email; flush the mail after commit.
 */
export async function queueEmailConfirmation(
  tx: DbOrTx,
  config: Pick<Config, "publicUrl" | "emailLinkSecret">,
  profile: { address: string; email: string; emailLinkSentAt: Date | null },
  now = new Date(),
): Promise<ConfirmationOutcome> {
  if (profile.emailLinkSentAt && now.getTime() - profile.emailLinkSentAt.getTime() < RESEND_INTERVAL_MS) {
    return "wait";
  }
  // Serialise the count per recipient, so parallel requests cannot all pass it.
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`email-confirm:${profile.email}`}))`);
  const [recent] = await tx
    .select({ n: count() })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.to, profile.email),
        eq(mailOutbox.subject, EMAIL_CONFIRM_SUBJECT),
        gt(mailOutbox.createdAt, new Date(now.getTime() - 24 * 60 * 60 * 1000)),
      ),
    );
  if ((recent?.n ?? 0) >= MAX_CONFIRMATIONS_PER_ADDRESS_PER_DAY) return "limit";
  const link = signedLink(config.publicUrl, config.emailLinkSecret, "/email/confirm", {
    purpose: "profile-email",
    values: { address: profile.address, email: profile.email },
  });
  await queueMail(tx, [
    {
      to: profile.email,
      subject: EMAIL_CONFIRM_SUBJECT,
      text: [
        "Hello,",
        "",
        "Someone (we hope you) added this address to an Easel profile to receive its notifications by email.",
        "Please confirm it by opening this link:",
        "",
        link,
        "",
        "If it was not you, ignore this mail: nothing will be sent to this address.",
      ].join("\n"),
    },
  ]);
  await tx.update(profiles).set({ emailLinkSentAt: now }).where(eq(profiles.address, profile.address));
  return "sent";
}
