/**
 * The projections: one handler per event kind (Reservoir style) turns the stored events into the chain
 * tables. A batch loads the rows its events touch, runs the handlers in chain order in memory, and writes
 * everything back in a handful of statements inside the batch's transaction. Replaying the same events in
 * the same order always gives the same rows, which is what reorg handling and restarts rely on.
 */
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { CID } from "multiformats/cid";
import type pg from "pg";
import { formatEther, hexToBytes } from "viem";
import {
  chainAccounts,
  chainActivity,
  chainAuctions,
  chainBids,
  chainBlockedCollections,
  chainBlockedTokens,
  chainCollections,
  chainCredits,
  chainOffers,
  chainSales,
  chainSellOrders,
  chainSettings,
  chainTokens,
  chainTransfers,
} from "../db/chain-schema.ts";
import type { ChainEvent } from "./decode.ts";
import { type Row, Store, upsertRows } from "./store.ts";

const ZERO = "0x0000000000000000000000000000000000000000";
const COLLECTION_KINDS: Record<string, string> = { "1": "standard", "2": "lazy", "3": "default" };
const AUCTION_KINDS: Record<string, string> = { "1": "standard", "2": "reserve" };
const MECHANISMS: Record<string, string> = { "1": "buy-now", "2": "auction", "3": "offer" };
const SETTINGS_EVENTS = new Set([
  "MarketLockSet",
  "EntranceLockSet",
  "FeesSet",
  "MinimumsSet",
  "MinAuctionDurationSet",
  "SignerSet",
]);

/** Creator, CID, royalty and split from a `Minted` or `LazyMinted` event. */
function setMintDetails(token: Row, a: Record<string, unknown>) {
  token.creator = a.creator;
  token.cid = cidString(a.cid);
  token.royalty_bps = Number(a.royaltyBps);
  token.collaborators = ((a.collaborators as { account: string; share: string }[]) ?? []).map((c) => ({
    account: c.account,
    share: Number(c.share),
  }));
}

function describe(table: PgTable) {
  const config = getTableConfig(table);
  const columns = config.columns.map((c) => c.name);
  const pk =
    config.primaryKeys[0]?.columns.map((c) => c.name) ??
    config.columns.filter((c) => c.primary).map((c) => c.name);
  return { name: config.name, columns, pk };
}

export const TABLES = {
  collections: describe(chainCollections),
  tokens: describe(chainTokens),
  transfers: describe(chainTransfers),
  sellOrders: describe(chainSellOrders),
  auctions: describe(chainAuctions),
  bids: describe(chainBids),
  offers: describe(chainOffers),
  sales: describe(chainSales),
  credits: describe(chainCredits),
  accounts: describe(chainAccounts),
  blockedTokens: describe(chainBlockedTokens),
  blockedCollections: describe(chainBlockedCollections),
  settings: describe(chainSettings),
  activity: describe(chainActivity),
};

/** Tables emptied and rebuilt from `chain_events` after a reorg. */
export const PROJECTION_TABLES = Object.values(TABLES).map((t) => t.name);

/** A notification the handlers want sent; written (once per key) after the handlers ran. */
export type NotificationIntent = {
  key: string;
  address: string;
  kind: string;
  flag: string;
  message: string;
  data: Record<string, unknown>;
  time: Date;
  /** Instead of `address`, notify every follower of this account. */
  followersOf?: boolean;
  /** Dropped (the transfer turned out to be part of a sale). */
  skip?: boolean;
};

/** What a batch changed: for live updates. */
export type Touched = { collections: Set<string>; tokens: Set<string>; accounts: Set<string> };

const store = (t: { name: string; columns: string[]; pk: string[] }) => new Store(t.name, t.pk, t.columns);
const tokenKey = (collection: string, tokenId: string) => `${collection}:${tokenId}`;

function cidString(hex: unknown): string | null {
  try {
    return CID.decode(hexToBytes(hex as `0x${string}`)).toString();
  } catch {
    return null;
  }
}

