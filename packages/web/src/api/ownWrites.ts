/**
 * Read-your-writes across the chain and the API. The API reads what Easel's indexer has stored, a moment
 * behind the chain; after this tab's own transaction is mined, a read must not show the state from before it
 * (a 'Buy' button on the item just bought). The runner records each mined block here, and every API read
 * first waits until the indexer has reached the newest one, for at most `WAIT_MS`: the chain already holds
 * the change, so a slow indexer delays the page but never stops it.
 */

const WAIT_MS = 30_000;
const POLL_MS = 300;

/** Kept in the tab's session storage, so a reload right after a purchase still waits for it. */
const STORAGE_KEY = "easel.ownBlock";

function storedBlock(): bigint {
  try {
    return BigInt(globalThis.sessionStorage?.getItem(STORAGE_KEY) ?? 0);
  } catch {
    return 0n;
  }
}

/** The newest block holding one of this tab's transactions, and the highest block the indexer is known to have. */
let ownBlock = storedBlock();
let indexedBlock = 0n;
let pending: Promise<void> | null = null;

/** Records a mined transaction of this tab. */
export function noteOwnWrite(block: bigint) {
  if (block <= ownBlock) return;
  ownBlock = block;
  try {
    globalThis.sessionStorage?.setItem(STORAGE_KEY, String(block));
  } catch {
    // Storage may be unavailable (private mode); the wait then lasts until the tab reloads.
  }
}

/** The indexer's block, from /api/health (which answers 503 with the same body when the stack is degraded). */
async function readIndexedBlock(): Promise<bigint> {
  try {
    const response = await fetch("/api/health", { headers: { Accept: "application/json" } });
    const health = (await response.json()) as { indexer?: { indexedBlock: string } | null };
    return health.indexer ? BigInt(health.indexer.indexedBlock) : 0n;
  } catch {
    return 0n;
  }
}

/** Resolves once the indexer has every block this tab wrote (at once when it is known to). */
export function untilOwnWritesIndexed(): Promise<void> {
  if (indexedBlock >= ownBlock) return Promise.resolve();
  pending ??= (async () => {
    const deadline = Date.now() + WAIT_MS;
    try {
      while (Date.now() < deadline) {
        const target = ownBlock;
        indexedBlock = await readIndexedBlock();
        if (indexedBlock >= target) {
          if (indexedBlock >= ownBlock) return;
          continue;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      // Past the deadline, reads go on without waiting (the indexer is behind; its health says so).
      indexedBlock = ownBlock;
    } finally {
      pending = null;
    }
  })();
  return pending;
}
