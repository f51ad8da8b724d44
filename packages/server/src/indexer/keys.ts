/** The zero address: a Transfer from it is a mint, to it a burn. */
export const ZERO = "0x0000000000000000000000000000000000000000";

/** A token's key in the batch's stores and maps. */
export const tokenKey = (collection: string, tokenId: string) => `${collection}:${tokenId}`;

/** Settings events keep only their latest arguments, by event name. */
export const SETTINGS_EVENTS: ReadonlySet<string> = new Set([
  "MarketLockSet",
  "EntranceLockSet",
  "FeesSet",
  "MinimumsSet",
  "MinAuctionDurationSet",
  "SignerSet",
]);

/*
 * A block number and a block time in their stored text forms, kept for the last block asked: events come in
 * chain order and a backfill writes these into hundreds of thousands of rows, so this makes one string per
 * block instead of one per row (less for the handlers to allocate and for the heap to keep until the rows
 * are written).
 */
let lastNumber: bigint | null = null;
let lastNumberText = "";
let lastTime = Number.NaN;
let lastTimeText = "";

/** `String(n)`, for a block number. */
export function blockText(n: bigint): string {
  if (n !== lastNumber) {
    lastNumber = n;
    lastNumberText = n.toString();
  }
  return lastNumberText;
}

/** `time.toISOString()`, for a block time. */
export function timeText(time: Date): string {
  const ms = time.getTime();
  if (ms !== lastTime) {
    lastTimeText = time.toISOString();
    lastTime = ms;
  }
  return lastTimeText;
}
