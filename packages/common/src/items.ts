/**
 * Minting and the item page: the mint form's fields, rules and messages (creation-and-trading, "Mint page",
 * sections 3, 5 and 9), the earnings split, and the item detail the API answers. The web form and the server
 * check the same schema; the collection contract checks the split and the royalty again on chain.
 */
import { z } from "zod";
import { personRefSchema } from "./accounts.ts";
import { activityRowSchema, COLLECTION_TEXT_PATTERN, personSchema, richTextSchema } from "./browse.ts";
import { richTextPlain } from "./richText.ts";
import { ADDRESS_PATTERN } from "./wire.ts";

// --- Limits and messages ---------------------------------------------------------------------

export const MINT_FILE_MAX_BYTES = 50 * 1024 * 1024;
/**
 * A video's or PDF's poster (a frame or the first page, drawn by the browser and sent beside the file as the
 * `poster` part): an image of at most this size.
 */
export const MINT_POSTER_MAX_BYTES = 10 * 1024 * 1024;
export const MINT_NAME_MAX = 50;
export const MINT_DESCRIPTION_MIN = 3;
export const MINT_DESCRIPTION_MAX = 1500;
export const MINT_TAGS_MAX = 7;
export const MINT_TAG_MAX_LENGTH = 30;
/** Properties (ERC-721 `attributes`): at most this many, each name and value at most this long. */
export const MINT_PROPERTIES_MAX = 20;
export const MINT_PROPERTY_MAX_LENGTH = 64;
/** Trait types the metadata already uses (the artwork type and each tag): a property may not take them. */
export const RESERVED_TRAIT_TYPES = ["Category", "Tag"] as const;
export const ROYALTY_MAX = 20;
export const ROYALTY_SUGGESTIONS = [0, 5, 10] as const;
/** The mint form's lazy price floor (the chain's lazy-mint minimum may be higher; the server checks both). */
export const LAZY_PRICE_MIN_ETH = "0.05";
export const LAZY_PRICE_MIN_WEI = 50_000_000_000_000_000n;
export const SPLIT_MAX_PEOPLE = 5;
export const SPLIT_STEP = 5;

export const MINT_MESSAGES = {
  selectTypeFirst: "At first, please select a type.",
  fileRequired: "Please, select a file!",
  collectionRequired: "Please, select a collection!",
  fileTooLarge: "File Must be less than 50MB",
  fileType:
    "This file type is not supported. Upload an image (PNG, JPEG, GIF, WebP), a video (MP4, WebM) or a PDF.",
  fileBroken: "This file is damaged or incomplete. Please choose another one.",
  posterInvalid: "The preview of this video or PDF is not a PNG, JPEG, GIF or WebP image under 10MB.",
  nameRequired: "Name is required",
  nameMax: "Name must be maximum 50 characters",
  english: "Please Type in English",
  royaltyRequired: "Royalty is required",
  royaltyMin: "Royalty must be at least 0",
  royaltyMax: "The maximum royalty fee amount is 20%",
  descriptionRequired: "Description is required",
  descriptionMax: `you can type ${MINT_DESCRIPTION_MAX} characters maximum.`,
  descriptionOver: `you can't type more than ${MINT_DESCRIPTION_MAX} characters.`,
  tagsMax: `You can add ${MINT_TAGS_MAX} tags maximum.`,
  tagInvalid: `Tags are words of at most ${MINT_TAG_MAX_LENGTH} characters.`,
  propertiesMax: `You can add ${MINT_PROPERTIES_MAX} properties maximum.`,
  propertyNameRequired: "Give this property a name.",
  propertyValueRequired: "Give this property a value.",
  propertyNameMax: `A property's name can be ${MINT_PROPERTY_MAX_LENGTH} characters at most.`,
  propertyValueMax: `A property's value can be ${MINT_PROPERTY_MAX_LENGTH} characters at most.`,
  propertyDuplicate: "Another property already has this name: give each property its own.",
  propertyReserved: "Category and Tag are filled in from the type and the tags: choose another name.",
  priceRequired: "Enter a value",
  priceMin: `Price must be at least ${LAZY_PRICE_MIN_ETH} ETH`,
  priceBelowChain: "Price is below the marketplace's minimum for lazy items.",
  priceTooHigh: "The sale price is too big.",
  required: "Required",
  typeRequired: "select a type",
  notArtist: "Only verified artists can mint. Apply to join to become one.",
  notYourCollection: "You can mint only in your own collections or the default collection.",
  lazyCollectionRequired: "Lazy items go in one of your lazy collections.",
  standardCollectionRequired: "Lazy collections mint at purchase: use Lazy mint for them.",
  collectionFull: "This lazy collection has reached its maximum supply.",
  minted: "Your item Minted successfully",
  lazyCreated: "Your NFT has been uploaded and ready to be minted",
  // The split popup (section 5).
  shareStep: "share amount must be divisible by 5.",
  shareMin: "share amount must be at least 5%.",
  shareMax: "share amount must be less than 95.",
  totalAbove: "your total is above 100%",
  totalNotHundred: "The shares must add up to 100%.",
  peopleMax: "you can add 5 people maximum.",
  duplicate: "collaborator is already Added",
  reached100: "You reached 100%",
  omitYourself: "You can't omit yourself.",
  firstIsCreator: "The first recipient must be you.",
} as const;

