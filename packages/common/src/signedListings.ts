import { z } from "zod";
import { addressSchema, hexSchema } from "./api.ts";

/**
 * Signed listings: a seller signs an EIP-712 `SignedListing` (no gas); anyone fills it on chain with
 * `fillSignedListing(order, signature)` at exactly its price. The API keeps the order book: it stores an
 * order only after checking it on chain (`signedListingStatus`), shows it wherever a listing shows, rechecks it
 * before handing it to a buyer, and retires it on fills, cancels, transfers and counter bumps. The EIP-712
 * domain and types are the contracts' (`SIGNED_LISTING_DOMAIN`, `signedListingTypes` in @easel/contracts).
 */

const uintString = z.string().regex(/^\d{1,78}$/, "Must be a whole number");

/** An order as signed: every uint256 a decimal string; `expiresAt` in unix seconds. */
export const signedListingOrderSchema = z.object({
  collection: addressSchema,
  tokenId: uintString,
  price: uintString,
  seller: addressSchema,
  transferCount: uintString,
  counter: uintString,
  expiresAt: uintString,
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
 * - filled, cancelled (on chain, this token), bumped (the seller's counter), void (the token moved, was
 *   escrowed or burned), expired, refused (a recheck found a ban, a block, a lost approval or a price below
 *   the minimum).
 */
export const SIGNED_LISTING_STATUSES = [
  "active",
  "hidden",
  "filled",
  "cancelled",
  "bumped",
  "void",
  "expired",
  "refused",
] as const;
export type SignedListingStatus = (typeof SIGNED_LISTING_STATUSES)[number];

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
 * (a stale one found by the recheck is retired first).
 */
export const signedListingFillResponseSchema = z.object({
  data: z.object({ id: z.string(), order: signedListingOrderSchema, signature: hexSchema }),
});

/**
 * GET /api/signed-listings/mine: the signed-in seller's orders that can still be filled on chain (active and
 * hidden), newest first, with their items' names, so Manage can say which are only hidden.
 */
export const mySignedListingsResponseSchema = z.object({
  data: z.array(signedListingSchema.extend({ name: z.string(), path: z.string().nullable() })),
  /** The seller's current listing counter on chain (bumping it voids every order above). */
  counter: uintString,
});

/** GET /api/admin/held: payments the market holds for banned payees (moderators only). */
export const heldPaymentsResponseSchema = z.object({
  data: z.array(
    z.object({
      account: addressSchema,
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
