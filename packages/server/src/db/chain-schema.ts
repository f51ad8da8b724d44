/**
 * Chain tables, written only by the indexer (`src/indexer/`). Everything here can be rebuilt from the
 * chain alone: `chain_events` keeps every decoded log, and the projections below are what the event
 * handlers make of them (replaying the stored events gives the same rows). Amounts are numeric(78,0)
 * (wei), addresses lowercase 0x strings, token ids numeric(78,0).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const wei = (name: string) => numeric(name, { precision: 78, scale: 0 });
const tokenId = () => numeric("token_id", { precision: 78, scale: 0 }).notNull();
const blockNumber = (name = "block_number") => bigint(name, { mode: "bigint" });
const time = (name: string) => timestamp(name, { withTimezone: true });

/** Every decoded log of Easel's contracts, in chain order: the source the projections are rebuilt from. */
export const chainEvents = pgTable(
  "chain_events",
  {
    blockNumber: blockNumber().notNull(),
    logIndex: integer("log_index").notNull(),
    blockHash: text("block_hash").notNull(),
    txHash: text("tx_hash").notNull(),
    /** The emitting contract. */
    address: text("address").notNull(),
    /** The event name, e.g. "BidPlaced". */
    name: text("name").notNull(),
    /** Decoded arguments; integers as decimal strings, addresses lowercase, bytes as 0x hex. */
    args: jsonb("args").$type<Record<string, unknown>>().notNull(),
    blockTime: time("block_time").notNull(),
  },
  (t) => [primaryKey({ columns: [t.blockNumber, t.logIndex] }), index("chain_events_tx_idx").on(t.txHash)],
);

/** Hashes of recent blocks (every block with events and every batch end): how reorgs are detected. */
export const chainBlocks = pgTable("chain_blocks", {
  number: blockNumber("number").primaryKey(),
  hash: text("hash").notNull(),
});

/**
 * The batches the indexer committed near the head (within the block hashes it keeps), each a range of
 * blocks; together with `chain_undo` they let a reorg be undone batch by batch, in time proportional to
 * its depth, instead of rebuilding the projections from every stored event.
 */
export const chainBatches = pgTable("chain_batches", {
  fromBlock: blockNumber("from_block").primaryKey(),
  toBlock: blockNumber("to_block").notNull(),
});

/**
 * What a batch of `chain_batches` found in the mutable projections before it changed them: the prior
 * row (null when the batch created it), by table and primary key. Append-only projections need no undo
 * record: their rows carry their block number.
 */
export const chainUndo = pgTable(
  "chain_undo",
  {
    batchFrom: blockNumber("batch_from").notNull(),
    table: text("table").notNull(),
    /** The row's primary-key values joined by ":", as the indexer's Store keys rows. */
    key: text("key").notNull(),
    prior: jsonb("prior").$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.batchFrom, t.table, t.key] })],
);

/** Collections created by the factory (including the default collection), with derived stats. */
export const chainCollections = pgTable(
  "chain_collections",
  {
    address: text("address").primaryKey(),
    /** standard, lazy or default. */
    kind: text("kind").notNull(),
    owner: text("owner").notNull(),
    name: text("name").notNull(),
    symbol: text("symbol").notNull(),
    category: text("category").notNull(),
    /** 0 = unlimited. */
    maxSupply: wei("max_supply").notNull(),
    blocked: boolean("blocked").notNull().default(false),
    createdBlock: blockNumber("created_block").notNull(),
    createdTx: text("created_tx").notNull(),
    createdAt: time("created_at").notNull(),
    /** Derived after every batch: lowest active fixed price, highest sale, volume, sales, owners, tokens. */
    floorPrice: wei("floor_price"),
    highestSale: wei("highest_sale"),
    volume: wei("volume").notNull().default("0"),
    salesCount: integer("sales_count").notNull().default(0),
    ownersCount: integer("owners_count").notNull().default(0),
    tokensCount: integer("tokens_count").notNull().default(0),
  },
  (t) => [
    index("chain_collections_owner_idx").on(t.owner),
    index("chain_collections_created_idx").on(t.createdBlock),
    // Explore collections' sorts (each ends with the address, so pages keep one order).
    index("chain_collections_owners_sort_idx").on(t.ownersCount, t.address),
    index("chain_collections_floor_sort_idx").on(t.floorPrice, t.address),
    index("chain_collections_floor_desc_sort_idx").on(t.floorPrice.desc().nullsLast(), t.address.desc()),
    index("chain_collections_created_sort_idx").on(t.createdBlock, t.address),
    index("chain_collections_name_lower_idx").on(sql`lower(${t.name})`, t.createdBlock),
    // The header search's name prefixes, in byte order: a range of this index whatever the database's
    // collation, so the search's statements can be prepared once (a LIKE pattern needs planning each time).
    index("chain_collections_name_prefix_idx").on(sql`(lower(${t.name}) COLLATE "C")`, t.createdBlock),
    index("chain_collections_name_trgm_idx").using("gin", sql`lower(${t.name}) gin_trgm_ops`),
    index("chain_collections_name_words_idx").using("gin", sql`to_tsvector('simple', lower(${t.name}))`),
  ],
);

