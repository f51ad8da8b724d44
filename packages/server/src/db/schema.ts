import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** One row per wallet that has signed in; app data about a person (chain data lives in chain tables). */
export const profiles = pgTable(
  "profiles",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Lowercase 0x address. */
    address: text("address").notNull().unique(),
    username: text("username").unique(),
    /** The username's look-alike key (`usernameKey`): unique, so "aIice" cannot pass for "Alice". */
    usernameKey: text("username_key"),
    name: text("name"),
    bio: text("bio"),
    avatar: text("avatar"),
    banner: text("banner"),
    email: text("email"),
    /** When the owner opened the confirmation link mailed to `email`; notification mail waits for it. */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    /** When the last confirmation link went out (one a minute per profile). */
    emailLinkSentAt: timestamp("email_link_sent_at", { withTimezone: true }),
    /**
     * An ENS name the chain says is the wallet's (it resolves to the address and is its primary name),
     * checked when saved and again when shown after a day; unique ignoring case.
     */
    ens: text("ens"),
    ensCheckedAt: timestamp("ens_checked_at", { withTimezone: true }),
    /** Links by network (instagram, twitter, facebook, website, discord); http(s) URLs only. */
    social: jsonb("social").$type<Record<string, string>>().notNull().default({}),
    /** Notification preference flags; missing flags count as on. */
    notifAllow: jsonb("notif_allow").$type<Record<string, boolean>>().notNull().default({}),
    /**
     * Inactive profiles are refused by guarded routes ("you are not registered!"); moderators ban a
     * user by making the profile inactive.
     */
    active: boolean("active").notNull().default(true),
    bannedAt: timestamp("banned_at", { withTimezone: true }),
    bannedBy: text("banned_by"),
    /**
     * Lazy collections this account may create (the spec's permission `collection.lazyCollection`): 0 offers
     * only the standard type; moderators grant more in the Moderation area, and each voucher signed uses one.
     */
    lazyCollections: integer("lazy_collections").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Usernames are unique ignoring case, so "Alice" cannot impersonate "alice".
    uniqueIndex("profiles_username_lower_idx").on(sql`lower(${t.username})`),
    uniqueIndex("profiles_username_key_idx").on(t.usernameKey),
    uniqueIndex("profiles_ens_lower_idx").on(sql`lower(${t.ens})`),
    // The header search: prefix and typo-tolerant matches on usernames and display names.
    index("profiles_username_trgm_idx").using("gin", sql`lower(${t.username}) gin_trgm_ops`),
    index("profiles_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    // The header search's prefixes, in byte order (see chain_collections_name_prefix_idx).
    index("profiles_username_prefix_idx").on(sql`(lower(${t.username}) COLLATE "C")`),
    index("profiles_name_prefix_idx").on(sql`(lower(${t.name}) COLLATE "C")`, t.address),
    // The header search's whole words, wherever they are in the name ("okafor" in "Ada Okafor").
    index("profiles_username_words_idx").using("gin", sql`to_tsvector('simple', lower(${t.username}))`),
    index("profiles_name_words_idx").using("gin", sql`to_tsvector('simple', lower(${t.name}))`),
  ],
);
export type Profile = typeof profiles.$inferSelect;

/**
 * The header search's dictionary: every distinct word (3+ letters) of collection names, usernames and
 * display names, kept by triggers on those tables (migration 0013). A typo is corrected against these few
 * thousand words, then looked up like typed text, instead of comparing it with every name.
 */
export const searchWords = pgTable("search_words", { word: text("word").primaryKey() }, (t) => [
  index("search_words_trgm_idx").using("gist", sql`${t.word} gist_trgm_ops`),
]);

/** Sign-in nonces: single use (usedAt set atomically) and short-lived. */
export const authNonces = pgTable(
  "auth_nonces",
  {
    nonce: text("nonce").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("auth_nonces_expires_at_idx").on(t.expiresAt)],
);

