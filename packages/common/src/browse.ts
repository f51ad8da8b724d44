/**
 * Browsing the marketplace: categories, collections (create, page, edit, favourite), explore lists, the
 * header search and the home page. Request schemas carry the spec's messages (browsing-and-accounts,
 * sections 3, 5, 7 and 9; creation-and-trading, "Create collection dialog") so the web forms and the server
 * share one rule. Every query parameter is validated: a bad value is a 400 naming the parameter.
 */
import { z } from "zod";
import { personRefSchema, socialLinksSchema } from "./accounts.ts";
import { ACTIVITY_FILTERS, COLLECTION_SORTS, HISTORY_RANGES, ITEM_SORTS, ITEM_STATUSES } from "./options.ts";
import { COLLECTION_DESCRIPTION_MAX, type RichText, richTextPlain } from "./richText.ts";
import { chainTokenItemSchema } from "./trading.ts";
import { ADDRESS_PATTERN } from "./wire.ts";

// --- Limits and messages ---------------------------------------------------------------------

export const COLLECTION_NAME_MIN = 3;
export const COLLECTION_NAME_MAX = 50;
export const COLLECTION_SYMBOL_MAX = 8;
/** Explore collections answers this many per page unless asked otherwise. */
export const EXPLORE_COLLECTIONS_PAGE_SIZE = 10;
export const EXPLORE_ITEMS_PAGE_SIZE = 24;
export const MAX_PAGE_SIZE = 50;
/** The header search answers at most this many per group. */
export const SEARCH_GROUP_LIMIT = 5;
export const SEARCH_MAX_LENGTH = 100;
/** The home page shows this many featured collections and NFTs of each. */
export const HOME_FEATURED_COLLECTIONS = 6;
export const HOME_FEATURED_NFTS = 8;

export const BROWSE_MESSAGES = {
  required: "Required",
  nameMin: "Name must be at least 3 characters.",
  nameMax: "Name must be 50 characters maximum.",
  english: "Please Type in English",
  symbolMax: "Symbol must be 8 characters maximum.",
  categoryRequired: "select a category",
  nameTaken: "This collection name is already taken.",
  collectionUpdated: "Your collection updated successfully.",
  descriptionMax: "Description must be 1000 characters maximum.",
  notOnChain: "This collection is not on the chain yet. Please wait a moment and try again.",
  notYourCollection: "Only the collection's owner can do this.",
  chainMismatch: "The collection on the chain does not match these details.",
  categoryTaken: "A category with this title already exists.",
  collectionNotFound: "Collection not found",
  notArtistCollection: "Only verified artists can create collections. Apply to join to become one.",
  noLazyPermission: "Your account may not create lazy collections. Ask the moderators for permission.",
  reserved: "This name is reserved.",
} as const;

/**
 * Letters, digits, spaces and a few symbols (the spec: "letters, digits and some symbols, otherwise
 * 'Please Type in English'").
 */