const address = z.string().regex(ADDRESS_PATTERN, "must be a 0x address of 40 hex digits");
const lowerAddress = address.transform((value) => value.toLowerCase());
const weiString = z.string().regex(/^\d+$/);

// --- The earnings split ----------------------------------------------------------------------

export const collaboratorSchema = z.object({ address: lowerAddress, share: z.number().int() });
export type Collaborator = z.infer<typeof collaboratorSchema>;

/** The message for one share, or null when it is a valid share. */
export function shareError(share: number): string | null {
  if (!Number.isInteger(share) || share % SPLIT_STEP !== 0) return MINT_MESSAGES.shareStep;
  if (share < SPLIT_STEP) return MINT_MESSAGES.shareMin;
  if (share > 95) return MINT_MESSAGES.shareMax;
  return null;
}

/**
 * What is wrong with a whole split, or null. The creator comes first and alone may hold 100%; otherwise every
 * share follows `shareError`, nobody appears twice, at most five people, and the total is exactly 100.
 */
export function splitError(creator: string, split: readonly Collaborator[]): string | null {
  if (split.length === 0) return null;
  if (split[0]?.address.toLowerCase() !== creator.toLowerCase()) return MINT_MESSAGES.firstIsCreator;
  if (split.length > SPLIT_MAX_PEOPLE) return MINT_MESSAGES.peopleMax;
  const seen = new Set<string>();
  let total = 0;
  for (const person of split) {
    const key = person.address.toLowerCase();
    if (seen.has(key)) return MINT_MESSAGES.duplicate;
    seen.add(key);
    if (split.length === 1 && person.share === 100) continue;
    const problem = shareError(person.share);
    if (problem) return problem;
    total += person.share;
  }
  if (split.length === 1) return split[0]?.share === 100 ? null : MINT_MESSAGES.totalNotHundred;
  if (total > 100) return MINT_MESSAGES.totalAbove;
  if (total !== 100) return MINT_MESSAGES.totalNotHundred;
  return null;
}

// --- The mint form ---------------------------------------------------------------------------

/** Multipart fields arrive as strings: JSON ones are parsed here, so the rules below read real values. */
const json = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value);
    } catch {
      return value; // not JSON: the schema refuses the raw string
    }
  }, schema);

export const mintName = z
  .string({ error: MINT_MESSAGES.nameRequired })
  .trim()
  .min(1, MINT_MESSAGES.nameRequired)
  .max(MINT_NAME_MAX, MINT_MESSAGES.nameMax)
  .regex(COLLECTION_TEXT_PATTERN, MINT_MESSAGES.english);

export const mintRoyalty = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z.coerce
    .number({ error: MINT_MESSAGES.royaltyRequired })
    .int(MINT_MESSAGES.royaltyRequired)
    .min(0, MINT_MESSAGES.royaltyMin)
    .max(ROYALTY_MAX, MINT_MESSAGES.royaltyMax),
);

export const mintDescription = z
  .string({ error: MINT_MESSAGES.descriptionRequired })
  .trim()
  .min(MINT_DESCRIPTION_MIN, MINT_MESSAGES.descriptionRequired)
  .max(MINT_DESCRIPTION_MAX, MINT_MESSAGES.descriptionOver);

/** Tags, each once: the same word twice (in any case) is kept once, as first written. */
export const mintTags = z
  .array(
    z.string().trim().min(1, MINT_MESSAGES.tagInvalid).max(MINT_TAG_MAX_LENGTH, MINT_MESSAGES.tagInvalid),
  )
  .max(MINT_TAGS_MAX, MINT_MESSAGES.tagsMax)
  .transform((tags) => uniqueTags(tags));

