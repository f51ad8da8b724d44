/**
 * How rows of the chain tables read on Easel, the same way for browse lists, item pages, profiles, trading
 * lists and the indexer's notifications: the name of a token without Easel metadata, the page of a
 * collection whose name another shares, and a listing or an offer that lapsed without an event.
 */
import { sql } from "drizzle-orm";

/** How a token without Easel metadata (minted elsewhere) is named. */
export const tokenName = (collectionName: string | null | undefined, tokenId: string) =>
  `${collectionName ?? "Token"} #${tokenId}`;

/**
 * `owns_name` over `chain_collections c`: whether the collection's page is `/collection/{name}`. The chain
 * does not make names unique; an older collection (by creation block, then address) with the same name
 * ignoring case keeps the name's page, and the others are reached by address.
 */
export const OWNS_NAME = sql`NOT EXISTS (
    SELECT 1 FROM chain_collections o
    WHERE lower(o.name) = lower(c.name) AND (o.created_block, o.address) < (c.created_block, c.address)
  ) AS owns_name`;

/** A collection's page segment from a row with `name`, `address` and `owns_name`. */
export const slugOf = (row: Record<string, unknown>) => String(row.owns_name ? row.name : row.address);

/**
 * A listing lapses 100 days after it was set (the contract refuses to sell it) without any event, so the
 * indexer's `fix` status and price are corrected here, at read time.
 */
export function listingLapsed(status: string, listingExpiresAt: Date | null): boolean {
  return status === "fix" && !!listingExpiresAt && listingExpiresAt.getTime() <= Date.now();
}

/**
 * Over `chain_tokens t`: the token's current offer (`t.offer`) is live. An offer expires without any event (the
 * market refuses to accept it from its `expiresAt` on), so one past its expiry is no offer at read time; a null
 * expiry is an offer made before offers expired.
 */
export const LIVE_OFFER = sql`(t.offer_expires_at IS NULL OR t.offer_expires_at > now())`;

/**
 * An offer row's status as readers show it: an active offer past its expiry reads "expired" (its ETH stays in
 * the market until its offerer, or anyone, cancels it).
 */
export function offerStatus(status: string, expiresAt: Date | string | null): string {
  if (status !== "active" || expiresAt == null) return status;
  const ms = expiresAt instanceof Date ? expiresAt.getTime() : new Date(expiresAt).getTime();
  return ms <= Date.now() ? "expired" : status;
}
