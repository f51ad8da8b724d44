import { z } from "zod";
import { personRefSchema } from "./accounts.ts";
import { addressSchema, hexSchema } from "./api.ts";
import { signedListingOrderSchema, signedListingSchema } from "./signedListings.ts";

/**
 * Many at once: a collector's cart (several works in one `buyMany` transaction, a collection's floor swept), a
 * seller's bulk listing (one signature over many signed listings) and offers on a whole collection or a trait.
 * The contracts' side is `market/Carts`, `fillBulkSignedListing` and `market/CollectionOffers`
 * (packages/contracts/README.md); the builders of bulk trees and token roots are `bulkListing` and `tokenRoot`
 * in @easel/contracts.
 */

const uintString = z.string().regex(/^\d{1,78}$/, "Must be a whole number");
const bytes32Schema = z.string().regex(/^0x[0-9a-fA-F]{64}$/, "Must be 32 bytes");

/** The most works one cart buys (the contract's `MAX_CART`). */
export const MAX_CART_ITEMS = 50;
/** The most works a sweep buys. */
export const MAX_SWEEP = 20;
/** The most listings one bulk signature covers (a tree of height 10). */
export const MAX_BULK_LISTINGS = 1024;

// ---------------------------------------------------------------- cart

/** A work in a cart: its token. */
export const cartItemSchema = z.object({ collection: addressSchema, tokenId: uintString });
export type CartItem = z.infer<typeof cartItemSchema>;

/** POST /api/cart/quote: the works to buy (1 to 50, no duplicates). */
export const cartQuoteInputSchema = z.object({
  items: z
    .array(cartItemSchema)
    .min(1, "The cart is empty")
    .max(MAX_CART_ITEMS, "A cart holds at most 50 works"),
});
export type CartQuoteInput = z.infer<typeof cartQuoteInputSchema>;

/** `buyMany`'s `ListedPurchase`: an on-chain listing at its price. */
export const listedPurchaseSchema = z.object({
  collection: addressSchema,
  tokenId: uintString,
  price: uintString,
});
export type ListedPurchase = z.infer<typeof listedPurchaseSchema>;

/** `buyMany`'s `SignedPurchase`: a signed listing, with its leaf index and proof when it is from a bulk signature. */
export const signedPurchaseSchema = z.object({
  order: signedListingOrderSchema,
  signature: hexSchema,
  /** "0" and an empty proof for a single signed listing. */
  bulkIndex: uintString,
  bulkProof: z.array(bytes32Schema),
});
export type SignedPurchase = z.infer<typeof signedPurchaseSchema>;

/**
 * Why a work of a cart cannot be bought now.
 * - sold: it changed hands (`soldTo` says to whom); unlisted: no live listing (cancelled, expired, moved to an
 *   auction); own: the buyer owns it or listed it; refused: the market refuses it now (a lock, a ban, a block);
 *   missing: no such work.
 */
export const CART_UNAVAILABLE_REASONS = ["sold", "unlisted", "own", "refused", "missing"] as const;
export type CartUnavailableReason = (typeof CART_UNAVAILABLE_REASONS)[number];

/** One work of a quote, rechecked on chain just now. */
export const cartQuoteLineSchema = z.object({
  collection: addressSchema,
  tokenId: uintString,
  name: z.string(),
  /** The item page, or null when the work is unknown. */
  path: z.string().nullable(),
  image: z.string().nullable(),
  seller: personRefSchema.nullable(),
  /** The price to pay now (null when unavailable). */
  priceWei: uintString.nullable(),
  /** Null when the work can be bought; otherwise why not, in `message` as the app shows it. */
  unavailable: z.enum(CART_UNAVAILABLE_REASONS).nullable(),
  message: z.string().nullable(),
  /** The new owner of a sold work. */
  soldTo: personRefSchema.nullable(),
  /** Exactly one of these is set for a work that can be bought. */
  listed: listedPurchaseSchema.nullable(),
  signed: signedPurchaseSchema.nullable(),
});
export type CartQuoteLine = z.infer<typeof cartQuoteLineSchema>;

/** POST /api/cart/quote (200): every line in the order asked, the total of those that can be bought. */
export const cartQuoteResponseSchema = z.object({
  data: z.object({ lines: z.array(cartQuoteLineSchema), totalWei: uintString }),
});
export type CartQuote = z.infer<typeof cartQuoteResponseSchema>["data"];

/**
 * GET /api/cart/sweep?collection=&count=&maxPriceWei=: the collection's `count` (1 to 20) cheapest works for sale
 * at a fixed price at or below the cap, cheapest first, quoted as a cart (same lines).
 */