const eth = (wei: unknown) => `${formatEther(BigInt(String(wei)))} ETH`;
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** The state of one batch: touched rows of the mutable tables, and rows to append. */
export class Batch {
  readonly collections = store(TABLES.collections);
  readonly tokens = store(TABLES.tokens);
  readonly sellOrders = store(TABLES.sellOrders);
  readonly auctions = store(TABLES.auctions);
  readonly offers = store(TABLES.offers);
  readonly accounts = store(TABLES.accounts);
  readonly blockedTokens = store(TABLES.blockedTokens);
  readonly blockedCollections = store(TABLES.blockedCollections);
  readonly settings = store(TABLES.settings);
  /** Active auction (its store key) by token key. */
  readonly activeAuction = new Map<string, string>();
  readonly transfers: Row[] = [];
  readonly bids: Row[] = [];
  readonly sales: Row[] = [];
  readonly credits: Row[] = [];
  readonly activity: Row[] = [];
  readonly notifications: NotificationIntent[] = [];
  /** Transfer activity and notifications by `tx:collection:tokenId`, dropped when a sale follows. */
  readonly transferActivity = new Map<string, Row>();
  readonly transferNotes = new Map<string, NotificationIntent>();
  readonly touched: Touched = { collections: new Set(), tokens: new Set(), accounts: new Set() };

  constructor(readonly market: string) {}

  /** Loads every stored row the events can touch. */
  async load(client: pg.ClientBase, events: ChainEvent[]): Promise<void> {
    const tokenKeys = new Map<string, Row>();
    const collections = new Set<string>();
    const accounts = new Set<string>();
    for (const e of events) {
      const { collection, tokenId } = target(e, this.market);
      if (collection) collections.add(collection);
      if (collection && tokenId !== undefined)
        tokenKeys.set(tokenKey(collection, tokenId), { collection, token_id: tokenId });
      if (e.name === "UserBanned" || e.name === "ArtistVerified") accounts.add(String(e.args.account));
    }
    const tokens = [...tokenKeys.values()];
    const cols = [...collections].map((address) => ({ address }));
    // One connection runs one query at a time: load in sequence.
    await this.tokens.load(client, tokens);
    await this.sellOrders.load(client, tokens);
    await this.blockedTokens.load(client, tokens);
    await this.collections.load(client, cols);
    await this.blockedCollections.load(
      client,
      [...collections].map((collection) => ({ collection })),
    );
    await this.accounts.load(
      client,
      [...accounts].map((address) => ({ address })),
    );
    if (tokens.length > 0) {
      const { rows } = await client.query(
        `SELECT a.* FROM chain_auctions a WHERE a.status = 'active' AND (a.collection, a.token_id) IN
         (SELECT collection, token_id FROM jsonb_to_recordset($1::jsonb) AS x(collection text, token_id numeric))`,
        [JSON.stringify(tokens)],
      );
      for (const row of rows) {
        this.auctions.rows.set(this.auctions.keyOf(row), row);
        this.activeAuction.set(
          tokenKey(String(row.collection), String(row.token_id)),
          this.auctions.keyOf(row),
        );
      }
    }
  }

  apply(e: ChainEvent): void {
    const handler = HANDLERS[e.name];
    if (handler) handler(this, e);
  }

  /** Writes every change of the batch. */
  async flush(client: pg.ClientBase): Promise<void> {
    for (const s of [
      this.collections,
      this.tokens,
      this.sellOrders,
      this.auctions,
      this.offers,
      this.accounts,
      this.blockedTokens,
      this.blockedCollections,
      this.settings,
    ]) {
      await s.flush(client);
    }
    const append: [typeof TABLES.transfers, Row[]][] = [
      [TABLES.transfers, this.transfers],
      [TABLES.bids, this.bids],
      [TABLES.sales, this.sales],
      [TABLES.credits, this.credits],
      [TABLES.activity, this.activity.filter((r) => !r.skip)],
    ];
    for (const [t, rows] of append) {
      if (rows.length > 0) await upsertRows(client, t.name, t.pk, t.columns, rows, { keep: true });
    }
    if (this.touched.collections.size > 0)
      await refreshCollectionStats(client, [...this.touched.collections]);
  }

  // ------------------------------------------------------------------ helpers for handlers

  token(collection: string, tokenId: string): Row | undefined {
    return this.tokens.get(tokenKey(collection, tokenId));
  }

  touch(collection: string, tokenId?: string, ...accounts: unknown[]): void {
    this.touched.collections.add(collection);
    if (tokenId !== undefined) this.touched.tokens.add(tokenKey(collection, tokenId));
    for (const a of accounts) if (typeof a === "string" && a !== ZERO) this.touched.accounts.add(a);
  }