/** Each tag once, compared without case, in the order first written (stored tags printed on the item page). */
export function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = tag.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One property: a name (the ERC-721 attribute's `trait_type`) and its value, both trimmed and non-empty. */
export const mintProperty = z.object({
  name: z
    .string({ error: MINT_MESSAGES.propertyNameRequired })
    .trim()
    .min(1, MINT_MESSAGES.propertyNameRequired)
    .max(MINT_PROPERTY_MAX_LENGTH, MINT_MESSAGES.propertyNameMax),
  value: z
    .string({ error: MINT_MESSAGES.propertyValueRequired })
    .trim()
    .min(1, MINT_MESSAGES.propertyValueRequired)
    .max(MINT_PROPERTY_MAX_LENGTH, MINT_MESSAGES.propertyValueMax),
});
export type MintProperty = z.output<typeof mintProperty>;

/**
 * The item's properties: at most 20, each name once (compared without case: "Color" and "color" would be two
 * filters of one trait), none named like the metadata's own Category and Tag attributes. A problem with one
 * property is reported at its name or value (`[index, "name"]`), so the form shows it beside that row.
 */
export const mintProperties = z
  .array(mintProperty)
  .max(MINT_PROPERTIES_MAX, MINT_MESSAGES.propertiesMax)
  .superRefine((properties, ctx) => {
    const seen = new Set<string>();
    properties.forEach((property, index) => {
      const key = property.name.trim().toLowerCase();
      if (!key) return;
      if (RESERVED_TRAIT_TYPES.some((reserved) => reserved.toLowerCase() === key))
        ctx.addIssue({ code: "custom", path: [index, "name"], message: MINT_MESSAGES.propertyReserved });
      else if (seen.has(key))
        ctx.addIssue({ code: "custom", path: [index, "name"], message: MINT_MESSAGES.propertyDuplicate });
      seen.add(key);
    });
  });

/**
 * The mint payload's fields (section 3), as the server reads them from the multipart body. The file travels
 * beside them; `price` (wei) only for a lazy item. `_collaborators` empty means the creator alone.
 */
export const mintFieldsSchema = z.object({
  category_web2_id: z.coerce
    .number({ error: MINT_MESSAGES.typeRequired })
    .int(MINT_MESSAGES.typeRequired)
    .positive(MINT_MESSAGES.typeRequired)
    .max(2_147_483_647, MINT_MESSAGES.typeRequired),
  collection: z
    .string({ error: MINT_MESSAGES.collectionRequired })
    .regex(ADDRESS_PATTERN, MINT_MESSAGES.collectionRequired)
    .transform((value) => value.toLowerCase()),
  name: mintName,
  royalty: mintRoyalty,
  description: mintDescription,
  description_ui: json(
    richTextSchema.refine(
      (doc) => richTextPlain(doc).length <= MINT_DESCRIPTION_MAX,
      MINT_MESSAGES.descriptionOver,
    ),
  )
    .nullable()
    .optional(),
  tags: json(mintTags).default([]),
  /** JSON list of `{ name, value }`: the token's ERC-721 `attributes` and the collection page's filters. */
  properties: json(mintProperties).default([]),
  _collaborators: json(z.array(collaboratorSchema)).default([]),
});
export type MintFields = z.output<typeof mintFieldsSchema>;

export const lazyMintFieldsSchema = mintFieldsSchema.extend({
  // zod runs a refinement even when the pattern failed: BigInt() reads only what the pattern let through.
  price: weiString.refine(
    (wei) => /^\d+$/.test(wei) && BigInt(wei) >= LAZY_PRICE_MIN_WEI,
    MINT_MESSAGES.priceMin,
  ),
});

export const mintResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    newNft: z.object({
      /** The metadata JSON's CID: what the wallet mints. */
      uri_cid: z.string(),
      /** The upload's id (standard) or the lazy item's token id. */
      _id: z.string(),
      royalty: z.number().int(),
      collaborators: z.array(z.object({ address: z.string(), share: z.number().int() })),
      /** Set for a lazy item: where it lives. */
      path: z.string().nullable(),
    }),
  }),
});
export type MintResponse = z.infer<typeof mintResponseSchema>;

