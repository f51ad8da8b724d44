import { PgBoss } from "pg-boss";
import type { PublicClient } from "viem";
import { purgeExpiredAuth } from "../auth/siwe.ts";
import type { Config } from "../config.ts";
import { boundedConnection } from "../db/availability.ts";
import type { Database } from "../db/client.ts";
import { registerMailJobs } from "../mail/jobs.ts";
import { countFailures, watchJobQueues } from "../metrics.ts";
import { alertEndingAuctions } from "./endingSoon.ts";
import { startSignedListingRecheck } from "./signedListings.ts";

export const JOBS = { purgeExpiredAuth: "purge-expired-auth", endingSoon: "watch-ending-soon" } as const;

export type Worker = { stop(): Promise<void> };

/**
 * pg-boss's pool, which it hands whole to pg.Pool (its types list only its own options): like Easel's pools, a
 * statement limit and TCP keepalive, so a frozen or blackholed database fails its fetches instead of holding
 * them for the kernel's TCP timeout.
 */
export function bossOptions(databaseUrl: string): ConstructorParameters<typeof PgBoss>[0] {
  return { connectionString: databaseUrl, max: 4, ...boundedConnection(60_000) } as ConstructorParameters<
    typeof PgBoss
  >[0];
}

/**
 * Background jobs on pg-boss: housekeeping, and delivery of queued mail (notifications included); with a
 * chain client, the signed-listing book's recheck on chain every few seconds (a timer of its own: pg-boss
 * schedules by the minute, and a paused order must come back, or a contract wallet's refused order leave,
 * within one).
 */
export async function startWorker(options: {
  config: Config;
  db: Database;
  chain?: PublicClient;
  log: (message: string) => void;
}): Promise<Worker> {
  const boss = new PgBoss(bossOptions(options.config.databaseUrl));
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
  // Watchers of an auction ending within the hour are alerted once (worker/endingSoon.ts).
  await boss.createQueue(JOBS.endingSoon);
  await boss.schedule(JOBS.endingSoon, "* * * * *");
  await boss.work(
    JOBS.endingSoon,
    countFailures(JOBS.endingSoon, async () => {
      const alerted = await alertEndingAuctions(options.db);
      if (alerted > 0) options.log(`worker: alerted ${alerted} watchers of auctions ending within the hour`);
    }),
  );
  await registerMailJobs(boss, options);
  watchJobQueues(options.db.$client);
  const recheck = options.chain
    ? startSignedListingRecheck({
        db: options.db,
        chain: options.chain,
        market: options.config.contracts.market,
        log: options.log,
      })
    : null;
  return {
    stop: async () => {
      await recheck?.stop();
      await boss.stop({ graceful: true, timeout: 5000 });
    },
  };
}
