/**
 * The market-wide activity feed (`GET /api/activity`) and the watchlist (`GET /api/watchlist`): issue 49 §3.
 */
import { z } from "zod";
import { personRefSchema } from "./accounts.ts";
import { MAX_PAGE_SIZE, nftCardSchema } from "./browse.ts";
import { FEED_KINDS } from "./options.ts";
import { ADDRESS_PATTERN } from "./wire.ts";

/** Rows of the feed a page holds by default, and the watchlist's. */
export const FEED_PAGE_SIZE = 30;
export const WATCHLIST_PAGE_SIZE = 24;

const weiString = z.string().regex(/^\d+$/);
const pageSize = (fallback: number) =>
  z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}`)
    .default(fallback);
/** An opaque keyset cursor, as a previous page returned it. */
const cursor = z
  .string()
  .max(300, "cursor is invalid")
  .regex(/^[A-Za-z0-9_-]+$/, "cursor is invalid")
  .optional();

/** `GET /api/activity`: newest first, keyset pages, by kind and collection. */
export const activityFeedQuerySchema = z.object({
  kind: z.enum(FEED_KINDS, { error: `kind must be one of: ${FEED_KINDS.join(", ")}` }).optional(),
  collection: z
    .string()
    .regex(ADDRESS_PATTERN, "collection must be a 0x address of 40 hex digits")
    .transform((value) => value.toLowerCase())
    .optional(),
  limit: pageSize(FEED_PAGE_SIZE),
  cursor,
});
export type ActivityFeedQuery = z.input<typeof activityFeedQuerySchema>;

export const feedRowSchema = z.object({
  /** Unique in the feed: block, log and row of the event. */
  id: z.string(),
  /** The chain's activity kind: sale, list, auction (an auction started), bid or offer. */
  kind: z.string(),
  collection: z.object({ address: z.string(), name: z.string() }),
  tokenId: z.string(),
  itemName: z.string(),
  /** The item page's path, as its links everywhere build it. */
  itemPath: z.string(),
  /** The artwork's thumbnail (a CID), when Easel holds its metadata. */
  image_cid: z.string().nullable(),
  from: personRefSchema.nullable(),
  to: personRefSchema.nullable(),
  priceWei: weiString.nullable(),
  txHash: z.string(),
  time: z.string(),
});
export type FeedRow = z.infer<typeof feedRowSchema>;
export const activityFeedResponseSchema = z.object({
  data: z.object({ activity: z.array(feedRowSchema), nextCursor: z.string().nullable() }),
});
export type ActivityFeedResponse = z.infer<typeof activityFeedResponseSchema>;

/** `GET /api/watchlist`: the signed-in member's favourited items, latest favourite first. */
export const watchlistQuerySchema = z.object({ limit: pageSize(WATCHLIST_PAGE_SIZE), cursor });

/** A watched item: its card (price, auction and its end, status) and when it last sold. */
export const watchedItemSchema = nftCardSchema.extend({
  favoritedAt: z.string(),
  /** When it last sold (null when never); `lastPriceWei` is that sale's price. */
  soldAt: z.string().nullable(),
  /** An auction's highest bid so far (null without bids or outside an auction). */
  topBidWei: weiString.nullable(),
});
export type WatchedItem = z.infer<typeof watchedItemSchema>;
export const watchlistResponseSchema = z.object({
  data: z.object({
    items: z.array(watchedItemSchema),
    total: z.number().int().nonnegative(),
    nextCursor: z.string().nullable(),
  }),
});
export type WatchlistResponse = z.infer<typeof watchlistResponseSchema>;

/** Watch alerts: what happened to a favourited item (their group is the `favorite` preference). */
export const WATCH_KINDS = ["watch_listed", "watch_bid", "watch_price", "watch_ending"] as const;