/** Sessions: the cookie carries a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull().unique(),
    address: text("address").notNull(),
    chainId: integer("chain_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /**
     * A contract wallet's sign-in (ERC-1271/6492), kept to ask the wallet again: the EIP-191 hash of the
     * SIWE message and the signature it accepted. Null for a key's (EOA) session, which needs no recheck.
     */
    walletMessageHash: text("wallet_message_hash"),
    walletSignature: text("wallet_signature"),
    /** When the wallet last said the signature is still its own (null for an EOA). */
    walletCheckedAt: timestamp("wallet_checked_at", { withTimezone: true }),
  },
  (t) => [index("sessions_address_idx").on(t.address), index("sessions_expires_at_idx").on(t.expiresAt)],
);

/** Where the indexer stands: the chain head it last saw and the last block it has fully applied. */
export const indexerState = pgTable("indexer_state", {
  chainId: integer("chain_id").primaryKey(),
  headBlock: bigint("head_block", { mode: "bigint" }).notNull(),
  indexedBlock: bigint("indexed_block", { mode: "bigint" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().default(sql`now()`),
});

/**
 * The indexer leader's lease: the leader (holder of the advisory lock) renews `heartbeat_at` while it
 * makes progress; a standby that finds it older than the lease ends the leader's database session, which
 * frees the lock, and takes over. A frozen leader (SIGSTOP, a hung call) so never holds the chain back.
 */
export const indexerLeader = pgTable("indexer_leader", {
  id: integer("id").primaryKey().default(1),
  /** The leader's PostgreSQL backend (the connection holding the advisory lock). */
  backendPid: integer("backend_pid").notNull(),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }).notNull().default(sql`now()`),
});

/** Who follows whom (lowercase addresses). One row per pair, so concurrent toggles cannot duplicate. */
export const follows = pgTable(
  "follows",
  {
    follower: text("follower").notNull(),
    followee: text("followee").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.follower, t.followee] }),
    index("follows_followee_idx").on(t.followee, t.createdAt),
    check("follows_not_self", sql`${t.follower} <> ${t.followee}`),
  ],
);

/** Notifications shown to a wallet (new follower now; sales, bids and offers from the indexer). */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Lowercase address of the recipient. */
    address: text("address").notNull(),
    /** What happened, e.g. "follow"; matches a preference flag where one applies. */
    kind: text("kind").notNull(),
    message: text("message").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    seen: boolean("seen").notNull().default(false),
    /** Set by the indexer to a key of the chain event (and recipient), so replays never duplicate. */
    sourceKey: text("source_key").unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("notifications_address_created_idx").on(t.address, t.createdAt),
    index("notifications_unseen_idx").on(t.address).where(sql`${t.seen} = false`),
  ],
);

/** Uploaded media: content on IPFS (the media store) by CID, with what we learned from its bytes. */
export const media = pgTable(
  "media",
  {
    cid: text("cid").primaryKey(),
    /** Detected from the bytes, never from the file name. */
    mime: text("mime").notNull(),
    size: integer("size").notNull(),
    width: integer("width"),
    height: integer("height"),
    /** CID of the webp thumbnail (itself a row here); null for a thumbnail. */
    thumbnailCid: text("thumbnail_cid"),
    /** CID of the larger webp the item page shows (artworks only). */
    previewCid: text("preview_cid"),
    /** CID of the preview's phone-sized copy (artworks only; none for those minted before it was made). */
    phonePreviewCid: text("phone_preview_cid"),
    /** Lowercase address of the first uploader. */
    uploader: text("uploader").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("media_uploader_idx").on(t.uploader)],
);

/** Reports sent by signed-in users, for the moderators' queue. */
export const reports = pgTable(
  "reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reporter: text("reporter").notNull(),
    reason: text("reason").notNull(),
    email: text("email").notNull(),
    description: text("description").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    /** open, resolved or dismissed. */
    status: text("status").notNull().default("open"),
    reviewedBy: text("reviewed_by"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("reports_status_created_idx").on(t.status, t.createdAt)],
);