/**
 * Minted tokens. `owner` is the beneficial owner: the on-chain owner, except for a token sent to the market by
 * hand, which stays its sender's until an operator rescues it. An auctioned token stays with its seller
 * (locked by its collection): owner and holder are the seller throughout.
 */
export const chainTokens = pgTable(
  "chain_tokens",
  {
    collection: text("collection").notNull(),
    tokenId: tokenId(),
    creator: text("creator"),
    owner: text("owner").notNull(),
    /** Who holds it on chain (`ownerOf`): the owner, or the market for a token sent to it by hand. */
    holder: text("holder").notNull(),
    /** CIDv1 string (base32), from the Minted event. */
    cid: text("cid"),
    royaltyBps: integer("royalty_bps"),
    collaborators: jsonb("collaborators").$type<{ account: string; share: number }[]>(),
    /** minted, fix (listed at a fixed price), auction, lazy-sold (bought through a voucher), burned. */
    status: text("status").notNull(),
    lazy: boolean("lazy").notNull().default(false),
    /** Current fixed price, auction start/reserve price or top bid; null when not on sale. */
    price: wei("price"),
    lastPrice: wei("last_price"),
    /**
     * The token's place in the market, copied from its active rows by the indexer's handlers, so that the
     * explore filters (Buy now, Live auction, Reserve not yet met, Has offers) and the NFT card read the
     * token row alone: the active listing's end (`chain_sell_orders.expires_at`), the active auction's kind
     * and end (`chain_auctions.kind`, `end_time`: null for a reserve auction until its first bid), and the
     * current offer (the market holds at most one per token) and its expiry. Null when there is none. An offer
     * expires without any event: readers treat one whose `offer_expires_at` has passed as none (null expiry:
     * an offer made before offers expired).
     */
    listingExpiresAt: time("listing_expires_at"),
    auctionKind: text("auction_kind"),
    auctionEnd: time("auction_end"),
    offer: wei("offer"),
    offerExpiresAt: time("offer_expires_at"),
    /** When it was last put on sale (listing or auction); null while not on sale. */
    listedAt: time("listed_at"),
    /** When it last sold (market sale or lazy mint). */
    soldAt: time("sold_at"),
    blocked: boolean("blocked").notNull().default(false),
    /**
     * A copy of the collection's category (`collection_details.category_id`, off-chain), kept by triggers
     * (migration 0015): explore filters by category on the token itself, with no list of the category's
     * collections to send and plan for.
     */
    categoryId: integer("category_id"),
    mintedBlock: blockNumber("minted_block").notNull(),
    mintedAt: time("minted_at").notNull(),
    mintTx: text("mint_tx").notNull(),
    updatedBlock: blockNumber("updated_block").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.collection, t.tokenId] }),
    index("chain_tokens_owner_idx").on(t.owner),
    index("chain_tokens_creator_idx").on(t.creator),
    // The token minted from an upload: the header search finds items by their metadata's name.
    index("chain_tokens_cid_idx").on(t.cid),
    index("chain_tokens_status_idx").on(t.collection, t.status),
    // A collection's newest items (the home page's sliders).
    index("chain_tokens_collection_minted_idx").on(t.collection, t.mintedBlock),
    // Explore's sorts walk these in order (keyset pages): newest first, by price, by listing and sale time.
    index("chain_tokens_minted_idx").on(t.mintedBlock, t.collection, t.tokenId),
    index("chain_tokens_price_idx").on(t.price, t.collection, t.tokenId).where(sql`${t.price} is not null`),
    index("chain_tokens_listed_idx")
      .on(t.listedAt, t.collection, t.tokenId)
      .where(sql`${t.listedAt} is not null`),
    index("chain_tokens_sold_idx").on(t.soldAt, t.collection, t.tokenId).where(sql`${t.soldAt} is not null`),
    // Ending soon: the auctions with an end (a reserve auction has none before its first bid), soonest first;
    // the live ones are the range after now().
    index("chain_tokens_auction_end_idx")
      .on(t.auctionEnd, t.collection, t.tokenId)
      .where(sql`${t.auctionEnd} is not null`),
    // The same orders within a category (explore's category filter): a category's page is a range of one of
    // these, whatever the category's size, instead of a filter on a walk of every token or an intersection
    // of bitmaps (30 ms at 1,000,000 items).
    index("chain_tokens_category_minted_idx").on(t.categoryId, t.mintedBlock, t.collection, t.tokenId),
    index("chain_tokens_category_price_idx")
      .on(t.categoryId, t.price, t.collection, t.tokenId)
      .where(sql`${t.price} is not null`),
    index("chain_tokens_category_listed_idx")
      .on(t.categoryId, t.listedAt, t.collection, t.tokenId)
      .where(sql`${t.listedAt} is not null`),
    index("chain_tokens_category_sold_idx")
      .on(t.categoryId, t.soldAt, t.collection, t.tokenId)
      .where(sql`${t.soldAt} is not null`),
  ],
);

