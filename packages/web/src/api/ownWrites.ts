import type { Health } from "@easel/common";

/**
 * Read-your-writes across the chain and the API. The API reads what Easel's indexer has stored, a moment
 * behind the chain; after this tab's own transaction is mined, a read must not show the state from before it
 * (a 'Buy' button on the item just bought). The runner records each mined block here, and every API read
 * first waits until the indexer has reached the newest one, for at most `WAIT_MS`: the chain already holds
 * the change, so a slow indexer delays the page but never stops it.
 */

const WAIT_MS = 30_000;
const POLL_MS = 300;
const MAX_POLL_MS = 4_800;
/**
 * How long the chain's head must stay below this tab's block before the chain counts as reset. The head that
 * /api/health reports may be a moment old (the API reads the chain at most every 2 s; the indexer's read may
 * be newer): right after a transaction it can be one block short, which is not a reset.
 */
const RESET_AFTER_MS = 3_000;

/** Kept in the tab's session storage, so a reload right after a purchase still waits for it. */
const STORAGE_KEY = "easel.ownBlock";

function storedBlock(): bigint {
  try {
    return BigInt(globalThis.sessionStorage?.getItem(STORAGE_KEY) ?? 0);
  } catch {
    return 0n;
  }
}

/**
 * The newest block holding one of this tab's transactions (read from the tab's storage when first needed: the
 * first read of session storage waits on the browser, and the app's start should not), and the highest block
 * the indexer is known to have.
 */
let storedOwnBlock: bigint | null = null;
const ownBlock = () => (storedOwnBlock ??= storedBlock());
let indexedBlock = 0n;
let pending: Promise<void> | null = null;

/** Records a mined transaction of this tab. */
export function noteOwnWrite(block: bigint) {
  if (block <= ownBlock()) return;
  storedOwnBlock = block;
  try {
    globalThis.sessionStorage?.setItem(STORAGE_KEY, String(block));
  } catch {
    // Storage may be unavailable (private mode); the wait then lasts until the tab reloads.
  }
}

/** What /api/health says of the indexer and the chain (a 503 carries the same body), or null with no answer. */
type Progress = { indexedBlock: bigint; chainHead: bigint | null };

async function readProgress(): Promise<Progress | null> {
  try {
    const response = await fetch("/api/health", { headers: { Accept: "application/json" } });
    if (response.status !== 200 && response.status !== 503) return null;
    const health = (await response.json()) as Partial<Pick<Health, "chain" | "indexer">>;
    return {
      indexedBlock: health.indexer ? BigInt(health.indexer.indexedBlock) : 0n,
      chainHead: health.chain?.ok && health.chain.headBlock !== null ? BigInt(health.chain.headBlock) : null,
    };
  } catch {
    return null;
  }
}

/** Forgets this tab's writes: the chain no longer has them (a local chain was reset). */
function forgetOwnWrites() {
  storedOwnBlock = 0n;
  try {
    globalThis.sessionStorage?.removeItem(STORAGE_KEY);
  } catch {}
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether this tab wrote a block the indexer is not known to have. */
export function ownWritesPending(): boolean {
  return indexedBlock < ownBlock();
}

/** Resolves once the indexer has every block this tab wrote (at once when it is known to). */
export function untilOwnWritesIndexed(): Promise<void> {
  if (indexedBlock >= ownBlock()) return Promise.resolve();
  pending ??= (async () => {
    const deadline = Date.now() + WAIT_MS;
    // Without an answer (refused, unreachable) the checks slow down instead of adding to the load.
    let pause = POLL_MS;
    let headBelowSince: number | null = null;
    try {
      while (Date.now() < deadline) {
        const target = ownBlock();
        const progress = await readProgress();
        if (progress === null) {
          await sleep(pause);
          pause = Math.min(pause * 2, MAX_POLL_MS);
          continue;
        }
        pause = POLL_MS;
        if (progress.chainHead !== null && progress.chainHead < target) {
          headBelowSince ??= Date.now();
          if (Date.now() - headBelowSince >= RESET_AFTER_MS) {
            forgetOwnWrites();
            return;
          }
        } else headBelowSince = null;
        indexedBlock = progress.indexedBlock;
        if (indexedBlock >= target) {
          if (indexedBlock >= ownBlock()) return;
          continue;
        }
        await sleep(POLL_MS);
      }
      // Past the deadline, reads go on without waiting (the indexer is behind; its health says so).
      indexedBlock = ownBlock();
    } finally {
      pending = null;
    }
  })();
  return pending;
}