/** Newsletter addresses (double opt-in: confirmedAt is set by the signed link in the mail). */
export const newsletterSubscriptions = pgTable("newsletter_subscriptions", {
  /** Lowercase email address. */
  email: text("email").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  lastMailAt: timestamp("last_mail_at", { withTimezone: true }),
});

/** Messages sent with the contact form; also mailed to the operators. */
export const contactMessages = pgTable("contact_messages", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  message: text("message").notNull(),
  /** The sender's wallet when signed in. */
  address: text("address"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One application to become a verified artist per wallet; moderators approve or reject it. */
export const artistApplications = pgTable(
  "artist_applications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    address: text("address").notNull().unique(),
    profileUrl: text("profile_url").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull(),
    role: text("role").notNull(),
    portfolio: text("portfolio"),
    description: text("description"),
    /** pending, approved or rejected. */
    status: text("status").notNull().default("pending"),
    reviewedBy: text("reviewed_by"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("artist_applications_status_idx").on(t.status, t.createdAt)],
);

/**
 * Mail waiting to be sent (transactional outbox): written in the same transaction as the change
 * that causes it, then delivered by the mailer and retried by the worker until sentAt is set.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Set while one sender holds the message, so two senders never send it twice. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("mail_outbox_pending_idx").on(t.createdAt).where(sql`${t.sentAt} IS NULL`),
    // Caps per recipient (confirmation links) count a recipient's recent mail.
    index("mail_outbox_to_created_idx").on(t.to, t.createdAt),
  ],
);

/**
 * Rate-limit counters of the routes with their own limits, shared by every API replica (an in-process
 * counter multiplied each limit by the number of replicas). One row per route and client key.
 */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowEnds: timestamp("window_ends", { withTimezone: true }).notNull(),
});

/** Artwork types (the spec's category_web2): moderators add, rename and retire them. */
export const categories = pgTable(
  "categories",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    title: text("title").notNull(),
    /** Retired types are no longer offered for new collections; existing collections keep theirs. */
    retired: boolean("retired").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("categories_title_lower_idx").on(sql`lower(${t.title})`)],
);

/**
 * What Easel keeps about a collection beside the chain's facts (`chain_collections`): its type, description,
 * images and links. A row exists once the owner registered the collection (`POST /api/collection`).
 */
export const collectionDetails = pgTable(
  "collection_details",
  {
    /** The collection's contract address (lowercase), as in `chain_collections`. */
    address: text("address").primaryKey(),
    categoryId: integer("category_id").references(() => categories.id),
    /** Rich text (`richTextSchema` of @easel/common), validated before it is stored. */
    description: jsonb("description").$type<Record<string, unknown>>(),
    /** The description's plain text, for search. */
    descriptionText: text("description_text").notNull().default(""),
    logo: text("logo"),
    banner: text("banner"),
    social: jsonb("social").$type<Record<string, string | null>>().notNull().default({}),
    /** When a moderator featured it on the home page (null: not featured). */
    featuredAt: timestamp("featured_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("collection_details_category_idx").on(t.categoryId),
    index("collection_details_featured_idx").on(t.featuredAt).where(sql`${t.featuredAt} is not null`),
  ],
);

/** Who favourited which collection. */
export const collectionFavorites = pgTable(
  "collection_favorites",
  {
    collection: text("collection").notNull(),
    address: text("address").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.collection, t.address] }),
    index("collection_favorites_address_idx").on(t.address),
  ],
);

/**
 * Lazy-collection vouchers the server signed: while one is unexpired and its collection is not on chain yet,
 * it counts against the owner's `lazyCollections` allowance, so fetching many vouchers at once cannot
 * exceed it.
 */