export const sweepQuerySchema = z.object({
  collection: addressSchema,
  count: z.coerce.number().int().min(1).max(MAX_SWEEP),
  maxPriceWei: uintString.optional(),
});
export type SweepQuery = z.infer<typeof sweepQuerySchema>;

// ---------------------------------------------------------------- bulk listings

/**
 * POST /api/signed-listings/bulk: the orders as the seller signed them, in leaf order (`bulkListing(orders)` of
 * @easel/contracts pads them to the tree), and the one signature over the tree. Every order is checked as a
 * single one (owner, approval, price rules, bans, blocks, the seller's counter, expiry, duplicates) and on chain
 * with `bulkSignedListingStatus`.
 */
export const bulkListingInputSchema = z.object({
  orders: z
    .array(signedListingOrderSchema)
    .min(1, "Choose at least one work")
    .max(MAX_BULK_LISTINGS, "One signature lists at most 1,024 works"),
  signature: hexSchema.max(4098),
});
export type BulkListingInput = z.infer<typeof bulkListingInputSchema>;

/** POST /api/signed-listings/bulk (201): the orders stored, and those refused with the reason in words. */
export const bulkListingResponseSchema = z.object({
  data: z.object({
    stored: z.array(signedListingSchema),
    refused: z.array(z.object({ index: z.number().int(), tokenId: uintString, message: z.string() })),
  }),
});

/**
 * GET /api/signed-listings/listable?collection=: the signed-in wallet's works it can list by signature now (it
 * owns them; not in an auction, not listed on chain), in one collection or all, newest first, at most 1,024;
 * `signedPriceWei` is its live signed listing's price, if any (a new one replaces it).
 */
export const listableWorkSchema = z.object({
  collection: addressSchema,
  collectionName: z.string().nullable(),
  tokenId: uintString,
  name: z.string(),
  imageCid: z.string().nullable(),
  path: z.string().nullable(),
  signedPriceWei: uintString.nullable(),
});
export type ListableWork = z.infer<typeof listableWorkSchema>;
export const listableWorksResponseSchema = z.object({ data: z.array(listableWorkSchema) });

// ---------------------------------------------------------------- collection and trait offers

/** `CollectionOffer` as the contract takes it; `tokenRoot` is 32 zero bytes for an offer on any token. */
export const collectionOfferTermsSchema = z.object({
  buyer: addressSchema,
  collection: addressSchema,
  tokenRoot: bytes32Schema,
  price: uintString,
  expiresAt: uintString,
});
export type CollectionOfferTerms = z.infer<typeof collectionOfferTermsSchema>;

/**
 * POST /api/collection-offers/roots: the token ids a trait offer covers, computed by the server from the
 * collection's items whose property `traitType` is `traitValue` (the client sends the trait, not the ids). The
 * answer is the root to put in the offer; the server keeps the ids so that owners get their proofs.
 */
export const traitRootInputSchema = z.object({
  collection: addressSchema,
  traitType: z.string().trim().min(1).max(64),
  traitValue: z.string().trim().min(1).max(64),
});
export const traitRootResponseSchema = z.object({
  data: z.object({ tokenRoot: bytes32Schema, tokenIds: z.array(uintString) }),
});

export const COLLECTION_OFFER_STATUSES = ["active", "filled", "cancelled", "expired"] as const;

/** A collection offer as the indexer recorded it. */
export const collectionOfferSchema = z.object({
  offerId: bytes32Schema,
  terms: collectionOfferTermsSchema,
  buyerPerson: personRefSchema,
  /** The collection's name as the chain has it (null when unknown). */
  collectionName: z.string().nullable(),
  /** The trait it covers, or null for any token (or a root the server does not know). */
  trait: z.object({ traitType: z.string(), traitValue: z.string() }).nullable(),
  quantity: z.number().int(),
  remaining: z.number().int(),
  status: z.enum(COLLECTION_OFFER_STATUSES),
  createdAt: z.string(),
});
export type CollectionOffer = z.infer<typeof collectionOfferSchema>;

/**
 * GET /api/collection-offers?collection=&buyer=&status=: offers of a collection (best price first) or of a buyer
 * (newest first).
 */
export const collectionOffersResponseSchema = z.object({ data: z.array(collectionOfferSchema) });

/**
 * GET /api/collection-offers/best?collection=&tokenId=: the best live offer that covers this work, with the proof
 * its owner passes to `acceptCollectionOffer` (empty for an offer on any token); data null when none.
 */
export const bestCollectionOfferResponseSchema = z.object({
  data: z.object({ offer: collectionOfferSchema, proof: z.array(bytes32Schema) }).nullable(),
});
