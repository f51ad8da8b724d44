/**
 * A collector's cart (issue 51): every work rechecked on chain just now, as `/api/signed-listings/fill` does for
 * one, and answered with what `buyMany(listed, signed, false)` takes, or why it cannot be bought, in words. A
 * sweep is a cart of a collection's cheapest works. The routes are in `routes/cart.ts`.
 *
 * Which listing a work is bought through: its live on-chain listing (`getTokenInfo`, which answers none for a
 * listing voided by a move or past its term), else the book's best active signed order that the chain finds
 * live (`signedListingStatus`, or `bulkSignedListingStatus` for an order from a bulk signature); a stale order
 * met on the way leaves the book (or is paused), as on `/fill`.
 */
import {
  type CartItem,
  type CartQuote,
  type CartQuoteLine,
  type CartUnavailableReason,
  displayName,
  type PersonRef,
  type SignedPurchase,
} from "@easel/common";
import { easelCollectionAbi, easelMarketAbi } from "@easel/contracts/abis";
import { sql } from "drizzle-orm";
import type { PublicClient } from "viem";
import { OWNS_NAME, slugOf, tokenName } from "../chain/rows.ts";
import type { Database } from "../db/client.ts";
import { reproject } from "./listingIntake.ts";
import {
  applyVerdict,
  bulkOf,
  orderOf,
  orderStatus,
  verdictOf,
  withProjectionLock,
} from "./signedListings.ts";

/** What the quote says of a work that cannot be bought now (the app shows it as it is). */
export const CART_MESSAGES = {
  sold: (to: PersonRef) => `Sold to ${displayName(to)}`,
  unlisted: "No longer for sale",
  own: "This is your own work",
  ownListing: "You listed this work",
  missing: "Item not found",
  locked: "The market is locked: trading is paused for now.",
  buyerBanned: "This account is banned from trading on Easel.",
  sellerBanned: "Not for sale: the seller's account is suspended on Easel.",
  tokenBlocked: "This item is blocked on Easel.",
  collectionBlocked: "This collection is blocked on Easel.",
  notApproved: "Not for sale now: the seller's approval of Easel's market was withdrawn.",
  refused: "The market refuses this sale now.",
  duplicate: "A work can be in the cart only once.",
} as const;

/** How many stale signed orders of one work a quote retires before saying it is not for sale. */
const RECHECKS = 10;
/** How many works are rechecked on chain at once. */
const PARALLEL = 8;
const ZERO = "0x0000000000000000000000000000000000000000";

export type CartDeps = { db: Database; chain: PublicClient; market: `0x${string}` };

/** A cart's works as the chain and the book name them: lowercase addresses, canonical decimals. */
export const canonicalItems = (items: readonly CartItem[]): CartItem[] =>
  items.map((item) => ({
    collection: item.collection.toLowerCase(),
    tokenId: BigInt(item.tokenId).toString(),
  }));

/** The index of the first work that repeats an earlier one, or -1. */
export function firstDuplicate(items: readonly CartItem[]): number {
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    const key = `${item.collection}:${item.tokenId}`;
    if (seen.has(key)) return index;
    seen.add(key);
  }
  return -1;
}

/**
 * Quotes `items` (canonical, no duplicates) for `buyer` (the signed-in wallet, or null: then no work reads as
 * its own). Every line in the order asked; the total of those that can be bought.
 */
export async function quoteCart(deps: CartDeps, items: CartItem[], buyer: string | null): Promise<CartQuote> {
  const { db, chain, market } = deps;
  const rows = await tokenRows(db, items);
  const block = await chain.getBlockNumber({ cacheTime: 0 });
  const at = { address: market, abi: easelMarketAbi, blockNumber: block } as const;
  const [config, buyerBanned] = await Promise.all([
    chain.readContract({ ...at, functionName: "config" }),
    buyer
      ? chain.readContract({ ...at, functionName: "isBanned", args: [buyer as `0x${string}`] })
      : Promise.resolve(false),
  ]);
  const context: LineContext = { deps, block, buyer, locked: config.locked, buyerBanned };
  const checked = await mapLimited(items, PARALLEL, (item) =>
    checkLine(context, item, rows.get(`${item.collection}:${item.tokenId}`)),
  );
  // The people named (sellers, new owners), with their profiles' names, in one query.
  const people = await peopleOf(db, [
    ...checked.flatMap((line) => [line.seller, line.soldTo].filter((a): a is string => !!a)),
  ]);
  const person = (address: string | null) =>
    address ? (people.get(address) ?? { address, name: null, username: null, ens: null }) : null;
  let total = 0n;
  const lines = checked.map((line): CartQuoteLine => {
    const soldTo = person(line.soldTo);
    if (line.priceWei !== null) total += BigInt(line.priceWei);
    return {
      collection: line.item.collection,
      tokenId: line.item.tokenId,
      name: line.name,
      path: line.path,
      image: line.image,
      seller: person(line.seller),
      priceWei: line.priceWei,
      unavailable: line.unavailable,
      message: line.unavailable === "sold" && soldTo ? CART_MESSAGES.sold(soldTo) : line.message,
      soldTo,
      listed: line.listed,
      signed: line.signed,
    };
  });
  return { lines, totalWei: total.toString() };
}