export const lazyCollectionVouchers = pgTable(
  "lazy_collection_vouchers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    owner: text("owner").notNull(),
    name: text("name").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("lazy_collection_vouchers_owner_idx").on(t.owner, t.expiresAt)],
);

/** Per token: its views (one per viewer a day) and favourites, counted for the Most viewed / Most favorited sorts. */
export const itemStats = pgTable(
  "item_stats",
  {
    collection: text("collection").notNull(),
    tokenId: numeric("token_id", { precision: 78, scale: 0 }).notNull(),
    views: integer("views").notNull().default(0),
    favorites: integer("favorites").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.collection, t.tokenId] }),
    // Most viewed and Most favorited walk these (counted tokens first, in the list's order).
    index("item_stats_views_idx").on(t.views, t.collection, t.tokenId),
    index("item_stats_favorites_idx").on(t.favorites, t.collection, t.tokenId),
  ],
);

/** One row per token, viewer (address or a hash of the visitor's IP) and day. */
export const itemViews = pgTable(
  "item_views",
  {
    collection: text("collection").notNull(),
    tokenId: numeric("token_id", { precision: 78, scale: 0 }).notNull(),
    viewer: text("viewer").notNull(),
    day: date("day").notNull(),
  },
  (t) => [primaryKey({ columns: [t.collection, t.tokenId, t.viewer, t.day] })],
);

/** Who favourited which token. */
export const itemFavorites = pgTable(
  "item_favorites",
  {
    collection: text("collection").notNull(),
    tokenId: numeric("token_id", { precision: 78, scale: 0 }).notNull(),
    address: text("address").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The last block the indexer had applied when the item was favourited: watch alerts are for events after
     * it, so a resync does not alert a watcher of what happened before they watched.
     */
    sinceBlock: bigint("since_block", { mode: "bigint" }).notNull().default(sql`0`),
  },
  (t) => [
    primaryKey({ columns: [t.collection, t.tokenId, t.address] }),
    index("item_favorites_address_idx").on(t.address),
  ],
);

/**
 * What an artist uploaded to mint: the ERC-721 metadata JSON (its CID is what the wallet mints) and the form's
 * fields, so the item page need not read IPFS. A row is not an item: the item exists when the chain's `Minted`
 * names this CID (or a lazy item points at it); an upload nobody mints blocks nothing.
 */
export const itemMetadata = pgTable(
  "item_metadata",
  {
    /** Also in the metadata's `external_url` (/api/nft/link/:id finds the item), so every upload's CID differs. */
    id: uuid("id").primaryKey().defaultRandom(),
    cid: text("cid").notNull().unique(),
    creator: text("creator").notNull(),
    collection: text("collection").notNull(),
    categoryId: integer("category_id"),
    name: text("name").notNull(),
    description: text("description").notNull(),
    descriptionUi: jsonb("description_ui"),
    tags: jsonb("tags").$type<string[]>().notNull().default([]),
    royalty: integer("royalty").notNull(),
    collaborators: jsonb("collaborators").$type<{ address: string; share: number }[]>().notNull().default([]),
    /** The artwork (a `media` row: its type, size and thumbnails). */
    mediaCid: text("media_cid").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("item_metadata_creator_idx").on(t.creator, t.createdAt),
    // The header search by item name: prefixes in byte order and whole words anywhere, as for collections.
    index("item_metadata_name_prefix_idx").on(sql`(lower(${t.name}) COLLATE "C")`, t.cid),
    index("item_metadata_name_words_idx").using("gin", sql`to_tsvector('simple', lower(${t.name}))`),
  ],
);

/**
 * The properties of an upload (its metadata's ERC-721 `attributes` other than Category and Tag), one row per
 * trait, so the item page can say how rare a value is and the collection page can filter by it. Rows are
 * keyed by the upload's metadata CID, which is also what the item's token row carries (`chain_tokens.cid`,
 * from `Minted`, or a lazy item's projection): reads join the token rows, so an upload nobody minted counts
 * for nothing. `collection` is the one the upload was made for (a token of that CID elsewhere is not matched).
 */
