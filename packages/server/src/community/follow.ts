import { shortAddress } from "@easel/common";
import { and, count, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import type { Profile } from "../db/schema.ts";
import { follows } from "../db/schema.ts";
import { notifiedToday, notify } from "./notify.ts";

/**
 * Follows `target` if `follower` does not follow them yet, otherwise stops following. Toggles of
 * one pair are serialised by a transaction-scoped advisory lock, so N concurrent toggles end in the
 * state N sequential ones would; the (follower, followee) primary key rules out duplicates anyway.
 */
export async function toggleFollow(
  db: Database,
  follower: Profile,
  target: string,
): Promise<{ following: boolean; followersCount: number; mailQueued: boolean }> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`follow:${follower.address}:${target}`}, 0))`,
    );
    const removed = await tx
      .delete(follows)
      .where(and(eq(follows.follower, follower.address), eq(follows.followee, target)))
      .returning({ followee: follows.followee });
    let mailQueued = false;
    if (removed.length === 0) {
      await tx.insert(follows).values({ follower: follower.address, followee: target }).onConflictDoNothing();
      // At most one "started following you" a day per pair: toggling cannot turn Easel into a mailer.
      if (!(await notifiedToday(tx, target, "follow", { follower: follower.address }))) {
        const who = follower.username
          ? `@${follower.username}`
          : (follower.name ?? shortAddress(follower.address));
        ({ mailQueued } = await notify(tx, {
          address: target,
          kind: "follow",
          flag: "NewFollowerNotification",
          message: `${who} started following you.`,
          data: { follower: follower.address },
        }));
      }
    }
    const [followers] = await tx.select({ n: count() }).from(follows).where(eq(follows.followee, target));
    return { following: removed.length === 0, followersCount: followers?.n ?? 0, mailQueued };
  });
}