/** ERC-721 transfers (mints and burns included). */
export const chainTransfers = pgTable(
  "chain_transfers",
  {
    blockNumber: blockNumber().notNull(),
    logIndex: integer("log_index").notNull(),
    collection: text("collection").notNull(),
    tokenId: tokenId(),
    from: text("from").notNull(),
    to: text("to").notNull(),
    txHash: text("tx_hash").notNull(),
    blockTime: time("block_time").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.logIndex] }),
    index("chain_transfers_token_idx").on(t.collection, t.tokenId),
  ],
);

/** The fixed-price listing of each token (the market keeps one per token). */
export const chainSellOrders = pgTable(
  "chain_sell_orders",
  {
    collection: text("collection").notNull(),
    tokenId: tokenId(),
    seller: text("seller").notNull(),
    price: wei("price").notNull(),
    expiresAt: time("expires_at").notNull(),
    /** active, cancelled, sold, void (the token changed hands or went to auction). */
    status: text("status").notNull(),
    listedBlock: blockNumber("listed_block").notNull(),
    listedTx: text("listed_tx").notNull(),
    listedAt: time("listed_at").notNull(),
    updatedBlock: blockNumber("updated_block").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.collection, t.tokenId] }),
    index("chain_sell_orders_active_idx").on(t.collection, t.price).where(sql`${t.status} = 'active'`),
  ],
);

/** Auctions, one row per AuctionCreated (identified by its log). */
export const chainAuctions = pgTable(
  "chain_auctions",
  {
    collection: text("collection").notNull(),
    tokenId: tokenId(),
    createdBlock: blockNumber("created_block").notNull(),
    createdLogIndex: integer("created_log_index").notNull(),
    /** standard or reserve. */
    kind: text("kind").notNull(),
    seller: text("seller").notNull(),
    /** Start price (standard) or reserve price. */
    basePrice: wei("base_price").notNull(),
    startTime: time("start_time"),
    /** Null for a reserve auction until its first bid; moves when a late bid extends it. */
    endTime: time("end_time"),
    originalEndTime: time("original_end_time"),
    extended: boolean("extended").notNull().default(false),
    topBid: wei("top_bid"),
    topBidder: text("top_bidder"),
    bidsCount: integer("bids_count").notNull().default(0),
    /** active, cancelled, completed. */
    status: text("status").notNull(),
    winner: text("winner"),
    createdTx: text("created_tx").notNull(),
    updatedBlock: blockNumber("updated_block").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.createdBlock, t.createdLogIndex] }),
    uniqueIndex("chain_auctions_active_idx").on(t.collection, t.tokenId).where(sql`${t.status} = 'active'`),
    index("chain_auctions_seller_idx").on(t.seller),
  ],
);

