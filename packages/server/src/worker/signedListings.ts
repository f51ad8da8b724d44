/**
 * The worker's recheck of the signed-listing book on chain (docs/architecture.md, "Signed listings"): paused
 * orders (a passing refusal: a withdrawn approval, a ban, a block, a raised minimum or fee, a contract wallet
 * saying no) come back to the book when the chain says live again, and the active orders of contract-wallet sellers
 * are rechecked every `CONTRACT_SELLER_RECHECK`, since an ERC-1271 wallet can stop accepting a signature
 * without any event. Orders past their expiry are retired. A market or entrance lock changes nothing.
 */
import { SIGNED_LISTING_STATUS } from "@easel/contracts";
import type { PublicClient } from "viem";
import type { Database } from "../db/client.ts";
import { refreshCollectionStats } from "../indexer/stats.ts";
import {
  applyVerdict,
  bulkOf,
  marketLocked,
  orderOf,
  orderStatus,
  projectSignedListings,
  type TokenRef,
  type Verdict,
  verdictOf,
  withProjectionLock,
} from "../trading/signedListings.ts";

/** How often the worker looks for orders due for a recheck. */
export const RECHECK_INTERVAL_MS = 10_000;
/** Orders rechecked per pass (the next pass goes on), and how many chain calls run at once. */
const RECHECKS_PER_PASS = 200;
const PARALLEL_CALLS = 4;
/** Expired orders retired per pass. */
const EXPIRIES_PER_PASS = 1_000;

export type RecheckResult = {
  checked: number;
  shown: number;
  paused: number;
  retired: number;
  locked: boolean;
};

/** One pass: retire expired orders, then recheck those due, at one block; returns what changed. */
export async function recheckSignedListings(deps: {
  db: Database;
  chain: PublicClient;
  market: string;
  limit?: number;
}): Promise<RecheckResult> {
  const { db, chain, market } = deps;
  const pool = db.$client;
  const result: RecheckResult = { checked: 0, shown: 0, paused: 0, retired: 0, locked: false };
  // Found outside the projections' lock (the indexer waits while it is held), retired under it.
  const { rows: lapsed } = await pool.query<{ id: string }>(
    `SELECT id FROM signed_listings WHERE status IN ('active', 'hidden', 'paused') AND expires_at <= now()
     LIMIT $1`,
    [EXPIRIES_PER_PASS],
  );
  if (lapsed.length > 0) {
    await withProjectionLock(pool, async (client) => {
      const { rows } = await client.query<{ collection: string; token_id: string }>(
        `UPDATE signed_listings SET status = 'expired', ended_at = now(), recheck_at = NULL
         WHERE id = ANY($1::uuid[]) AND status IN ('active', 'hidden', 'paused') AND expires_at <= now()
         RETURNING collection, token_id::text`,
        [lapsed.map((r) => r.id)],
      );
      result.retired += rows.length;
      await project(
        client,
        rows.map((r) => ({ collection: r.collection, tokenId: r.token_id })),
      );
    });
  }
  const block = await chain.getBlockNumber({ cacheTime: 0 });
  // Every order is refused during a lock (the market's or its entrance's), whatever else holds: nothing can be
  // learnt, nothing changes.
  if (await marketLocked(chain, market, block)) return { ...result, locked: true };
  const { rows: due } = await pool.query<Record<string, unknown>>(
    `SELECT *, recheck_at::text AS recheck_text FROM signed_listings
     WHERE recheck_at <= now() AND status IN ('active', 'paused') AND expires_at > now()
     ORDER BY recheck_at, id LIMIT $1`,
    [deps.limit ?? RECHECKS_PER_PASS],
  );
  // Sellers not known as contract wallets whose active orders came due (orders from before contract wallets
  // were told apart): one code read each, so a wallet's orders join the schedule.
  const unknown = [
    ...new Set(due.filter((r) => r.status === "active" && !r.contract_seller).map((r) => String(r.seller))),
  ];
  const wallets: string[] = [];
  for (const seller of unknown) {
    const code = await chain.getCode({ address: seller as `0x${string}`, blockNumber: block });
    if (code !== undefined && code !== "0x") wallets.push(seller);
  }
  if (wallets.length > 0)
    await pool.query(
      `UPDATE signed_listings SET contract_seller = true
       WHERE seller = ANY($1::text[]) AND status IN ('active', 'hidden', 'paused')`,
      [wallets],
    );
  const verdicts: { row: Record<string, unknown>; verdict: Verdict }[] = [];
  for (let i = 0; i < due.length; i += PARALLEL_CALLS) {
    await Promise.all(
      due.slice(i, i + PARALLEL_CALLS).map(async (row) => {
        const order = orderOf(row);
        const status = await orderStatus(
          chain,
          market,
          order,
          String(row.signature) as `0x${string}`,
          bulkOf(row),
          block,
        );
        const verdict =
          Number(status) === SIGNED_LISTING_STATUS.live
            ? ({ kind: "live" } as const)
            : await verdictOf(chain, market, order, Number(status), block);
        verdicts.push({ row, verdict });
      }),
    );
  }
  result.checked = verdicts.length;
  if (verdicts.length === 0) return result;
  await withProjectionLock(pool, async (client) => {
    const changed: TokenRef[] = [];
    for (const { row, verdict } of verdicts) {
      const from = row.status as "active" | "paused";
      if (
        !(await applyVerdict(client, String(row.id), from, verdict, block, row.recheck_text as string | null))
      )
        continue;
      changed.push({ collection: String(row.collection), tokenId: String(row.token_id) });
      if (verdict.kind === "live") result.shown++;
      else if (verdict.kind === "paused") result.paused++;
      else result.retired++;
    }
    await project(client, changed);
  });
  return result;
}

/** Shows the tokens' best orders on their rows again, and their collections' floors. */
async function project(client: Parameters<typeof projectSignedListings>[0], tokens: TokenRef[]) {
  if (tokens.length === 0) return;
  const collections = new Set(await projectSignedListings(client, tokens));
  for (const t of tokens) collections.add(t.collection);
  await refreshCollectionStats(client, [...collections]);
}

/** Runs a pass every `intervalMs` until stopped (a failed pass is logged; the next one tries again). */
export function startSignedListingRecheck(deps: {
  db: Database;
  chain: PublicClient;
  market: string;
  log: (line: string) => void;
  intervalMs?: number;
}): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      const r = await recheckSignedListings(deps);
      if (r.shown + r.paused + r.retired > 0)
        deps.log(
          `worker: signed listings rechecked: ${r.shown} back in the book, ${r.paused} paused, ${r.retired} retired`,
        );
    } catch (error) {
      deps.log(`worker: signed-listing recheck failed: ${(error as Error).message}`);
    }
  };
  const loop = () => {
    if (stopped) return;
    running = pass().then(() => {
      if (!stopped) timer = setTimeout(loop, deps.intervalMs ?? RECHECK_INTERVAL_MS);
    });
  };
  loop();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