type LineContext = {
  deps: CartDeps;
  block: bigint;
  buyer: string | null;
  locked: boolean;
  buyerBanned: boolean;
};

/** A checked line before people are named. */
type Checked = {
  item: CartItem;
  name: string;
  path: string | null;
  image: string | null;
  seller: string | null;
  priceWei: string | null;
  unavailable: CartUnavailableReason | null;
  message: string | null;
  soldTo: string | null;
  listed: CartQuoteLine["listed"];
  signed: SignedPurchase | null;
};

async function checkLine(
  context: LineContext,
  item: CartItem,
  row: Record<string, unknown> | undefined,
): Promise<Checked> {
  const base = {
    item,
    name: row ? nameOf(row) : tokenName(null, item.tokenId),
    path: row ? itemPath(row) : null,
    image: (row?.thumbnail_cid as string | null | undefined) ?? null,
    seller: null,
    priceWei: null,
    soldTo: null,
    listed: null,
    signed: null,
  };
  const no = (unavailable: CartUnavailableReason, message: string, more: Partial<Checked> = {}): Checked => ({
    ...base,
    unavailable,
    message,
    ...more,
  });
  if (!row || row.status === "burned") return no("missing", CART_MESSAGES.missing);
  const { deps, block, buyer } = context;
  const at = { address: deps.market, abi: easelMarketAbi, blockNumber: block } as const;
  const collection = item.collection as `0x${string}`;
  const tokenId = BigInt(item.tokenId);
  let info: Awaited<ReturnType<typeof readTokenInfo>>;
  try {
    info = await readTokenInfo(deps.chain, at, collection, tokenId);
  } catch {
    // Not an Easel collection, or no such token on chain (burned since it was indexed).
    return no("missing", CART_MESSAGES.missing);
  }
  const owner = info.owner.toLowerCase();
  if (info.collectionBlocked) return no("refused", CART_MESSAGES.collectionBlocked);
  if (info.tokenBlocked) return no("refused", CART_MESSAGES.tokenBlocked);
  if (buyer && owner === buyer) return no("own", CART_MESSAGES.own);
  const listedSeller = info.seller.toLowerCase();
  if (listedSeller !== ZERO) {
    // A live listing on chain (`getSellOrder`: not voided by a move, not past its term).
    if (context.locked) return no("refused", CART_MESSAGES.locked, { seller: listedSeller });
    if (context.buyerBanned) return no("refused", CART_MESSAGES.buyerBanned, { seller: listedSeller });
    const [sellerBanned, approved] = await Promise.all([
      deps.chain.readContract({ ...at, functionName: "isBanned", args: [info.seller] }),
      marketApproved(deps.chain, collection, tokenId, info.seller, deps.market, block),
    ]);
    if (sellerBanned) return no("refused", CART_MESSAGES.sellerBanned, { seller: listedSeller });
    if (!approved) return no("refused", CART_MESSAGES.notApproved, { seller: listedSeller });
    const price = info.price.toString();
    return {
      ...base,
      seller: listedSeller,
      priceWei: price,
      unavailable: null,
      message: null,
      listed: { collection: item.collection, tokenId: item.tokenId, price },
    };
  }
  const signed = await liveSignedOrder(deps, item, block);
  if (signed.kind === "live") {
    const seller = signed.order.order.seller;
    if (buyer && seller === buyer) return no("own", CART_MESSAGES.ownListing, { seller });
    if (context.buyerBanned) return no("refused", CART_MESSAGES.buyerBanned, { seller });
    return {
      ...base,
      seller,
      priceWei: signed.order.order.price,
      unavailable: null,
      message: null,
      signed: signed.order,
    };
  }
  if (signed.kind === "locked") return no("refused", CART_MESSAGES.locked);
  if (signed.kind === "refused") return no("refused", signed.message, { seller: signed.seller });
  // Nothing live: sold when the work changed hands since it was last listed (on chain or by signature).
  const lastLister = (row.last_lister as string | null) ?? null;
  if (lastLister && lastLister !== owner) return no("sold", CART_MESSAGES.unlisted, { soldTo: owner });
  return no("unlisted", CART_MESSAGES.unlisted);
}

