import { PgBoss } from "pg-boss";
import { purgeExpiredAuth } from "../auth/siwe.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { registerMailJobs } from "../mail/jobs.ts";
import { countFailures, watchJobQueues } from "../metrics.ts";

export const JOBS = { purgeExpiredAuth: "purge-expired-auth" } as const;

export type Worker = { stop(): Promise<void> };

/** Background jobs on pg-boss: housekeeping, and delivery of queued mail (notifications included). */
export async function startWorker(options: {
  config: Config;
  db: Database;
  log: (message: string) => void;
}): Promise<Worker> {
  const boss = new PgBoss({ connectionString: options.config.databaseUrl, max: 4 });
  boss.on("error", (error) => options.log(`worker: ${error.message}`));
  await boss.start();
  await boss.createQueue(JOBS.purgeExpiredAuth);
  await boss.schedule(JOBS.purgeExpiredAuth, "*/15 * * * *");
  await boss.work(
    JOBS.purgeExpiredAuth,
    countFailures(JOBS.purgeExpiredAuth, async () => {
      const removed = await purgeExpiredAuth(options.db);
      if (removed > 0) options.log(`worker: removed ${removed} expired sessions and nonces`);
    }),
  );
  await registerMailJobs(boss, options);
  watchJobQueues(options.db.$client);
  return { stop: () => boss.stop({ graceful: true, timeout: 5000 }) };
}
