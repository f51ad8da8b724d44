import { CID } from "multiformats/cid";
import { formatEther, hexToBytes } from "viem";
import type { Batch } from "../batch.ts";
import type { ChainEvent, EaselEvent, EventName } from "../decode.ts";
import { blockText, timeText, tokenKey } from "../keys.ts";
import type { Row } from "../store.ts";

/** One handler per event name, receiving that event's typed arguments. */
export type Handlers = { [N in EventName]?: (b: Batch, e: EaselEvent<N>) => void };

/**
 * The stored name of a numeric kind from the contracts' constants (COLLECTION_KIND, AUCTION_KIND,
 * SALE_MECHANISM), in kebab-case: 2 in SALE_MECHANISM is "auction", 1 is "buy-now".
 */
export function kindName(kinds: Readonly<Record<string, number>>, value: unknown): string {
  const key = Object.keys(kinds).find((k) => kinds[k] === Number(value));
  return key ? key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`) : String(value);
}

export function cidString(hex: unknown): string | null {
  try {
    return CID.decode(hexToBytes(hex as `0x${string}`)).toString();
  } catch {
    return null;
  }
}

export const eth = (wei: unknown) => `${formatEther(BigInt(String(wei)))} ETH`;

/** Creator, CID, royalty and split from a `Minted` or `LazyMinted` event. */
export function setMintDetails(token: Row, a: Record<string, unknown>) {
  token.creator = a.creator;
  token.cid = cidString(a.cid);
  token.royalty_bps = Number(a.royaltyBps);
  token.collaborators = ((a.collaborators as { account: string; share: string }[]) ?? []).map((c) => ({
    account: c.account,
    share: Number(c.share),
  }));
}

/** Events that put a token on sale: the "Recently Listed" sort orders by the latest of them. */
const LISTING_EVENTS = new Set(["SellOrderSet", "AuctionCreated"]);

export function setTokenStatus(b: Batch, e: ChainEvent, token: Row, status: string, price: unknown): void {
  if (token.status !== "burned") token.status = status;
  if (LISTING_EVENTS.has(e.name)) token.listed_at = timeText(e.blockTime);
  else if (status !== "fix" && status !== "auction") token.listed_at = null;
  token.price = price == null ? null : String(price);
  token.updated_block = blockText(e.blockNumber);
  b.tokens.touch(token);
}

export function setAccount(b: Batch, e: ChainEvent, change: Row): void {
  const address = String(e.args.account);
  const row = b.accounts.get(address) ?? { address, banned: false, verified_artist: false };
  b.accounts.set({ ...row, ...change, updated_block: blockText(e.blockNumber) });
  b.touched.accounts.add(address);
}

export function activeAuction(b: Batch, collection: string, tokenId: string): Row | undefined {
  const key = b.activeAuction.get(tokenKey(collection, tokenId));
  return key ? b.auctions.get(key) : undefined;
}

export function endAuction(
  b: Batch,
  e: ChainEvent,
  collection: string,
  tokenId: string,
  status: string,
  winner: string | null,
) {
  const auction = activeAuction(b, collection, tokenId);
  if (!auction) return;
  auction.status = status;
  auction.winner = winner;
  auction.updated_block = blockText(e.blockNumber);
  b.auctions.touch(auction);
  b.activeAuction.delete(tokenKey(collection, tokenId));
  b.copyToToken(collection, tokenId, { auction_kind: null, auction_end: null });
}

/** Tells a buyer their purchase went through (a buy-now sale or a lazy mint). */
export function notifyPurchase(
  b: Batch,
  e: ChainEvent,
  purchase: {
    buyer: unknown;
    price: unknown;
    data: { collection: string; tokenId: string } & Row;
  },
): void {
  const { buyer, price, data } = purchase;
  b.notify(
    e,
    buyer,
    "purchase",
    "successfulPurchase",
    (item) => `You bought ${item} for ${eth(price)}.`,
    data,
  );
}