function readTokenInfo(
  chain: PublicClient,
  at: { address: `0x${string}`; abi: typeof easelMarketAbi; blockNumber: bigint },
  collection: `0x${string}`,
  tokenId: bigint,
) {
  return chain.readContract({ ...at, functionName: "getTokenInfo", args: [collection, tokenId] });
}

/** Whether the market may move the token for its owner (approved for all, or for this token). */
async function marketApproved(
  chain: PublicClient,
  collection: `0x${string}`,
  tokenId: bigint,
  owner: `0x${string}`,
  market: `0x${string}`,
  block: bigint,
): Promise<boolean> {
  const at = { address: collection, abi: easelCollectionAbi, blockNumber: block } as const;
  const [all, one] = await Promise.all([
    chain.readContract({ ...at, functionName: "isApprovedForAll", args: [owner, market] }),
    chain.readContract({ ...at, functionName: "getApproved", args: [tokenId] }).catch(() => ZERO),
  ]);
  return all || String(one).toLowerCase() === market.toLowerCase();
}

type SignedAnswer =
  | { kind: "live"; id: string; order: SignedPurchase }
  | { kind: "none" }
  | { kind: "locked" }
  | { kind: "refused"; message: string; seller: string };

/**
 * The token's best signed order in the book that the chain finds live at `block`, with what a cart passes for
 * it (and `/api/signed-listings/fill` hands a buyer). Only orders in the book: a hidden or paused order's
 * signature is its seller's alone. A stale order met on the way leaves the book (final) or is paused (refused
 * for now), and the next is tried; a lock changes nothing.
 */
export async function liveSignedOrder(deps: CartDeps, item: CartItem, block: bigint): Promise<SignedAnswer> {
  const { db, chain, market } = deps;
  let paused: { reason: string; seller: string } | null = null;
  for (let i = 0; i < RECHECKS; i++) {
    const { rows } = await db.$client.query(
      `SELECT * FROM signed_listings
       WHERE collection = $1 AND token_id = $2::numeric AND status = 'active'
       ORDER BY price, created_at, id LIMIT 1`,
      [item.collection, item.tokenId],
    );
    const row = rows[0] as Record<string, unknown> | undefined;
    if (!row) break;
    const order = orderOf(row);
    const signature = String(row.signature) as `0x${string}`;
    const bulk = bulkOf(row);
    // An order from a bulk signature is checked and filled with its leaf index and proof.
    const status = await orderStatus(chain, market, order, signature, bulk, block);
    const verdict = await verdictOf(chain, market, order, status, block);
    if (verdict.kind === "live")
      return {
        kind: "live",
        id: String(row.id),
        order: { order, signature, bulkIndex: String(bulk?.index ?? 0), bulkProof: bulk?.proof ?? [] },
      };
    if (verdict.kind === "locked") return { kind: "locked" };
    // Refused for now (a ban, a block, the approval withdrawn): said as such when no other order is live.
    if (verdict.kind === "paused") paused ??= { reason: verdict.reason, seller: order.seller };
    await withProjectionLock(db.$client, async (client) => {
      if (await applyVerdict(client, String(row.id), "active", verdict, block))
        await reproject(client, [item]);
    });
  }
  return paused
    ? { kind: "refused", message: pausedMessage(paused.reason), seller: paused.seller }
    : { kind: "none" };
}

