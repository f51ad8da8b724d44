import { z } from "zod";
import { personRefSchema } from "./accounts.ts";
import { addressSchema, hexSchema } from "./api.ts";

/**
 * Signed listings: a seller signs an EIP-712 `SignedListing` (no gas); anyone fills it on chain with
 * `fillSignedListing(order, signature)` at exactly its price. The API keeps the order book: it stores an
 * order only after checking it on chain (`signedListingStatus`), shows it wherever a listing shows, rechecks it
 * before handing it to a buyer, and retires it on fills, cancels, transfers and counter bumps. The EIP-712
 * domain and types are the contracts' (`SIGNED_LISTING_DOMAIN`, `signedListingTypes` in @easel/contracts).
 */

const uintString = z.string().regex(/^\d{1,78}$/, "Must be a whole number");

/**
 * An order as signed: every uint256 a decimal string; `expiresAt` in unix seconds; `maxFeeBps` (uint16) the
 * highest platform fee the seller accepts, in basis points (the chain refuses a fill above it).
 */
export const signedListingOrderSchema = z.object({
  collection: addressSchema,
  tokenId: uintString,
  price: uintString,
  seller: addressSchema,
  transferCount: uintString,
  counter: uintString,
  expiresAt: uintString,
  maxFeeBps: z.number().int().min(0).max(10_000),
});
export type SignedListingOrder = z.infer<typeof signedListingOrderSchema>;

/** POST /api/signed-listings: the order and the seller's signature (65 bytes, or any length for ERC-1271). */
export const signedListingInputSchema = z.object({
  order: signedListingOrderSchema,
  signature: hexSchema.max(4098),
});
export type SignedListingInput = z.infer<typeof signedListingInputSchema>;

/**
 * Where an order stands in the book.
 * - active: shown and fillable.
 * - hidden: the seller hid it in the app; still valid on chain until cancelled or the counter is bumped.
 * - paused: the chain refuses it for now (`pausedReason`: the market's approval withdrawn, a ban, a block, a
 *   price under a raised minimum, a contract wallet not accepting its signature, a fee raised above the order's
 *   `maxFeeBps`). It can be filled again
 *   once that ends, so it is off the book (and its signature is not handed out) but stays on the seller's
 *   Manage; the worker rechecks it and shows it again when the chain says live. A market or entrance lock
 *   pauses nothing.
 * - filled, cancelled (on chain, this token), bumped (the seller's counter), void (the token moved, was put
 *   in an auction or burned), expired: final, the chain can never fill it.
 */
export const SIGNED_LISTING_STATUSES = [
  "active",
  "hidden",
  "paused",
  "filled",
  "cancelled",
  "bumped",
  "void",
  "expired",
] as const;
export type SignedListingStatus = (typeof SIGNED_LISTING_STATUSES)[number];

/**
 * Why the chain refuses a paused order for now (each a passing state: the order revives when it ends).
 * - notApproved: the seller withdrew the market's approval for the collection (or the token).
 * - banned: the seller is banned. tokenBlocked, collectionBlocked: Easel blocked the item or its collection.
 * - priceMin: the listing minimum was raised above its price.
 * - signature: the seller's contract wallet (ERC-1271) does not accept the signature now.
 * - fee: the market's fee that applies to the sale (the primary commission on a first sale, else the secondary
 *   fee) is above the order's `maxFeeBps`.
 * - refused: any other refusal of the market.
 */
export const SIGNED_LISTING_PAUSE_REASONS = [
  "notApproved",
  "banned",
  "tokenBlocked",
  "collectionBlocked",
  "priceMin",
  "signature",
  "fee",
  "refused",
] as const;
export type SignedListingPauseReason = (typeof SIGNED_LISTING_PAUSE_REASONS)[number];

export const signedListingSchema = z.object({
  id: z.string(),
  order: signedListingOrderSchema,
  status: z.enum(SIGNED_LISTING_STATUSES),
  createdAt: z.string(),
});
export type SignedListing = z.infer<typeof signedListingSchema>;

/** POST /api/signed-listings (201) and DELETE /api/signed-listings/:id (200). */
export const signedListingResponseSchema = z.object({ data: signedListingSchema });

/**
 * GET /api/signed-listings/fill?collection=&tokenId=: the token's best order, rechecked on chain just now,
 * with the signature a buyer passes to `fillSignedListing`. 404 when the token has no live signed listing
 * (a stale one found by the recheck is retired, or paused when the chain may fill it again, first); 403
 * `market_locked` during a market or entrance lock, which changes nothing in the book.
 */
export const signedListingFillResponseSchema = z.object({
  data: z.object({
    id: z.string(),
    order: signedListingOrderSchema,
    signature: hexSchema,
    /**
     * For an order from a bulk signature (one signature over many listings): its leaf index and proof, which
     * `fillBulkSignedListing(order, bulkSignature)` takes packed with the signature (`packBulkSignature` in
     * `@easel/contracts/orders`); null (or absent) for a single signed listing.
     */
    bulk: z
      .object({
        index: z.string().regex(/^\d{1,4}$/),
        proof: z.array(z.string().regex(/^0x[0-9a-fA-F]{64}$/)),
      })
      .nullable()
      .optional(),
  }),
});

/**
 * GET /api/signed-listings/mine: the signed-in seller's orders that can still be filled on chain (active,
 * hidden and paused), newest first, with their items' names, so Manage can say which are only hidden and
 * which the chain would fill again once a passing refusal ends (`pausedReason`).
 */
export const mySignedListingsResponseSchema = z.object({
  data: z.array(
    signedListingSchema.extend({
      name: z.string(),
      path: z.string().nullable(),
      /** Why a paused order is off the book (null for the others). */
      pausedReason: z.enum(SIGNED_LISTING_PAUSE_REASONS).nullable(),
    }),
  ),
  /** The seller's current listing counter on chain (bumping it voids every order above). */
  counter: uintString,
});

/** GET /api/admin/held: payments the market holds for banned payees (moderators only). */
export const heldPaymentsResponseSchema = z.object({
  data: z.array(
    z.object({
      account: addressSchema,
      /** The payee with their profile's names. */
      person: personRefSchema,
      /** Held now: every PaymentHeld minus what was released or forfeited. */
      heldWei: uintString,
      releasedWei: uintString,
      forfeitedWei: uintString,
      lastTx: hexSchema,
      lastAt: z.string(),
    }),
  ),
  totalHeldWei: uintString,
});