  activityRow(
    e: ChainEvent,
    seq: number,
    kind: string,
    collection: string,
    tokenId: string,
    from: unknown,
    to: unknown,
    price: unknown,
  ): void {
    this.activity.push({
      block_number: String(e.blockNumber),
      log_index: e.logIndex,
      seq,
      kind,
      collection,
      token_id: tokenId,
      from: (from as string | null) ?? null,
      to: (to as string | null) ?? null,
      price: price == null ? null : String(price),
      tx_hash: e.txHash,
      block_time: e.blockTime.toISOString(),
    });
  }

  notify(
    e: ChainEvent,
    address: unknown,
    kind: string,
    flag: string,
    message: string,
    extra: Row = {},
  ): void {
    if (typeof address !== "string" || address === ZERO || address === this.market) return;
    this.notifications.push({
      key: `chain:${e.blockNumber}:${e.logIndex}:${kind}:${address}`,
      address,
      kind,
      flag,
      message,
      data: { block: String(e.blockNumber), tx: e.txHash, ...extra },
      time: e.blockTime,
    });
  }

  /** Ends the fixed-price listing of a token if it is active. */
  endListing(e: ChainEvent, collection: string, tokenId: string, status: string): void {
    const order = this.sellOrders.get(tokenKey(collection, tokenId));
    if (order && order.status === "active") {
      order.status = status;
      order.updated_block = String(e.blockNumber);
      this.sellOrders.touch(order);
    }
  }
}

/** The token an event concerns, if any. */
function target(e: ChainEvent, market: string): { collection?: string; tokenId?: string } {
  const a = e.args;
  if (e.address === market) {
    return {
      collection: a.collection as string | undefined,
      tokenId: a.tokenId as string | undefined,
    };
  }
  if (e.name === "CollectionCreated") return { collection: a.collection as string };
  return { collection: e.address, tokenId: (a.tokenId ?? a.id) as string | undefined };
}

type Handler = (b: Batch, e: ChainEvent) => void;

function setTokenStatus(b: Batch, e: ChainEvent, token: Row, status: string, price: unknown): void {
  if (token.status !== "burned") token.status = status;
  token.price = price == null ? null : String(price);
  token.updated_block = String(e.blockNumber);
  b.tokens.touch(token);
}

const credit: Handler = (b, e) => {
  const a = e.args;
  b.credits.push({
    block_number: String(e.blockNumber),
    log_index: e.logIndex,
    contract: e.address,
    account: a.account,
    kind: e.name === "PaymentCredited" ? "credit" : "withdrawal",
    amount: a.amount,
    to: (a.to as string | undefined) ?? null,
    tx_hash: e.txHash,
  });
  b.touched.accounts.add(String(a.account));
};