function pausedMessage(reason: string): string {
  switch (reason) {
    case "banned":
      return CART_MESSAGES.sellerBanned;
    case "collectionBlocked":
      return CART_MESSAGES.collectionBlocked;
    case "tokenBlocked":
      return CART_MESSAGES.tokenBlocked;
    case "notApproved":
      return CART_MESSAGES.notApproved;
    default:
      return CART_MESSAGES.refused;
  }
}

/**
 * The tokens of a cart with what a line shows (name, page, thumbnail) and who listed each last (on chain or by
 * signature, whichever is newer): a work whose owner is no longer that lister changed hands since.
 */
async function tokenRows(db: Database, items: CartItem[]): Promise<Map<string, Record<string, unknown>>> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT t.collection, t.token_id::text AS token_id, t.status, t.owner, coalesce(t.creator, c.owner) AS creator,
      c.name, c.kind AS collection_kind, c.address, im.name AS item_name, am.thumbnail_cid, ${OWNS_NAME},
      (SELECT l.seller FROM (
         SELECT o.seller, o.listed_at AS at FROM chain_sell_orders o
         WHERE o.collection = t.collection AND o.token_id = t.token_id
         UNION ALL
         SELECT s.seller, s.created_at AS at FROM signed_listings s
         WHERE s.collection = t.collection AND s.token_id = t.token_id) l
       ORDER BY l.at DESC LIMIT 1) AS last_lister
    FROM unnest(${sql.param(items.map((i) => i.collection))}::text[],
                ${sql.param(items.map((i) => i.tokenId))}::numeric[]) AS p(collection, token_id)
    JOIN chain_tokens t ON t.collection = p.collection AND t.token_id = p.token_id
    JOIN chain_collections c ON c.address = t.collection
    LEFT JOIN item_metadata im ON im.cid = t.cid
    LEFT JOIN media am ON am.cid = im.media_cid`);
  return new Map(rows.map((row) => [`${row.collection}:${row.token_id}`, row]));
}

const nameOf = (row: Record<string, unknown>) =>
  (row.item_name as string | null) ?? tokenName((row.name as string | null) ?? null, String(row.token_id));

/** An item's page path, as the web app routes it. */
function itemPath(row: Record<string, unknown>): string | null {
  if (row.creator == null) return null;
  const creator = String(row.creator);
  if (row.collection_kind === "default") return `/${creator}/${row.token_id}`;
  return `/${creator}/${encodeURIComponent(slugOf(row))}/${row.token_id}`;
}

/** The profiles' names of `addresses` (lowercase). */
async function peopleOf(db: Database, addresses: string[]): Promise<Map<string, PersonRef>> {
  const unique = [...new Set(addresses)];
  if (unique.length === 0) return new Map();
  const { rows } = await db.$client.query(
    "SELECT address, name, username, ens FROM profiles WHERE address = ANY($1::text[])",
    [unique],
  );
  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  return new Map(
    rows.map((r: Record<string, unknown>) => [
      String(r.address),
      { address: String(r.address), name: text(r.name), username: text(r.username), ens: text(r.ens) },
    ]),
  );
}

/**
 * The sweep's candidates: the collection's works for sale at a fixed price (on chain or by signature, as the
 * token rows show them) at or below `maxPriceWei`, not `buyer`'s, cheapest first (then oldest id), `limit` of
 * them. The quote rechecks each; the sweep keeps the first `count` that can be bought.
 */
export async function sweepCandidates(
  db: Database,
  query: { collection: string; maxPriceWei: string | null; buyer: string | null; limit: number },
): Promise<CartItem[]> {
  const { rows } = await db.$client.query<{ collection: string; token_id: string }>(
    `SELECT t.collection, t.token_id::text AS token_id FROM chain_tokens t
     JOIN chain_collections c ON c.address = t.collection
     WHERE t.collection = $1 AND t.status = 'fix' AND t.price IS NOT NULL
       AND (t.listing_expires_at IS NULL OR t.listing_expires_at > now())
       AND NOT t.blocked AND NOT c.blocked
       AND ($2::numeric IS NULL OR t.price <= $2::numeric)
       AND ($3::text IS NULL OR t.owner <> $3::text)
     ORDER BY t.price, t.token_id LIMIT $4`,
    [query.collection, query.maxPriceWei, query.buyer, query.limit],
  );
  return rows.map((row) => ({ collection: row.collection, tokenId: row.token_id }));
}

/** `work` over `items` with at most `limit` running at once, results in order. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(runners);
  return results;
}
