import type { PgBoss } from "pg-boss";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { countFailures } from "../metrics.ts";
import { createMailer } from "./mailer.ts";
import { deliverPendingMail } from "./outbox.ts";

export const MAIL_JOBS = { deliverMail: "deliver-mail" } as const;

/**
 * Registers the outbox delivery job on the worker's pg-boss: every minute it sends whatever the
 * API could not send at once (SMTP down, API stopped before its delivery pass), with back-off.
 * The indexer's notification mail is queued in the outbox too, and only this job sends it.
 * Wire it from the worker: `await registerMailJobs(boss, { db, config, log })`.
 */
export async function registerMailJobs(
  boss: PgBoss,
  options: { db: Database; config: Config; log: (line: string) => void },
): Promise<void> {
  const deps = { ...options, mailer: createMailer(options.config, options.log) };
  await boss.createQueue(MAIL_JOBS.deliverMail);
  await boss.schedule(MAIL_JOBS.deliverMail, "* * * * *");
  await boss.work(
    MAIL_JOBS.deliverMail,
    countFailures(MAIL_JOBS.deliverMail, async () => {
      let sent = 0;
      for (let batch = await deliverPendingMail(deps.db, deps.mailer, { log: deps.log }); batch > 0; ) {
        sent += batch;
        batch = await deliverPendingMail(deps.db, deps.mailer, { log: deps.log });
      }
      if (sent > 0) deps.log(`worker: sent ${sent} queued mail messages`);
    }),
  );
}
