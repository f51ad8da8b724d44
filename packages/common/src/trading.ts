import { z } from "zod";

/** Listings last this long (the market's SELL_ORDER_DURATION); unsold lazy items read as unlisted after it too. */
export const LISTING_DAYS = 100;

/** A next bid must top the current one by this much (the market's `MIN_INCREMENT_BPS`). */
export const MIN_BID_INCREMENT_BPS = 1000n;

/** The lowest next bid in an auction: the top bid plus 10%, or the base price with no bids yet. */
export const minNextBid = (basePrice: bigint, topBid: bigint | null): bigint =>
  topBid === null ? basePrice : topBid + (topBid * MIN_BID_INCREMENT_BPS) / 10_000n;

/** Wei amounts travel as decimal strings; `price` beside them is the same amount in ETH, for display. */
const weiString = z.string().regex(/^\d+$/);

/** A token as the chain tables know it (names and media details arrive with the mint API). */
export const chainTokenItemSchema = z.object({
  _id: z.string(),
  collection: z.object({ address: z.string(), name: z.string().nullable(), kind: z.string().nullable() }),
  tokenId: z.string(),
  name: z.string(),
  creator: z.string().nullable(),
  owner: z.string(),
  /**
   * minted, fix, auction, lazy-sold or burned; or lazy: an unsold lazy item, for sale and minted at purchase
   * (its `priceWei`, null once its listing's term ran out).
   */
  status: z.string(),
  image_cid: z.string().nullable(),
  royaltyBps: z.number().int().nullable(),
  collaborators: z.array(z.object({ account: z.string(), share: z.number() })),
  price: z.string().nullable(),
  priceWei: weiString.nullable(),
  lastPriceWei: weiString.nullable(),
});
export type ChainTokenItem = z.infer<typeof chainTokenItemSchema>;

export const chainCollectionItemSchema = z.object({
  _id: z.string(),
  contract_address: z.string(),
  name: z.string(),
  symbol: z.string(),
  kind: z.string(),
  owner: z.string(),
  tokensCount: z.number().int(),
  ownersCount: z.number().int(),
  floorPriceWei: weiString.nullable(),
  volumeWei: weiString,
});
export type ChainCollectionItem = z.infer<typeof chainCollectionItemSchema>;

/** One row of the Offers and Auctions panels and of the banned notice. */
export const tradeRowSchema = z.object({
  _id: z.string(),
  collection: z.string(),
  collectionName: z.string().nullable(),
  tokenId: z.string(),
  name: z.string(),
  /** The item's page; null when the chain tables do not know the token. */
  path: z.string().nullable(),
  /** Amount in ETH (offer, top bid or start/reserve price). */
  price: z.string(),
  priceWei: weiString,
  /**
   * offer: active/expired (past its expiry, still escrowed until cancelled)/outbid/cancelled/accepted; auction:
   * active/cancelled/completed; listing: active.
   */
  status: z.string(),
  /** The other side: the token's owner for an offer made, the offerer for one received, the top bidder. */
  counterparty: z.string().nullable(),
  /** Auction kind (standard or reserve) and end, when the row is an auction; a listing's or an offer's expiry. */
  kind: z.string().nullable(),
  endTime: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export type TradeRow = z.infer<typeof tradeRowSchema>;

export const profileOffersResponseSchema = z.object({
  data: z.object({ made: z.array(tradeRowSchema), received: z.array(tradeRowSchema) }),
});
export const profileAuctionsResponseSchema = z.object({
  data: z.object({ held: z.array(tradeRowSchema), bidOn: z.array(tradeRowSchema) }),
});
/**
 * What a banned user can still cancel: active fixed-price listings, auctions without bids, active offers (expired
 * ones too: cancelling returns their ETH).
 */
export const profileOpenOrdersResponseSchema = z.object({
  data: z.object({
    listings: z.array(tradeRowSchema),
    auctions: z.array(tradeRowSchema),
    offers: z.array(tradeRowSchema),
  }),
});
export type ProfileOffersResponse = z.infer<typeof profileOffersResponseSchema>;
export type ProfileAuctionsResponse = z.infer<typeof profileAuctionsResponseSchema>;
export type ProfileOpenOrdersResponse = z.infer<typeof profileOpenOrdersResponseSchema>;

/** `GET /api/profile/credits`: payments held for the user because their wallet refused them, per contract. */
export const profileCreditsResponseSchema = z.object({
  data: z.object({ credits: z.array(z.object({ contract: z.string(), amountWei: weiString })) }),
});
export type ProfileCreditsResponse = z.infer<typeof profileCreditsResponseSchema>;