export const HANDLERS: Record<string, Handler> = {
  // ---------------------------------------------------------------- factory
  CollectionCreated(b, e) {
    const a = e.args;
    const address = String(a.collection);
    b.collections.set({
      address,
      kind: COLLECTION_KINDS[String(a.kind)] ?? String(a.kind),
      owner: a.owner,
      name: a.name,
      symbol: a.symbol,
      category: a.category,
      max_supply: a.maxSupply,
      blocked: b.blockedCollections.get(address) !== undefined,
      created_block: String(e.blockNumber),
      created_tx: e.txHash,
      created_at: e.blockTime.toISOString(),
      floor_price: null,
      highest_sale: null,
      volume: "0",
      sales_count: 0,
      owners_count: 0,
      tokens_count: 0,
    });
    b.touch(address, undefined, a.owner);
  },

  // ---------------------------------------------------------------- collections
  Transfer(b, e) {
    const collection = e.address;
    const { from, to } = e.args as { from: string; to: string };
    const tokenId = String(e.args.tokenId ?? e.args.id);
    b.transfers.push({
      block_number: String(e.blockNumber),
      log_index: e.logIndex,
      collection,
      token_id: tokenId,
      from,
      to,
      tx_hash: e.txHash,
      block_time: e.blockTime.toISOString(),
    });
    b.touch(collection, tokenId, from, to);
    if (from === ZERO) {
      // The Minted (or LazyMinted) event that follows in the same transaction fills in creator, CID and royalty.
      b.tokens.set({
        collection,
        token_id: tokenId,
        creator: null,
        owner: to,
        holder: to,
        cid: null,
        royalty_bps: null,
        collaborators: null,
        status: "minted",
        lazy: false,
        price: null,
        last_price: null,
        blocked: b.blockedTokens.get(tokenKey(collection, tokenId)) !== undefined,
        minted_block: String(e.blockNumber),
        minted_at: e.blockTime.toISOString(),
        mint_tx: e.txHash,
        updated_block: String(e.blockNumber),
      });
      return;
    }
    const token = b.token(collection, tokenId);
    b.endListing(e, collection, tokenId, "void");
    if (!token) return;
    token.holder = to;
    token.updated_block = String(e.blockNumber);
    if (to === ZERO) {
      token.status = "burned";
      token.price = null;
      b.activityRow(e, 0, "burn", collection, tokenId, from, null, null);
    } else if (to === b.market) {
      // Escrow for an auction: AuctionCreated already set the status; the seller stays the owner.
    } else {
      token.owner = to;
      if (from !== b.market) {
        if (token.status === "fix") {
          token.status = "minted";
          token.price = null;
        }
        const key = `${e.txHash}:${collection}:${tokenId}`;
        b.activityRow(e, 0, "transfer", collection, tokenId, from, to, null);
        b.transferActivity.set(key, b.activity[b.activity.length - 1] as Row);
        b.notify(e, to, "transfer", "ownedItemUpdate", `You received NFT #${tokenId} from ${short(from)}.`, {
          collection,
          tokenId,
        });
        const note = b.notifications[b.notifications.length - 1];
        if (note?.kind === "transfer") b.transferNotes.set(key, note);
      }
    }
    b.tokens.touch(token);
  },

  Minted(b, e) {
    const collection = e.address;
    const a = e.args;
    const tokenId = String(a.tokenId);
    const token = b.token(collection, tokenId);
    if (!token) return;
    setMintDetails(token, a);
    b.tokens.touch(token);
    b.activityRow(e, 0, "mint", collection, tokenId, a.creator, a.to, null);
    b.touch(collection, tokenId, a.creator);
  },

  /** A lazy mint is a mint and the token's primary sale in one event. */
  LazyMinted(b, e) {
    const collection = e.address;
    const a = e.args;
    const tokenId = String(a.tokenId);
    const token = b.token(collection, tokenId);
    const seller = String(a.creator);
    if (token) {
      setMintDetails(token, a);
      token.lazy = true;
      token.last_price = a.price;
      setTokenStatus(b, e, token, "lazy-sold", null);
    }
    b.sales.push({
      block_number: String(e.blockNumber),
      log_index: e.logIndex,
      collection,
      token_id: tokenId,
      seller,
      buyer: a.buyer,
      mechanism: "lazy-mint",
      price: a.price,
      fee: a.fee,
      royalty: "0",
      proceeds: String(BigInt(String(a.price)) - BigInt(String(a.fee))),
      primary: true,
      tx_hash: e.txHash,
      block_time: e.blockTime.toISOString(),
    });
    b.activityRow(e, 0, "mint", collection, tokenId, seller, a.buyer, null);
    b.activityRow(e, 1, "sale", collection, tokenId, seller, a.buyer, a.price);
    b.touch(collection, tokenId, seller, a.buyer);
    const data = { collection, tokenId, price: a.price };
    b.notify(e, seller, "sale", "itemSold", `Your NFT #${tokenId} was bought for ${eth(a.price)}.`, data);
    b.notify(
      e,
      a.buyer,
      "purchase",
      "successfulPurchase",
      `You bought NFT #${tokenId} for ${eth(a.price)}.`,
      data,
    );
  },

  PaymentCredited: credit,
  Withdrawal: credit,

  // ---------------------------------------------------------------- market: fixed price
  SellOrderSet(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    b.sellOrders.set({
      collection,
      token_id: tokenId,
      seller: a.seller,
      price: a.price,
      expires_at: new Date(Number(a.expiresAt) * 1000).toISOString(),
      status: "active",
      listed_block: String(e.blockNumber),
      listed_tx: e.txHash,
      listed_at: e.blockTime.toISOString(),
      updated_block: String(e.blockNumber),
    });
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "fix", a.price);
    b.activityRow(e, 0, "list", collection, tokenId, a.seller, null, a.price);
    b.touch(collection, tokenId, a.seller);
    if (token && token.creator === a.seller) {
      b.notifications.push({
        key: `chain:${e.blockNumber}:${e.logIndex}:listing:followers`,
        address: String(a.seller),
        kind: "listing",
        flag: "newNftListing",
        message: `${short(String(a.seller))} listed NFT #${tokenId} for ${eth(a.price)}.`,
        data: { block: String(e.blockNumber), tx: e.txHash, collection, tokenId, price: a.price },
        time: e.blockTime,
        followersOf: true,
      });
    }
  },

  SellOrderCancelled(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    b.endListing(e, collection, tokenId, "cancelled");
    const token = b.token(collection, tokenId);
    if (token && token.status === "fix") setTokenStatus(b, e, token, "minted", null);
    b.activityRow(e, 0, "unlist", collection, tokenId, a.seller, null, null);
    b.touch(collection, tokenId, a.seller);
  },

  // ---------------------------------------------------------------- market: auctions
  AuctionCreated(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const end = String(a.end) === "0" ? null : new Date(Number(a.end) * 1000).toISOString();
    const row = b.auctions.set({
      collection,
      token_id: tokenId,
      created_block: String(e.blockNumber),
      created_log_index: e.logIndex,
      kind: AUCTION_KINDS[String(a.kind)] ?? String(a.kind),
      seller: a.seller,
      base_price: a.price,
      start_time: String(a.start) === "0" ? null : new Date(Number(a.start) * 1000).toISOString(),
      end_time: end,
      original_end_time: end,
      extended: false,
      top_bid: null,
      top_bidder: null,
      bids_count: 0,
      status: "active",
      winner: null,
      created_tx: e.txHash,
      updated_block: String(e.blockNumber),
    });
    b.activeAuction.set(tokenKey(collection, tokenId), b.auctions.keyOf(row));
    b.endListing(e, collection, tokenId, "void");
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "auction", a.price);
    b.activityRow(e, 0, "auction", collection, tokenId, a.seller, null, a.price);
    b.touch(collection, tokenId, a.seller);
  },

  AuctionBaseValueChanged(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const auction = activeAuction(b, collection, tokenId);
    if (auction) {
      auction.base_price = a.price;
      auction.updated_block = String(e.blockNumber);
      b.auctions.touch(auction);
    }
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "auction", a.price);
    b.touch(collection, tokenId);
  },

  AuctionCancelled(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    endAuction(b, e, collection, tokenId, "cancelled", null);
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "minted", null);
    b.activityRow(e, 0, "auction_cancelled", collection, tokenId, a.seller, null, null);
    // An operator may cancel an auction that has bids: the top bid is refunded.
    const refunded = a.refundedBidder === ZERO ? null : String(a.refundedBidder);
    if (refunded) {
      b.notify(
        e,
        refunded,
        "auction_cancelled",
        "bidActivity",
        `The auction of NFT #${tokenId} was cancelled; your bid of ${eth(a.refundedAmount)} was refunded.`,
        { collection, tokenId, amount: a.refundedAmount },
      );
    }
    b.touch(collection, tokenId, a.seller, refunded);
  },

  BidPlaced(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const end = new Date(Number(a.end) * 1000).toISOString();
    const previous = a.previousBidder === ZERO ? null : String(a.previousBidder);
    b.bids.push({
      block_number: String(e.blockNumber),
      log_index: e.logIndex,
      collection,
      token_id: tokenId,
      bidder: a.bidder,
      amount: a.amount,
      end_time: end,
      previous_bidder: previous,
      previous_amount: previous ? a.previousAmount : null,
      tx_hash: e.txHash,
      block_time: e.blockTime.toISOString(),
    });
    const auction = activeAuction(b, collection, tokenId);
    if (auction) {
      if (auction.end_time == null) {
        // A reserve auction starts with its first bid.
        auction.start_time = e.blockTime.toISOString();
        auction.original_end_time = end;
      } else if (new Date(String(auction.end_time)).getTime() !== new Date(end).getTime()) {
        auction.extended = true;
      }
      auction.end_time = end;
      auction.top_bid = a.amount;
      auction.top_bidder = a.bidder;
      auction.bids_count = Number(auction.bids_count) + 1;
      auction.updated_block = String(e.blockNumber);
      b.auctions.touch(auction);
    }
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "auction", a.amount);
    b.activityRow(e, 0, "bid", collection, tokenId, a.bidder, null, a.amount);
    const data = { collection, tokenId, amount: a.amount };
    if (previous) {
      b.activityRow(e, 1, "outbid", collection, tokenId, previous, a.bidder, a.previousAmount);
      b.notify(
        e,
        previous,
        "outbid",
        "bidActivity",
        `You were outbid on NFT #${tokenId}: the top bid is now ${eth(a.amount)}; ${eth(a.previousAmount)} was refunded.`,
        data,
      );
    }
    const seller = auction?.seller ?? token?.owner;
    b.notify(e, seller, "bid", "auction", `New bid of ${eth(a.amount)} on your NFT #${tokenId}.`, data);
    b.touch(collection, tokenId, a.bidder, previous, seller);
  },

  AuctionCompleted(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    endAuction(b, e, collection, tokenId, "completed", String(a.winner));
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "minted", null);
    b.notify(
      e,
      a.winner,
      "auction_won",
      "auction",
      `You won the auction of NFT #${tokenId} for ${eth(a.price)}.`,
      {
        collection,
        tokenId,
        price: a.price,
      },
    );
    b.touch(collection, tokenId, a.seller, a.winner);
  },

  // ---------------------------------------------------------------- market: offers
  OfferMade(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const row = (buyer: string, amount: unknown, status: string) =>
      b.offers.set({
        collection,
        token_id: tokenId,
        buyer,
        amount: String(amount),
        status,
        updated_block: String(e.blockNumber),
        updated_tx: e.txHash,
        updated_at: e.blockTime.toISOString(),
      });
    const previous = a.previousBuyer === ZERO ? null : String(a.previousBuyer);
    if (previous) {
      row(previous, a.previousAmount, "outbid");
      b.notify(
        e,
        previous,
        "offer_outbid",
        "bidActivity",
        `Your offer on NFT #${tokenId} was outbid; it was refunded.`,
        {
          collection,
          tokenId,
        },
      );
    }
    row(String(a.buyer), a.amount, "active");
    b.activityRow(e, 0, "offer", collection, tokenId, a.buyer, null, a.amount);
    const owner = b.token(collection, tokenId)?.owner;
    b.notify(e, owner, "offer", "bidActivity", `New offer of ${eth(a.amount)} on your NFT #${tokenId}.`, {
      collection,
      tokenId,
      amount: a.amount,
    });
    b.touch(collection, tokenId, a.buyer, previous, owner);
  },

  OfferCancelled(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    b.offers.set({
      collection,
      token_id: tokenId,
      buyer: a.buyer,
      amount: a.amount,
      status: "cancelled",
      updated_block: String(e.blockNumber),
      updated_tx: e.txHash,
      updated_at: e.blockTime.toISOString(),
    });
    b.activityRow(e, 0, "offer_cancelled", collection, tokenId, a.buyer, null, a.amount);
    b.touch(collection, tokenId, a.buyer);
  },

  OfferAccepted(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    b.offers.set({
      collection,
      token_id: tokenId,
      buyer: a.buyer,
      amount: a.amount,
      status: "accepted",
      updated_block: String(e.blockNumber),
      updated_tx: e.txHash,
      updated_at: e.blockTime.toISOString(),
    });
    b.activityRow(e, 0, "offer_accepted", collection, tokenId, a.seller, a.buyer, a.amount);
    b.notify(
      e,
      a.buyer,
      "offer_accepted",
      "successfulPurchase",
      `Your offer of ${eth(a.amount)} on NFT #${tokenId} was accepted.`,
      {
        collection,
        tokenId,
        amount: a.amount,
      },
    );
    b.touch(collection, tokenId, a.seller, a.buyer);
  },

  // ---------------------------------------------------------------- market: sales
  Sale(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const mechanism = MECHANISMS[String(a.mechanism)] ?? String(a.mechanism);
    b.sales.push({
      block_number: String(e.blockNumber),
      log_index: e.logIndex,
      collection,
      token_id: tokenId,
      seller: a.seller,
      buyer: a.buyer,
      mechanism,
      price: a.price,
      fee: a.fee,
      royalty: a.royalty,
      proceeds: a.proceeds,
      primary: a.primary,
      tx_hash: e.txHash,
      block_time: e.blockTime.toISOString(),
    });
    if (mechanism === "buy-now") {
      const order = b.sellOrders.get(tokenKey(collection, tokenId));
      if (order) {
        order.status = "sold";
        order.updated_block = String(e.blockNumber);
        b.sellOrders.touch(order);
      }
    }
    const token = b.token(collection, tokenId);
    if (token) {
      token.last_price = a.price;
      setTokenStatus(b, e, token, "minted", null);
    }
    // The sale's own transfer is shown as the sale, not as a separate transfer (nor notified as one).
    const saleTransfer = `${e.txHash}:${collection}:${tokenId}`;
    const transferRow = b.transferActivity.get(saleTransfer);
    if (transferRow) transferRow.skip = true;
    const transferNote = b.transferNotes.get(saleTransfer);
    if (transferNote) transferNote.skip = true;
    b.activityRow(e, 0, "sale", collection, tokenId, a.seller, a.buyer, a.price);
    const data = { collection, tokenId, price: a.price, mechanism };
    b.notify(
      e,
      a.seller,
      "sale",
      "itemSold",
      `Your NFT #${tokenId} sold for ${eth(a.price)}; you receive ${eth(a.proceeds)}.`,
      data,
    );
    if (mechanism === "buy-now") {
      b.notify(
        e,
        a.buyer,
        "purchase",
        "successfulPurchase",
        `You bought NFT #${tokenId} for ${eth(a.price)}.`,
        data,
      );
    }
    b.touch(collection, tokenId, a.seller, a.buyer);
  },

  // ---------------------------------------------------------------- market: moderation and settings
  UserBanned(b, e) {
    setAccount(b, e, { banned: e.args.banned === true });
  },
  ArtistVerified(b, e) {
    setAccount(b, e, { verified_artist: e.args.verified === true });
  },
  CollectionBlocked(b, e) {
    const collection = String(e.args.collection);
    if (e.args.blocked === true)
      b.blockedCollections.set({ collection, block_number: String(e.blockNumber) });
    else b.blockedCollections.delete(collection);
    const row = b.collections.get(collection);
    if (row) {
      row.blocked = e.args.blocked === true;
      b.collections.touch(row);
    }
    b.touch(collection);
  },
  TokenBlocked(b, e) {
    const collection = String(e.args.collection);
    const tokenId = String(e.args.tokenId);
    if (e.args.blocked === true)
      b.blockedTokens.set({ collection, token_id: tokenId, block_number: String(e.blockNumber) });
    else b.blockedTokens.delete(tokenKey(collection, tokenId));
    const token = b.token(collection, tokenId);
    if (token) {
      token.blocked = e.args.blocked === true;
      token.updated_block = String(e.blockNumber);
      b.tokens.touch(token);
    }
    b.touch(collection, tokenId);
  },
};
for (const name of SETTINGS_EVENTS) {
  HANDLERS[name] = (b, e) => {
    b.settings.set({ name: e.name, args: e.args, block_number: String(e.blockNumber) });
  };
}