export const itemTraits = pgTable(
  "item_traits",
  {
    cid: text("cid").notNull(),
    collection: text("collection").notNull(),
    traitType: text("trait_type").notNull(),
    value: text("value").notNull(),
  },
  (t) => [
    // One value per trait and item (the form refuses a name twice); also the collection grid's EXISTS probe.
    primaryKey({ columns: [t.cid, t.traitType] }),
    // A collection's trait types, values and counts, and the filter's items of one value.
    index("item_traits_collection_idx").on(t.collection, t.traitType, t.value, t.cid),
  ],
);

/**
 * The token roots of trait offers (`POST /api/collection-offers/roots`): the token ids the server found for a
 * collection's trait, in the order `tokenRoot(ids)` of @easel/contracts built the tree, so that an owner gets
 * the proof of their token and a root on chain reads as its trait. The same ids make the same root: the first
 * trait that asked for it names it.
 */
export const traitRoots = pgTable(
  "trait_roots",
  {
    /** bytes32, lowercase 0x hex. */
    tokenRoot: text("token_root").primaryKey(),
    collection: text("collection").notNull(),
    traitType: text("trait_type").notNull(),
    traitValue: text("trait_value").notNull(),
    /** Decimal token ids, ascending: the leaves' order. */
    tokenIds: text("token_ids").array().notNull(),
    /** Who asked for it first. */
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("trait_roots_collection_idx").on(t.collection, t.traitType, t.traitValue)],
);

/**
 * Items of lazy collections, listed before they exist on chain: a buyer's `lazyMint` mints `token_id` with
 * this metadata at `price`. Token ids are 1..maxSupply per collection, handed out in order under a lock on
 * the collection's rows, so two uploads never get one id; an id already minted or listed is never reused.
 */
export const lazyItems = pgTable(
  "lazy_items",
  {
    collection: text("collection").notNull(),
    tokenId: numeric("token_id", { precision: 78, scale: 0 }).notNull(),
    metadataCid: text("metadata_cid").notNull(),
    creator: text("creator").notNull(),
    price: numeric("price", { precision: 78, scale: 0 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.collection, t.tokenId] }), index("lazy_items_creator_idx").on(t.creator)],
);

/**
 * The lazy-mint vouchers Easel signed and that may still be used: one per buyer and item (asking again gives
 * the same voucher while it has time left), so a price raise knows which vouchers at an older price it must
 * void (the collection's voucher nonce) before the new price holds.
 */
export const lazyVouchers = pgTable(
  "lazy_vouchers",
  {
    collection: text("collection").notNull(),
    tokenId: numeric("token_id", { precision: 78, scale: 0 }).notNull(),
    buyer: text("buyer").notNull(),
    price: numeric("price", { precision: 78, scale: 0 }).notNull(),
    nonce: integer("nonce").notNull(),
    deadline: timestamp("deadline", { withTimezone: true }).notNull(),
    /** The voucher as sent: its fields (numbers as strings) and the platform's signature. */
    voucher: jsonb("voucher").notNull(),
  },
  (t) => [primaryKey({ columns: [t.collection, t.tokenId, t.buyer] })],
);

/**
 * When the platform signer last voided a lazy collection's vouchers on chain (`revokeVouchers()`): each
 * revocation costs it gas, so a collection is revoked at most once in `REVOKE_INTERVAL_MS` (routes/items.ts).
 */
export const lazyVoucherRevocations = pgTable("lazy_voucher_revocations", {
  collection: text("collection").primaryKey(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }).notNull(),
});