export const COLLECTION_TEXT_PATTERN = /^[A-Za-z0-9 ._\-'&!#+]+$/;

const address = z.string().regex(ADDRESS_PATTERN, "must be a 0x address of 40 hex digits");
const lowerAddress = address.transform((value) => value.toLowerCase());
const weiString = z.string().regex(/^\d+$/);

// --- Categories ------------------------------------------------------------------------------

export const categorySchema = z.object({ _id: z.number().int(), title: z.string(), retired: z.boolean() });
export type Category = z.infer<typeof categorySchema>;
export const categoriesResponseSchema = z.object({
  data: z.object({ category_web2: z.array(categorySchema) }),
});
export const categoryTitleSchema = z.object({
  title: z
    .string()
    .trim()
    .min(2, "Title must be at least 2 characters.")
    .max(30, "Title must be 30 characters maximum.")
    .regex(COLLECTION_TEXT_PATTERN, BROWSE_MESSAGES.english),
});
export const categoryUpdateSchema = z
  .object({ title: categoryTitleSchema.shape.title.optional(), retired: z.boolean().optional() })
  .refine(
    (change) => change.title !== undefined || change.retired !== undefined,
    "Give a new title or retired.",
  );

// --- Rich text -------------------------------------------------------------------------------

/**
 * A collection description as stored and sent: paragraphs of text runs, each optionally bold, italic or a
 * link (http(s) only). Nothing else exists in it, so it renders without any HTML from the author.
 */
const richRunSchema = z
  .object({
    text: z.string().max(COLLECTION_DESCRIPTION_MAX),
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    link: z
      .string()
      .max(500)
      .refine(
        (value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value),
        "Links must start with http:// or https://",
      )
      .optional(),
  })
  .strict();
export const richTextSchema = z
  .object({
    type: z.literal("doc"),
    paragraphs: z.array(z.object({ runs: z.array(richRunSchema).max(200) }).strict()).max(100),
  })
  .strict() satisfies z.ZodType<RichText>;

const descriptionSchema = richTextSchema.refine(
  (doc) => richTextPlain(doc).length <= COLLECTION_DESCRIPTION_MAX,
  BROWSE_MESSAGES.descriptionMax,
);

// --- Collection forms ------------------------------------------------------------------------

const collectionName = z
  .string({ error: BROWSE_MESSAGES.required })
  .trim()
  .min(1, BROWSE_MESSAGES.required)
  .min(COLLECTION_NAME_MIN, BROWSE_MESSAGES.nameMin)
  .max(COLLECTION_NAME_MAX, BROWSE_MESSAGES.nameMax)
  .regex(COLLECTION_TEXT_PATTERN, BROWSE_MESSAGES.english);
const collectionSymbol = z
  .string({ error: BROWSE_MESSAGES.required })
  .trim()
  .min(1, BROWSE_MESSAGES.required)
  .max(COLLECTION_SYMBOL_MAX, BROWSE_MESSAGES.symbolMax)
  .regex(COLLECTION_TEXT_PATTERN, BROWSE_MESSAGES.english);
/** Category ids are PostgreSQL integers: anything above 2^31 - 1 names no category. */
const MAX_ID = 2_147_483_647;
const categoryId = z.coerce
  .number({ error: BROWSE_MESSAGES.categoryRequired })
  .int(BROWSE_MESSAGES.categoryRequired)
  .positive(BROWSE_MESSAGES.categoryRequired)
  .max(MAX_ID, BROWSE_MESSAGES.categoryRequired);
export const categoryIdSchema = z.coerce.number().int().positive("Not found").max(MAX_ID, "Not found");

export const COLLECTION_TYPES = ["standard", "lazy"] as const;

export const collectionNameCheckSchema = z.object({
  name: collectionName,
  symbol: collectionSymbol.optional(),
});
export const collectionNameCheckResponseSchema = z.object({ data: z.object({ available: z.literal(true) }) });

/** `POST /api/collection`: registers a collection the factory created (checked against the chain tables). */
export const registerCollectionSchema = z.object({
  contract_address: lowerAddress,
  name: collectionName,
  symbol: collectionSymbol,
  collectionType: z.enum(COLLECTION_TYPES),
  category_web2_id: categoryId,
});

const imagePathOrNull = z.preprocess(
  (value) => (value === "" ? null : value),
  z
    .string()
    .regex(/^\/ipfs\/[a-z2-7]{20,120}$/, "Upload the image first")
    .nullable()
    .optional(),
);

/** A lazy collection holds at most this many items (the voucher's maximum supply). */
export const LAZY_MAX_SUPPLY_DEFAULT = 1000;
export const LAZY_MAX_SUPPLY_MAX = 10_000;

/**
 * The Create New Collection form: the registration fields plus the terms box and, for lazy collections, the
 * maximum supply. The dialog checks it before the wallet opens; the server checks each piece again.
 */
export const createCollectionFormSchema = z.object({
  name: collectionName,
  symbol: collectionSymbol,
  collectionType: z.enum(COLLECTION_TYPES),
  category_web2_id: categoryId,
  maximumSupply: z.coerce
    .number({ error: "Maximum supply must be a whole number." })
    .int("Maximum supply must be a whole number.")
    .min(1, "Maximum supply must be at least 1.")
    .max(LAZY_MAX_SUPPLY_MAX, `Maximum supply must be ${LAZY_MAX_SUPPLY_MAX} at most.`),
  terms: z.literal(true, { error: BROWSE_MESSAGES.required }),
});

/** A lazy-collection voucher is good for this long after it is signed. */
export const LAZY_VOUCHER_TTL_SECONDS = 15 * 60;

/** `GET /api/collection/lazy-voucher`: the platform's signature for one lazy collection, for this wallet. */
export const lazyVoucherQuerySchema = z.object({
  name: collectionName,
  symbol: collectionSymbol,
  catWeb2_id: categoryId,
  maximumSupply: createCollectionFormSchema.shape.maximumSupply.default(LAZY_MAX_SUPPLY_DEFAULT),
});
export const lazyVoucherResponseSchema = z.object({
  data: z.object({
    voucher: z.object({
      owner: address,
      maxSupply: z.number().int(),
      name: z.string(),
      symbol: z.string(),
      /** The category's title, as the factory records it. */
      category: z.string(),
      /** Unix seconds, as a decimal string. */
      deadline: z.string(),
      signature: z.string(),
    }),
  }),
});
export type LazyVoucherResponse = z.infer<typeof lazyVoucherResponseSchema>;

export type RegisterCollection = z.input<typeof registerCollectionSchema>;
export const registerCollectionResponseSchema = z.object({
  data: z.object({ _id: z.string(), slug: z.string() }),
});
export type RegisterCollectionResponse = z.infer<typeof registerCollectionResponseSchema>;

/** `PUT /api/collection/edit`. Fields left out keep their value. */
export const collectionEditSchema = z.object({
  id: lowerAddress,
  description: descriptionSchema.nullable().optional(),
  logo: imagePathOrNull,
  banner: imagePathOrNull,
  social: socialLinksSchema.optional(),
});
export type CollectionEdit = z.input<typeof collectionEditSchema>;

/** `favorite` states the wanted state (a repeated request changes nothing); without it the call toggles. */
export const collectionFavoriteSchema = z.object({
  collectionId: lowerAddress,
  favorite: z.boolean().optional(),
});
export const collectionFavoriteResponseSchema = z.object({
  data: z.object({ favorite: z.boolean(), favorites: z.number().int() }),
});

/** `GET /api/nft/eth-price`: USD per ETH from the chain's Chainlink feed, as a decimal string. */
export const ethPriceResponseSchema = z.object({
  data: z.object({ usd: z.string(), updatedAt: z.string() }),
});
export type EthPriceResponse = z.infer<typeof ethPriceResponseSchema>;

/** An item by its collection and token id, as the item routes take it. */
export const itemRefSchema = z.object({
  collection: lowerAddress,
  tokenId: z.string().regex(/^\d{1,78}$/, "must be a token id (digits)"),
});
/** `POST /api/nft/favorite`: the wanted state (a repeat changes nothing); without it, a toggle. */
export const itemFavoriteSchema = itemRefSchema.extend({ favorite: z.boolean().optional() });
export const itemFavoriteResponseSchema = collectionFavoriteResponseSchema;
export type ItemFavoriteResponse = z.infer<typeof itemFavoriteResponseSchema>;
/** `POST /api/nft/view`: counts one view per viewer and day. */
export const itemViewResponseSchema = z.object({
  data: z.object({ counted: z.boolean(), views: z.number().int() }),
});

// --- Collection cards and page ---------------------------------------------------------------

export const collectionStatsSchema = z.object({
  artworks: z.number().int(),
  owners: z.number().int(),
  floorPriceWei: weiString.nullable(),
  highestSaleWei: weiString.nullable(),
  totalSales: z.number().int(),
  volumeWei: weiString,
});

export const personSchema = z.object({
  address: z.string(),
  username: z.string().nullable(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
});
export type Person = z.infer<typeof personSchema>;

export const collectionCardSchema = z.object({
  _id: z.string(),
  contract_address: z.string(),
  name: z.string(),
  /** The collection page's path segment: its name, or its address when an older collection has the name. */
  slug: z.string(),
  symbol: z.string(),
  /** standard, lazy or default. */
  collectionType: z.string(),
  logo: z.string().nullable(),
  banner: z.string().nullable(),
  description: richTextSchema.nullable(),
  category: z.object({ _id: z.number().int(), title: z.string() }).nullable(),
  owner: personSchema,
  time_created: z.string(),
  blocked: z.boolean(),
  favorites: z.number().int(),
  stats: collectionStatsSchema,
});
export type CollectionCard = z.infer<typeof collectionCardSchema>;

/** An NFT card (browsing-and-accounts, "NFT card"). */
export const nftCardSchema = chainTokenItemSchema.extend({
  /**
   * The artwork's video (mp4 or webm) when it is one: the card plays it, muted and looping, while in view,
   * with `image_cid` (its poster) until then. Absent or null for other media.
   */
  videoCid: z.string().nullable().optional(),
  /** The artwork type's title (null in the default collection): Pixel Art is drawn with crisp pixels. */
  category: z.string().nullable(),
  creatorData: personSchema.nullable(),
  collaboratorsData: z.array(personSchema.extend({ share: z.number() })),
  /** Auction kind when in an auction, and its end (null for a reserve auction before its first bid). */
  auctionKind: z.string().nullable(),
  endTime: z.string().nullable(),
  /** The highest live offer. */
  offerWei: weiString.nullable(),
  favorites: z.number().int(),
  views: z.number().int(),
  /** Whether the signed-in viewer favourited it (false for visitors). */
  isFavorite: z.boolean(),
  blocked: z.boolean(),
});
export type NftCard = z.infer<typeof nftCardSchema>;

export const COLLECTION_TABS = ["liveAuction", "buyNow", "offer"] as const;

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

export const collectionQuerySchema = z.object({
  name: z.string().trim().min(1, "name is required").max(100, "name is too long"),
  sort: z.enum(ITEM_SORTS, { error: `sort must be one of: ${ITEM_SORTS.join(", ")}` }).default("none"),
  filter: z
    .enum(COLLECTION_TABS, { error: `filter must be one of: ${COLLECTION_TABS.join(", ")}` })
    .optional(),
  /** A trait filter (`GET /api/collection/traits` lists them): items whose property `traitType` is `traitValue`. */
  traitType: z.string().trim().min(1, "traitType is empty").max(64, "traitType is too long").optional(),
  traitValue: z.string().trim().min(1, "traitValue is empty").max(64, "traitValue is too long").optional(),
  limit: pageSize(EXPLORE_ITEMS_PAGE_SIZE),
  cursor,
});

/** `GET /api/collection/activity`: newest first, keyset pages. */
export const collectionActivityQuerySchema = z.object({
  id: lowerAddress,
  kind: z.enum(ACTIVITY_FILTERS, { error: `kind must be one of: ${ACTIVITY_FILTERS.join(", ")}` }).optional(),
  limit: pageSize(EXPLORE_ITEMS_PAGE_SIZE),
  cursor,
});
export const activityRowSchema = z.object({
  kind: z.string(),
  tokenId: z.string().nullable(),
  itemName: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** `from` and `to` with their profiles' names. */
  fromPerson: personRefSchema.nullable(),
  toPerson: personRefSchema.nullable(),
  priceWei: weiString.nullable(),
  txHash: z.string(),
  time: z.string(),
});
export type ActivityRow = z.infer<typeof activityRowSchema>;
export const collectionActivityResponseSchema = z.object({
  data: z.object({ activity: z.array(activityRowSchema), nextCursor: z.string().nullable() }),
});
export type CollectionActivityResponse = z.infer<typeof collectionActivityResponseSchema>;

/** `GET /api/collection/stats`: volume and floor per day (UTC), for the chart. */
export const collectionHistoryQuerySchema = z.object({
  id: lowerAddress,
  range: z
    .enum(HISTORY_RANGES, { error: `range must be one of: ${HISTORY_RANGES.join(", ")}` })
    .default("30d"),
});
export const historyPointSchema = z.object({
  /** The day, YYYY-MM-DD (UTC). */
  day: z.string(),
  volumeWei: weiString,
  sales: z.number().int(),
  /** The lowest fixed price listed at the end of the day; null when nothing was listed. */
  floorWei: weiString.nullable(),
});
export type HistoryPoint = z.infer<typeof historyPointSchema>;
export const collectionHistoryResponseSchema = z.object({
  data: z.object({ days: z.array(historyPointSchema) }),
});
export type CollectionHistoryResponse = z.infer<typeof collectionHistoryResponseSchema>;

export const collectionResponseSchema = z.object({
  data: z.object({
    collection: collectionCardSchema.extend({ social: z.record(z.string(), z.string().nullable()) }),
    nfts: z.array(nftCardSchema),
    nextCursor: z.string().nullable(),
    isOwner: z.boolean(),
    isFavorite: z.boolean(),
  }),
});
export type CollectionResponse = z.infer<typeof collectionResponseSchema>;

// --- Explore ---------------------------------------------------------------------------------

/** The spec's collection type filter: standard or lazyMint. */
export const EXPLORE_COLLECTION_TYPES = ["standard", "lazyMint"] as const;

/** A decimal ETH amount (e.g. "0.1"), at most 18 decimals. */
const ethAmount = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,7}(\.\d{1,18})?$/, `${name} must be an amount in ETH, like 0.5`)
    .optional();