/** Every bid (BidPlaced). */
export const chainBids = pgTable(
  "chain_bids",
  {
    blockNumber: blockNumber().notNull(),
    logIndex: integer("log_index").notNull(),
    collection: text("collection").notNull(),
    tokenId: tokenId(),
    bidder: text("bidder").notNull(),
    amount: wei("amount").notNull(),
    /** The auction's end after this bid. */
    endTime: time("end_time").notNull(),
    previousBidder: text("previous_bidder"),
    previousAmount: wei("previous_amount"),
    txHash: text("tx_hash").notNull(),
    blockTime: time("block_time").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.logIndex] }),
    index("chain_bids_token_idx").on(t.collection, t.tokenId),
    index("chain_bids_bidder_idx").on(t.bidder),
  ],
);

/** Offers by token and offerer: the market keeps one live offer per token; older ones keep their outcome. */
export const chainOffers = pgTable(
  "chain_offers",
  {
    collection: text("collection").notNull(),
    tokenId: tokenId(),
    buyer: text("buyer").notNull(),
    amount: wei("amount").notNull(),
    /**
     * active, outbid (refunded when another offer replaced it: a higher one, or any once it had expired),
     * cancelled, accepted. An active offer past `expires_at` can no longer be accepted: readers show it as
     * expired (its ETH stays in the market until the offerer, or anyone, cancels it).
     */
    status: text("status").notNull(),
    /** When the market stops accepting it (OfferMade's `expiresAt`); null for offers made before they expired. */
    expiresAt: time("expires_at"),
    updatedBlock: blockNumber("updated_block").notNull(),
    updatedTx: text("updated_tx").notNull(),
    updatedAt: time("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.collection, t.tokenId, t.buyer] }),
    index("chain_offers_buyer_idx").on(t.buyer),
  ],
);

/**
 * Collection (and trait) offers, one row per offer id (`keccak256(abi.encode(offer))`: the same terms again add
 * to the same row). `quantity` counts every token ever offered for under these terms, `remaining` what the market
 * still escrows. An active offer past `expires_at` can no longer be accepted (no event says so).
 */
export const chainCollectionOffers = pgTable(
  "chain_collection_offers",
  {
    /** bytes32, 0x hex. */
    offerId: text("offer_id").primaryKey(),
    collection: text("collection").notNull(),
    buyer: text("buyer").notNull(),
    /** Merkle root of the token ids it may buy; null: any token of the collection. */
    tokenRoot: text("token_root"),
    /** Per token. */
    price: wei("price").notNull(),
    expiresAt: time("expires_at").notNull(),
    quantity: integer("quantity").notNull(),
    remaining: integer("remaining").notNull(),
    /** active, filled (remaining reached 0), cancelled. */
    status: text("status").notNull(),
    createdBlock: blockNumber("created_block").notNull(),
    createdTx: text("created_tx").notNull(),
    createdAt: time("created_at").notNull(),
    updatedBlock: blockNumber("updated_block").notNull(),
    updatedTx: text("updated_tx").notNull(),
    updatedAt: time("updated_at").notNull(),
  },
  (t) => [
    index("chain_collection_offers_collection_idx").on(t.collection, t.status),
    index("chain_collection_offers_buyer_idx").on(t.buyer),
  ],
);

/**
 * Sales: buy now, auction, accepted offer, signed listing, accepted collection offer (market Sale events) and lazy
 * mints (LazyMinted).
 */
export const chainSales = pgTable(
  "chain_sales",
  {
    blockNumber: blockNumber().notNull(),
    logIndex: integer("log_index").notNull(),
    collection: text("collection").notNull(),
    tokenId: tokenId(),
    seller: text("seller").notNull(),
    buyer: text("buyer").notNull(),
    /** buy-now, auction, offer, signed-listing, collection-offer or lazy-mint. */
    mechanism: text("mechanism").notNull(),
    price: wei("price").notNull(),
    fee: wei("fee").notNull(),
    royalty: wei("royalty").notNull(),
    proceeds: wei("proceeds").notNull(),
    primary: boolean("primary").notNull(),
    txHash: text("tx_hash").notNull(),
    blockTime: time("block_time").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.logIndex] }),
    index("chain_sales_token_idx").on(t.collection, t.tokenId),
    index("chain_sales_seller_idx").on(t.seller),
    index("chain_sales_buyer_idx").on(t.buyer),
  ],
);

