/**
 * The lazy-collection allowance: moderators give an account a number of lazy collections
 * (`profiles.lazy_collections`); each one it owns on chain uses one, and so does each voucher still valid
 * for a collection not created yet (the wallet may still send it). The voucher route refuses past it, and the
 * session tells the web app what is left, so the Lazy type is offered only while one is.
 */
import { sql } from "drizzle-orm";
import { chainCollections } from "../db/chain-schema.ts";
import { lazyCollectionVouchers } from "../db/schema.ts";
import type { DbOrTx } from "../mail/outbox.ts";

/** How many lazy collections `owner` has used of its allowance. */
export async function lazyCollectionsUsed(db: DbOrTx, owner: string): Promise<number> {
  const {
    rows: [used],
  } = await db.execute<{ n: string }>(sql`
    SELECT (SELECT count(*) FROM ${chainCollections}
             WHERE ${chainCollections.owner} = ${owner} AND ${chainCollections.kind} = 'lazy')
         + (SELECT count(*) FROM ${lazyCollectionVouchers} v
             WHERE v.owner = ${owner} AND v.expires_at > now()
               AND NOT EXISTS (SELECT 1 FROM ${chainCollections} c
                                WHERE c.owner = v.owner AND c.kind = 'lazy' AND lower(c.name) = lower(v.name)))
         AS n`);
  return Number(used?.n ?? 0);
}

/** How many more lazy collections `owner` may create now, given its allowance (never below 0). */
export async function lazyCollectionsLeft(db: DbOrTx, owner: string, allowance: number): Promise<number> {
  if (allowance <= 0) return 0;
  return Math.max(0, allowance - (await lazyCollectionsUsed(db, owner)));
}