const count = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be 0 or more`)
    .max(1_000_000_000, `${name} is too large`)
    .optional();
const idList = (name: string) =>
  z
    .string()
    .regex(/^\d{1,9}(,\d{1,9}){0,49}$/, `${name} must be a comma-separated list of category ids`)
    .transform((value) => value.split(",").map(Number))
    .optional();

export const exploreCollectionsQuerySchema = z.object({
  limit: pageSize(EXPLORE_COLLECTIONS_PAGE_SIZE),
  page: z.coerce
    .number({ error: "page must be a number" })
    .int("page must be a whole number")
    .min(1, "page must be at least 1")
    .max(100_000, "page is too large")
    .default(1),
  sort: z
    .enum(COLLECTION_SORTS, { error: `sort must be one of: ${COLLECTION_SORTS.join(", ")}` })
    .default("newest"),
  collectionType: z
    .enum(EXPLORE_COLLECTION_TYPES, {
      error: `collectionType must be one of: ${EXPLORE_COLLECTION_TYPES.join(", ")}`,
    })
    .optional(),
  minNumberOfArtworks: count("minNumberOfArtworks"),
  maxNumberOfArtworks: count("maxNumberOfArtworks"),
  minTotalSales: count("minTotalSales"),
  maxTotalSales: count("maxTotalSales"),
  minFloorPrice: ethAmount("minFloorPrice"),
  maxFloorPrice: ethAmount("maxFloorPrice"),
  category_web2_ids: idList("category_web2_ids"),
});
export type ExploreCollectionsQuery = z.input<typeof exploreCollectionsQuerySchema>;

export const exploreCollectionsResponseSchema = z.object({
  collections: z.array(collectionCardSchema),
  lastPage: z.boolean(),
  headerData: z.object({ collections: z.number().int() }),
});
export type ExploreCollectionsResponse = z.infer<typeof exploreCollectionsResponseSchema>;

export const exploreItemsQuerySchema = z.object({
  limit: pageSize(EXPLORE_ITEMS_PAGE_SIZE),
  cursor,
  sort: z
    .enum(ITEM_SORTS, { error: `sort must be one of: ${ITEM_SORTS.join(", ")}` })
    .default("recentlyCreated"),
  status: z.enum(ITEM_STATUSES, { error: `status must be one of: ${ITEM_STATUSES.join(", ")}` }).optional(),
  minPrice: ethAmount("minPrice"),
  maxPrice: ethAmount("maxPrice"),
  category: z.coerce
    .number({ error: "category must be a category id" })
    .int("category must be a category id")
    .positive("category must be a category id")
    .max(MAX_ID, "category must be a category id")
    .optional(),
  collection: lowerAddress.optional(),
  creator: lowerAddress.optional(),
});
export type ExploreItemsQuery = z.input<typeof exploreItemsQuerySchema>;

export const exploreItemsResponseSchema = z.object({
  data: z.object({ nfts: z.array(nftCardSchema), nextCursor: z.string().nullable() }),
});
export type ExploreItemsResponse = z.infer<typeof exploreItemsResponseSchema>;

// --- Search and home -------------------------------------------------------------------------

export const searchQuerySchema = z.object({
  searchItem: z
    .string({ error: "searchItem is required" })
    .trim()
    .min(1, "searchItem is required")
    .max(SEARCH_MAX_LENGTH, `searchItem must be ${SEARCH_MAX_LENGTH} characters maximum`),
});
export const searchResponseSchema = z.object({
  data: z.object({
    collections: z.array(
      z.object({
        _id: z.string(),
        name: z.string(),
        slug: z.string(),
        symbol: z.string(),
        logo: z.string().nullable(),
      }),
    ),
    items: z.array(
      z.object({
        _id: z.string(),
        name: z.string(),
        tokenId: z.string(),
        image_cid: z.string().nullable(),
        creator: z.string().nullable(),
        status: z.string(),
        collection: z.object({ address: z.string(), name: z.string(), kind: z.string() }),
      }),
    ),
    profile: z.array(personSchema),
  }),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const homeResponseSchema = z.object({
  data: z.object({
    collections: z.array(collectionCardSchema.extend({ nfts: z.array(nftCardSchema) })),
    /** True when moderators picked them; otherwise they are the most active collections. */
    picked: z.boolean(),
  }),
});
export type HomeResponse = z.infer<typeof homeResponseSchema>;

export const featureCollectionSchema = z.object({ featured: z.boolean() });