/** `GET /api/collection/mine`: the signed-in artist's collections the mint page offers for a type. */
export const mintCollectionsQuerySchema = z.object({
  category_web2_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export const mintCollectionSchema = z.object({
  _id: z.string(),
  name: z.string(),
  contract_address: z.string(),
  /** standard, lazy or default. */
  type: z.string(),
  slug: z.string(),
  /** Lazy collections: how many items are left before the maximum supply. */
  remaining: z.number().int().nullable(),
});
export type MintCollection = z.infer<typeof mintCollectionSchema>;
export const mintCollectionsResponseSchema = z.object({
  data: z.object({ collections: z.array(mintCollectionSchema) }),
});

// --- The item page ---------------------------------------------------------------------------

const TOKEN_ID_PATTERN = /^[1-9]\d{0,77}$/;

export const itemQuerySchema = z.object({
  creator: z.string().min(1).max(100),
  collection: z.string().min(1).max(100).optional(),
  tokenId: z
    .string()
    .regex(TOKEN_ID_PATTERN, "Not found")
    // zod runs a refinement even when the pattern failed ("abc" threw inside BigInt(), a 500).
    .refine((value) => TOKEN_ID_PATTERN.test(value) && BigInt(value) < 2n ** 256n, "Not found"),
});

export const itemMediaSchema = z.object({
  cid: z.string(),
  /** Detected from the bytes: image/*, video/mp4, video/webm or application/pdf. */
  mime: z.string(),
  /** Webp thumbnails (cards) and previews (the page); a poster or placeholder for video and pdf. */
  thumbnail: z.string().nullable(),
  preview: z.string().nullable(),
  /**
   * The preview in each size made, smallest first, with its width: a phone's copy and the preview itself
   * (the page's `srcset`). Empty for media minted before the phone's copy was made: they show the preview.
   */
  stills: z.array(z.object({ cid: z.string(), width: z.number().int() })).optional(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
});
export type ItemMedia = z.infer<typeof itemMediaSchema>;

export const itemDetailSchema = z.object({
  _id: z.string(),
  tokenId: z.string(),
  name: z.string(),
  /** minted, fix, auction, lazy (not minted yet), burned. */
  status: z.string(),
  lazy: z.boolean(),
  /** The category's title; empty in the default collection. */
  category: z.string(),
  creator: personSchema,
  owner: personSchema.nullable(),
  collaborators: z.array(personSchema.extend({ share: z.number().int() })),
  royalty: z.number(),
  description: z.string().nullable(),
  description_ui: richTextSchema.nullable(),
  tags: z.array(z.string()),
  uri_cid: z.string().nullable(),
  media: itemMediaSchema.nullable(),
  /** The current price in wei: fixed price, lazy price, or the auction's top bid or start/reserve price. */
  priceWei: weiString.nullable(),
  lastPriceWei: weiString.nullable(),
  /**
   * The fixed-price listing: on chain (`setSellOrder`, bought with `buyNow`) or signed (an order in the API's
   * book, `signedId`, bought with `fillSignedListing` after GET /api/signed-listings/fill).
   */
  listing: z
    .object({
      kind: z.enum(["chain", "signed"]),
      signedId: z.string().nullable(),
      priceWei: weiString,
      seller: z.string(),
      expiresAt: z.string(),
    })
    .nullable(),
  auction: z
    .object({
      kind: z.string(),
      seller: z.string(),
      basePriceWei: weiString,
      topBidWei: weiString.nullable(),
      topBidder: z.string().nullable(),
      /** The top bidder with their profile's names (the settle page's winner). */
      topBidderPerson: personRefSchema.nullable(),
      startTime: z.string().nullable(),
      endTime: z.string().nullable(),
      /** The lowest next bid: the top bid plus 10%, or the base price with no bids yet. */
      minBidWei: weiString,
    })
    .nullable(),
  offers: z.array(
    z.object({
      address: z.string(),
      /** The offerer with their profile's names. */
      person: personRefSchema,
      priceWei: weiString,
      status: z.string(),
      time: z.string(),
      /** When the offer stops being acceptable (ISO 8601); null for an offer made before offers expired. */
      expiresAt: z.string().nullable(),
    }),
  ),
  favorites: z.number().int(),
  views: z.number().int(),
  isFavorite: z.boolean(),
  blocked: z.boolean(),
  /**
   * The seller of the listing or auction is banned: it stays on chain, but the market refuses its sale, so
   * the page shows it as not buyable. Absent or false otherwise.
   */
  sellerBanned: z.boolean().optional(),
  mintedAt: z.string().nullable(),
});
export type ItemDetail = z.infer<typeof itemDetailSchema>;

export const itemCollectionSchema = z.object({
  name: z.string(),
  contract_address: z.string(),
  kind: z.string(),
  /** The collection page's segment (`/collection/{slug}`) and the item URL's. */
  slug: z.string(),
  logo: z.string().nullable(),
});

export const itemPriceHistorySchema = z.object({ time: z.string(), priceWei: weiString, kind: z.string() });

export const itemResponseSchema = z.object({
  data: z.object({
    nft: itemDetailSchema,
    nftCollection: itemCollectionSchema,
    /** Which auction kinds the market offers (the spec's permisionNft). */
    permisionNft: z.object({ auction: z.boolean(), reserve: z.boolean() }),
    activity: z.array(activityRowSchema),
    priceHistory: z.array(itemPriceHistorySchema),
  }),
});
export type ItemResponse = z.infer<typeof itemResponseSchema>;

// --- Traits: an item's properties, how rare each is, and the collection page's filters ----------

/** One trait of an item: how many of its collection's items have the same value, out of how many. */
export const itemTraitSchema = z.object({
  trait_type: z.string(),
  value: z.string(),
  count: z.number().int(),
  total: z.number().int(),
});
export type ItemTrait = z.infer<typeof itemTraitSchema>;

/** `GET /api/nft/traits`: an item's properties, by its collection's address and token id. */
export const itemTraitsQuerySchema = z.object({
  collection: lowerAddress,
  tokenId: z
    .string()
    .regex(TOKEN_ID_PATTERN, "Not found")
    .refine((value) => TOKEN_ID_PATTERN.test(value) && BigInt(value) < 2n ** 256n, "Not found"),
});
export const itemTraitsResponseSchema = z.object({ data: z.object({ traits: z.array(itemTraitSchema) }) });
export type ItemTraitsResponse = z.infer<typeof itemTraitsResponseSchema>;

/** `GET /api/collection/traits`: each trait type of a collection's items, with its values and their counts. */
export const collectionTraitsQuerySchema = z.object({ id: lowerAddress });
export const collectionTraitSchema = z.object({
  trait_type: z.string(),
  values: z.array(z.object({ value: z.string(), count: z.number().int() })),
});
export type CollectionTrait = z.infer<typeof collectionTraitSchema>;
export const collectionTraitsResponseSchema = z.object({
  data: z.object({ traits: z.array(collectionTraitSchema), total: z.number().int() }),
});
export type CollectionTraitsResponse = z.infer<typeof collectionTraitsResponseSchema>;

// --- CIDs ------------------------------------------------------------------------------------

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/**
 * The binary form of a base32 CIDv1 string (`bafk…`, `bafy…`), as `mintNFT` and lazy vouchers take it.
 * @throws Error when the text is not a base32 CIDv1.
 */
export function cidToHex(cid: string): `0x${string}` {
  if (!/^b[a-z2-7]+$/.test(cid)) throw new Error(`not a base32 CIDv1: ${cid}`);
  let bits = 0;
  let value = 0;
  let hex = "";
  for (const char of cid.slice(1)) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      hex += ((value >> bits) & 0xff).toString(16).padStart(2, "0");
    }
  }
  if (!hex.startsWith("01")) throw new Error(`not a CIDv1: ${cid}`);
  return `0x${hex}`;
}

// --- Lazy items: the buyer's voucher and the price edit ----------------------------------------

/** A lazy-mint voucher is good for this long: the buyer confirms in the wallet right away. */
export const LAZY_MINT_VOUCHER_TTL_SECONDS = 10 * 60;

const lazyItemRef = z.object({
  collection: lowerAddress,
  nft_id: z.string().regex(/^[1-9]\d{0,77}$/, "Not found"),
});

/** `POST /api/nft/buy-lazy-mint`: the platform's signature for this buyer to mint and buy one lazy item. */
export const buyLazyMintSchema = lazyItemRef;
export const buyLazyMintResponseSchema = z.object({
  data: z.object({
    voucher: z.object({
      tokenId: z.string(),
      price: weiString,
      royaltyBps: z.number().int(),
      cid: z.string(),
      collaborators: z.array(z.object({ account: z.string(), share: z.number().int() })),
      nonce: z.number().int(),
      /** Unix seconds, as a decimal string. */
      deadline: z.string(),
      signature: z.string(),
    }),
  }),
});
export type LazyMintVoucherResponse = z.infer<typeof buyLazyMintResponseSchema>;

export const LAZY_EDIT_MESSAGES = {
  updated: "You successfully update the minting price.",
  notYours: "Only the item's creator can change its minting price.",
  minted: "This item has been minted: its price is set by its owner now.",
  priceMin: (eth: string) => `Price must be at least ${eth} ETH`,
} as const;

/** `PUT /api/nft/edit`: a lazy item's new minting price (wei), by its creator. */
export const lazyPriceEditSchema = lazyItemRef.extend({ price: weiString });
export const lazyPriceEditResponseSchema = z.object({
  data: z.object({ message: z.string(), price: weiString }),
});
