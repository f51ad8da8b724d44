import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { mailOutbox } from "../db/schema.ts";
import { mailFailures } from "../metrics.ts";
import type { Mailer, MailMessage } from "./mailer.ts";

/** A database handle or an open transaction: queue mail in the transaction that causes it. */
export type DbOrTx = Database | Parameters<Parameters<Database["transaction"]>[0]>[0];

/** After this many failed attempts a message stays in the outbox for an operator to look at. */
const MAX_ATTEMPTS = 8;
/** How long a sender holds a message before another may try it. */
const LOCK_MS = 5 * 60_000;

export async function queueMail(db: DbOrTx, messages: MailMessage[]): Promise<void> {
  if (messages.length > 0) await db.insert(mailOutbox).values(messages);
}

/**
 * Sends pending outbox mail. Each message is claimed first (lockedUntil), so concurrent senders —
 * API replicas and the worker — never send the same message twice; a failure backs off and retries.
 * @returns how many messages were sent.
 */
export async function deliverPendingMail(
  db: Database,
  mailer: Mailer,
  options: { limit?: number; log?: (line: string) => void } = {},
): Promise<number> {
  const now = new Date();
  const candidates = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        isNull(mailOutbox.sentAt),
        lt(mailOutbox.attempts, MAX_ATTEMPTS),
        or(isNull(mailOutbox.lockedUntil), lt(mailOutbox.lockedUntil, now)),
      ),
    )
    .orderBy(asc(mailOutbox.createdAt))
    .limit(options.limit ?? 20)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(mailOutbox)
    .set({
      lockedUntil: new Date(now.getTime() + LOCK_MS),
      attempts: sql`${mailOutbox.attempts} + 1`,
    })
    .where(sql`${mailOutbox.id} IN (${candidates})`)
    .returning();
  let sent = 0;
  for (const row of claimed) {
    try {
      await mailer.send({ to: row.to, subject: row.subject, text: row.text });
      await db
        .update(mailOutbox)
        .set({ sentAt: new Date(), lockedUntil: null, lastError: null })
        .where(eq(mailOutbox.id, row.id));
      sent++;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      mailFailures.inc({ mailer: mailer.kind });
      options.log?.(`mail to ${row.to} failed (attempt ${row.attempts}): ${message}`);
      // Back off one minute per attempt so far.
      await db
        .update(mailOutbox)
        .set({ lastError: message, lockedUntil: new Date(Date.now() + row.attempts * 60_000) })
        .where(eq(mailOutbox.id, row.id));
    }
  }
  return sent;
}

/**
 * The API's handle on the outbox: `flush()` starts a delivery pass right after a transaction that
 * queued mail commits (without delaying the response); passes never overlap within one process.
 */
export class MailService {
  #running: Promise<void> | null = null;
  #again = false;

  constructor(
    readonly db: Database,
    readonly mailer: Mailer,
    readonly log: (line: string) => void,
  ) {}

  flush(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        try {
          while ((await deliverPendingMail(this.db, this.mailer, { log: this.log })) > 0) {}
        } catch (error) {
          this.log(`mail delivery pass failed: ${error instanceof Error ? error.message : error}`);
        }
      } while (this.#again);
      this.#running = null;
    })();
  }

  /** Waits for the current delivery pass (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }
}