/** Pull payments: credits (a push that failed) and withdrawals, on the market and on lazy collections. */
export const chainCredits = pgTable(
  "chain_credits",
  {
    blockNumber: blockNumber().notNull(),
    logIndex: integer("log_index").notNull(),
    /** The contract holding the credit. */
    contract: text("contract").notNull(),
    account: text("account").notNull(),
    /** credit or withdrawal. */
    kind: text("kind").notNull(),
    amount: wei("amount").notNull(),
    /** Withdrawal destination. */
    to: text("to"),
    txHash: text("tx_hash").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.logIndex] }),
    index("chain_credits_account_idx").on(t.account),
  ],
);

/** Per-account moderation state from the market: bans and verified artists. */
export const chainAccounts = pgTable("chain_accounts", {
  address: text("address").primaryKey(),
  banned: boolean("banned").notNull().default(false),
  verifiedArtist: boolean("verified_artist").notNull().default(false),
  updatedBlock: blockNumber("updated_block").notNull(),
});

/** Tokens blocked by an operator (a row while blocked; the token need not be minted yet). */
export const chainBlockedTokens = pgTable(
  "chain_blocked_tokens",
  {
    collection: text("collection").notNull(),
    tokenId: tokenId(),
    blockNumber: blockNumber().notNull(),
  },
  (t) => [primaryKey({ columns: [t.collection, t.tokenId] })],
);

/** Collections blocked by an operator (a row while blocked). */
export const chainBlockedCollections = pgTable("chain_blocked_collections", {
  collection: text("collection").primaryKey(),
  blockNumber: blockNumber().notNull(),
});

/** Market settings by event name (FeesSet, MinimumsSet, SignerSet, MarketLockSet, ...): the latest arguments. */
export const chainSettings = pgTable("chain_settings", {
  name: text("name").primaryKey(),
  args: jsonb("args").$type<Record<string, unknown>>().notNull(),
  blockNumber: blockNumber().notNull(),
});

/** The activity feed: what happened to which token, by whom, for how much. */
export const chainActivity = pgTable(
  "chain_activity",
  {
    blockNumber: blockNumber().notNull(),
    logIndex: integer("log_index").notNull(),
    /** Several rows may come from one event (a bid that outbids another). */
    seq: smallint("seq").notNull(),
    /**
     * mint, list, unlist, auction, auction_cancelled, bid, outbid, sale, offer, offer_cancelled,
     * offer_accepted, transfer, burn.
     */
    kind: text("kind").notNull(),
    collection: text("collection").notNull(),
    tokenId: tokenId(),
    from: text("from"),
    to: text("to"),
    price: wei("price"),
    txHash: text("tx_hash").notNull(),
    blockTime: time("block_time").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.blockNumber, t.logIndex, t.seq] }),
    index("chain_activity_token_idx").on(t.collection, t.tokenId, t.blockNumber),
    // A collection's activity list, newest first.
    index("chain_activity_collection_idx").on(t.collection, t.blockNumber, t.logIndex, t.seq),
    // The market's activity feed, one kind at a time, newest first (browse/feed.ts).
    index("chain_activity_kind_idx").on(t.kind, t.blockNumber, t.logIndex, t.seq),
    index("chain_activity_from_idx").on(t.from, t.blockNumber),
    index("chain_activity_to_idx").on(t.to, t.blockNumber),
    index("chain_activity_time_idx").on(t.blockTime),
  ],
);