/**
 * The signed-listing order book: fixed-price listings a seller signed (EIP-712, no gas) and that the API
 * checked on chain (`signedListingStatus`) before storing them. Anyone fills one on chain with
 * `fillSignedListing`; the API shows the best active order of a token as its listing (projected onto
 * `chain_tokens`, see `trading/signedListings.ts`) and the indexer retires orders on fills, cancels, transfers
 * and counter bumps, and pauses those the chain refuses for now (a withdrawn approval, a ban, a block, a raised
 * minimum) until the worker finds them live again. Addresses lowercase; amounts and counts are uint256 as numeric(78,0).
 */
export const signedListings = pgTable(
  "signed_listings",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    collection: text("collection").notNull(),
    tokenId: numeric("token_id", { precision: 78, scale: 0 }).notNull(),
    seller: text("seller").notNull(),
    price: numeric("price", { precision: 78, scale: 0 }).notNull(),
    /** The token's transfer count the order names: any transfer (or `cancelSignedListing`) voids it. */
    transferCount: numeric("transfer_count", { precision: 78, scale: 0 }).notNull(),
    /** The seller's listing counter the order names: `incrementListingCounter` voids it. */
    counter: numeric("counter", { precision: 78, scale: 0 }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The highest platform fee (basis points) the order accepts, as signed: a higher fee refuses the fill. */
    maxFeeBps: integer("max_fee_bps").notNull(),
    /** 0x hex: 65 bytes from a key, any length for an ERC-1271 wallet. */
    signature: text("signature").notNull(),
    /** `SIGNED_LISTING_STATUSES` of @easel/common. */
    status: text("status").notNull().default("active"),
    /**
     * The block the chain said the order was live at: a transfer (or an on-chain listing) in a later block
     * voids (hides) it, one at or before it cannot, which keeps the indexer's retirement right when it
     * replays old events.
     */
    checkedBlock: bigint("checked_block", { mode: "bigint" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    /** The transaction that filled, cancelled, bumped or voided it (null when hidden, paused or expired). */
    endedTx: text("ended_tx"),
    /**
     * Why the chain refuses a `paused` order for now (`SIGNED_LISTING_PAUSE_REASONS` of @easel/common): it may
     * fill it again once that ends, so the order stays on its seller's Manage, off the book.
     */
    pausedReason: text("paused_reason"),
    /**
     * The block the refusal was seen at (an event's, or a recheck's): a recheck finding the order live at an
     * earlier block does not bring it back.
     */
    pausedBlock: bigint("paused_block", { mode: "bigint" }),
    /**
     * When the worker rechecks it on chain next: paused orders (at once after an event that may lift their
     * refusal), and active orders of contract-wallet sellers (ERC-1271 may stop accepting without an event).
     */
    recheckAt: timestamp("recheck_at", { withTimezone: true }),
    /** The seller had code when the order was posted (a contract wallet, ERC-1271): rechecked on a schedule. */
    contractSeller: boolean("contract_seller").notNull().default(false),
    /**
     * An order from a bulk signature (one signature over a Merkle tree of listings, `bulkListing` of
     * @easel/contracts): its leaf index, the sibling hashes from its leaf up, and the tree's root. All null for a
     * single signed listing; checked and filled with `bulkSignedListingStatus` / `fillBulkSignedListing`.
     */
    bulkIndex: integer("bulk_index"),
    bulkProof: text("bulk_proof").array(),
    bulkRoot: text("bulk_root"),
  },
  (t) => [
    // The book of a token, best price first.
    index("signed_listings_token_idx").on(t.collection, t.tokenId, t.price, t.createdAt),
    index("signed_listings_seller_idx").on(t.seller, t.createdAt),
    // The worker's queue of rechecks.
    index("signed_listings_recheck_idx").on(t.recheckAt).where(sql`${t.recheckAt} IS NOT NULL`),
    check(
      "signed_listings_status_check",
      sql`${t.status} IN ('active', 'hidden', 'paused', 'filled', 'cancelled', 'bumped', 'void', 'expired')`,
    ),
  ],
);
