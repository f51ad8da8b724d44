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