function setAccount(b: Batch, e: ChainEvent, change: Row): void {
  const address = String(e.args.account);
  const row = b.accounts.get(address) ?? { address, banned: false, verified_artist: false };
  b.accounts.set({ ...row, ...change, updated_block: String(e.blockNumber) });
  b.touched.accounts.add(address);
}

function activeAuction(b: Batch, collection: string, tokenId: string): Row | undefined {
  const key = b.activeAuction.get(tokenKey(collection, tokenId));
  return key ? b.auctions.get(key) : undefined;
}

function endAuction(
  b: Batch,
  e: ChainEvent,
  collection: string,
  tokenId: string,
  status: string,
  winner: string | null,
) {
  const auction = activeAuction(b, collection, tokenId);
  if (!auction) return;
  auction.status = status;
  auction.winner = winner;
  auction.updated_block = String(e.blockNumber);
  b.auctions.touch(auction);
  b.activeAuction.delete(tokenKey(collection, tokenId));
}

/** Recomputes the derived stats of collections from the projections. */
export async function refreshCollectionStats(client: pg.ClientBase, collections: string[]): Promise<void> {
  await client.query(
    `UPDATE chain_collections c SET
       floor_price = (SELECT min(s.price) FROM chain_sell_orders s WHERE s.collection = c.address AND s.status = 'active'),
       highest_sale = x.highest, volume = x.volume, sales_count = x.sales,
       owners_count = (SELECT count(DISTINCT t.owner) FROM chain_tokens t WHERE t.collection = c.address AND t.status <> 'burned'),
       tokens_count = (SELECT count(*) FROM chain_tokens t WHERE t.collection = c.address AND t.status <> 'burned')
     FROM (SELECT a.address, max(s.price) AS highest, coalesce(sum(s.price), 0) AS volume, count(s.price)::int AS sales
           FROM unnest($1::text[]) AS a(address) LEFT JOIN chain_sales s ON s.collection = a.address
           GROUP BY a.address) x
     WHERE c.address = x.address`,
    [collections],
  );
}
