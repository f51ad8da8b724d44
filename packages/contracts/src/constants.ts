/**
 * The Easel contracts' fixed values. The contracts keep them `internal`: each public getter would add 22 gas of
 * dispatch to every call above it. The adjustable values are read from the market's `minimums()` and `config()`.
 */

/** Auction kinds in `getTokenInfo().auctionKind` and the AuctionCreated event. */
export const AUCTION_KIND = { none: 0, standard: 1, reserve: 2 } as const;

/** Collection kinds (EaselCollection.collectionInfo, CollectionCreated event). */
export const COLLECTION_KIND = { standard: 1, lazy: 2, default: 3 } as const;

/** The `mechanism` field of the market's Sale event. */
export const SALE_MECHANISM = {
  buyNow: 1,
  auction: 2,
  offer: 3,
  signedListing: 4,
  collectionOffer: 5,
} as const;

/** Listings expire this many seconds after being set. */
export const SELL_ORDER_DURATION_S = 100 * 24 * 60 * 60;
/** A reserve auction lasts this long after its first bid. */
export const RESERVE_AUCTION_DURATION_S = 72 * 60 * 60;
/** Longest standard auction, and furthest ahead it may start. */
export const MAX_AUCTION_DURATION_S = 14 * 24 * 60 * 60;
/** A bid with this long or less left adds this much to the auction's end. */
export const AUCTION_EXTENSION_S = 15 * 60;
/** A later bid must beat the top bid by this many basis points. */
export const MIN_BID_INCREMENT_BPS = 1_000n;
/** Highest royalty in basis points (20%). */
export const MAX_ROYALTY_BPS = 2_000;
/** Highest price, bid or offer in wei (2^80 - 1). */
export const MAX_PRICE_WEI = (1n << 80n) - 1n;
/** Most collaborators sharing a token's earnings. */
export const MAX_COLLABORATORS = 5;
/** Highest primary commission and secondary fee the controller may set, in basis points. */
export const MAX_PRIMARY_FEE_BPS = 2_000;
export const MAX_SECONDARY_FEE_BPS = 1_000;
/** Gas forwarded with a pushed payment; a push that fails is credited for withdrawal instead. */
export const SEND_GAS_LIMIT = 20_000;

/** EIP-712 domain names and types of the vouchers the platform signer signs. */
export const LAZY_MINT_DOMAIN = { name: "Easel Collection", version: "1" } as const;
export const LAZY_COLLECTION_DOMAIN = { name: "Easel Factory", version: "1" } as const;

/**
 * The market's EIP-712 domain for signed listings (with `chainId` and `verifyingContract` = the market's
 * address; the market answers the same with `eip712Domain()`).
 */
export const SIGNED_LISTING_DOMAIN = { name: "Easel Market", version: "1" } as const;

/**
 * A fixed-price listing the seller signs instead of sending `setSellOrder`; anyone fills it with
 * `fillSignedListing(order, signature)`. `transferCount` is the token's (`transferCountOf`; any transfer, and the
 * owner's `cancelSignedListing`, raises it), `counter` the seller's (`listingCounterOf`, raised by
 * `incrementListingCounter`); `expiresAt` at most 100 days ahead (further out, the order is not yet valid and
 * fills once it is within 100 days: the API refuses to store it); `maxFeeBps` the highest platform fee the seller
 * accepts (`signedListingMaxFeeBps`): a fill is refused while the fee that applies is above it.
 */
export const signedListingTypes = {
  SignedListing: [
    { name: "collection", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "seller", type: "address" },
    { name: "transferCount", type: "uint256" },
    { name: "counter", type: "uint256" },
    { name: "expiresAt", type: "uint256" },
    { name: "maxFeeBps", type: "uint16" },
  ],
} as const;

/**
 * The `maxFeeBps` a seller signs: the fee that applies to the token's next market sale now, the primary
 * commission if the token was never sold through the market (`saleInfo(tokenId).primarySold` is false), else the
 * secondary fee (both from the market's `config()`). A later raise then refuses the order instead of applying.
 */
export const signedListingMaxFeeBps = (
  fees: { primaryFeeBps: number; secondaryFeeBps: number },
  primarySold: boolean,
) => (primarySold ? fees.secondaryFeeBps : fees.primaryFeeBps);

/** Why a signed listing cannot be filled now: `signedListingStatus(order, signature)` of the market. */
export const SIGNED_LISTING_STATUS = {
  live: 0,
  invalidSignature: 1,
  expired: 2,
  /** Its expiry is more than 100 days ahead: not yet valid (not dead), it fills once within 100 days. */
  notYetValid: 3,
  /** @deprecated The same status as `notYetValid` (the contract's `ExpiryTooFar` revert), by its old name. */
  expiryTooFar: 3,
  counterIncremented: 4,
  void: 5,
  notApproved: 6,
  /** Locked (the market, or its entrance), seller banned, token or collection blocked, or price out of range. */
  refused: 7,
  /** The fee that applies now is above the order's `maxFeeBps` (fillable again if the fee comes down). */
  feeAboveMax: 8,
} as const;

/**
 * The signed lazy-mint voucher. `buyer` and `collection` are signed but not passed to `lazyMint`: the collection
 * hashes `msg.sender` and itself in their place. `nonce` is the collection's voucher nonce
 * (`collectionInfo().voucherNonce`); `revokeVouchers()` bumps it and voids every voucher signed before.
 */
export const lazyMintVoucherTypes = {
  LazyMintVoucher: [
    { name: "tokenId", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "buyer", type: "address" },
    { name: "royaltyBps", type: "uint16" },
    { name: "collection", type: "address" },
    { name: "cid", type: "bytes" },
    { name: "collaborators", type: "Collaborator[]" },
    { name: "nonce", type: "uint48" },
    { name: "deadline", type: "uint256" },
  ],
  Collaborator: [
    { name: "account", type: "address" },
    { name: "share", type: "uint8" },
  ],
} as const;

export const lazyCollectionVoucherTypes = {
  LazyCollectionVoucher: [
    { name: "owner", type: "address" },
    { name: "maxSupply", type: "uint32" },
    { name: "name", type: "string" },
    { name: "symbol", type: "string" },
    { name: "category", type: "string" },
    { name: "deadline", type: "uint256" },
  ],
} as const;
