/**
 * The projections' batch: the rows of the chain tables that a batch of events touches, loaded once, changed in
 * memory by the handlers (`handlers/`) in chain order, and written back in a handful of statements inside the
 * batch's transaction. Replaying the same events in the same order always gives the same rows, which is what
 * reorg handling and restarts rely on.
 */
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import type pg from "pg";
import { projectLazyItems } from "../browse/lazyCards.ts";
import { tokenName } from "../chain/rows.ts";
import {
  chainAccounts,
  chainActivity,
  chainAuctions,
  chainBids,
  chainBlockedCollections,
  chainBlockedTokens,
  chainCollectionOffers,
  chainCollections,
  chainCredits,
  chainOffers,
  chainSales,
  chainSellOrders,
  chainSettings,
  chainTokens,
  chainTransfers,
} from "../db/chain-schema.ts";
import type { CollectionOfferNotice } from "../trading/collectionOffers.ts";
import { type BookChange, projectSignedListings, retireSignedListings } from "../trading/signedListings.ts";
import type { ChainEvent } from "./decode.ts";
import { blockText, SETTINGS_EVENTS, timeText, tokenKey, ZERO } from "./keys.ts";
import { refreshCollectionStats } from "./stats.ts";
import {
  copyRows,
  Pace,
  type Row,
  type Runner,
  Statements,
  Store,
  upsertRows,
  yieldToEventLoop,
} from "./store.ts";

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
  collectionOffers: describe(chainCollectionOffers),
  sales: describe(chainSales),
  credits: describe(chainCredits),
  accounts: describe(chainAccounts),
  blockedTokens: describe(chainBlockedTokens),
  blockedCollections: describe(chainBlockedCollections),
  settings: describe(chainSettings),
  activity: describe(chainActivity),
};

/** Tables emptied and rebuilt from `chain_events` when the projections are rebuilt from scratch. */
export const PROJECTION_TABLES = Object.values(TABLES).map((t) => t.name);

/** Projections only ever appended to, one row per event (or several): each row carries its block. */
export const APPEND_TABLES = [
  TABLES.transfers,
  TABLES.bids,
  TABLES.sales,
  TABLES.credits,
  TABLES.activity,
].map((t) => t.name);

/** The item a notification names: its metadata (by CID) gives its name, else `fallback` ("Sunsets #3"). */
export type NamedItem = { cid: string | null; fallback: string };

/** A notification the handlers want sent; written (once per key) after the handlers ran. */
export type NotificationIntent = {
  key: string;
  address: string;
  kind: string;
  flag: string;
  data: Record<string, unknown>;
  time: Date;
  /** Instead of `address`, notify every follower of this account. */
  followersOf?: boolean;
  /**
   * Instead of `address`, notify everyone who favourited the item `data` names (their watchlist), except these
   * addresses (whoever acted) and anyone the same event notifies already (`indexer/notifications.ts`).
   */
  watchersOf?: { except: string[] };
  /**
   * Instead of `address`, notify the owners of the works this new collection offer covers whose best item offer
   * it beats (`ownersBeaten` in trading/collectionOffers.ts).
   */
  ownersBeatenBy?: CollectionOfferNotice;
  /** Dropped (the transfer turned out to be part of a sale). */
  skip?: boolean;
  /** The address of the person the text names ("… listed", "… outbid you"), named as profiles show them. */
  person?: string;
} & (
  | { message: string; item?: undefined }
  /**
   * A text naming an item, given its name (quoted) and the person's name (`displayName`: their profile's
   * name, else ENS, else short address) when the notification is written.
   */
  | { message: (item: string, person: string) => string; item: NamedItem }
);

/** What a batch changed: for live updates. */
export type Touched = { collections: Set<string>; tokens: Set<string>; accounts: Set<string> };

const store = (t: { name: string; columns: string[]; pk: string[] }) => new Store(t.name, t.pk, t.columns);

/** The state of one batch: touched rows of the mutable tables, and rows to append. */
export class Batch {
  readonly collections = store(TABLES.collections);
  readonly tokens = store(TABLES.tokens);
  readonly sellOrders = store(TABLES.sellOrders);
  readonly auctions = store(TABLES.auctions);
  readonly offers = store(TABLES.offers);
  /** Collection offers by offer id (`handlers/collection-offers.ts`). */
  readonly collectionOffers = store(TABLES.collectionOffers);
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
  /** What the events do to the signed-listing order book, in chain order (written after the rows). */
  readonly book: BookChange[] = [];
  /** Transfer activity and notifications by `tx:collection:tokenId`, dropped when a sale follows. */
  readonly transferActivity = new Map<string, Row>();
  readonly transferNotes = new Map<string, NotificationIntent>();
  /** Listings a transfer voided, by `tx:collection:tokenId`: a buy-now's Sale that follows marks its own sold. */
  readonly transferVoided = new Map<string, Row>();
  /**
   * The current offer on a token id with no row yet, by token key: an offer made on chain on an id before its
   * mint (the market does not read the token when an offer is made). The mint's new row shows it.
   */
  readonly unmintedOffers = new Map<string, { offer: string; offer_expires_at: string | null }>();
  readonly touched: Touched = { collections: new Set(), tokens: new Set(), accounts: new Set() };
  /** Collections created in this batch: their unsold lazy items are projected onto token rows (a rebuild). */
  readonly createdCollections = new Set<string>();

  /** `undo`: the batch will record undo (see `flush`), so its stores keep the rows as loaded. */
  readonly undo: boolean;
  constructor(
    readonly market: string,
    options: { undo?: boolean } = {},
  ) {
    this.undo = options.undo ?? false;
    for (const s of this.stores) s.keepLoaded = this.undo;
  }

  /**
   * Loads every stored row the events can touch, in every mutable table: the loaded rows are what undoing
   * the batch restores (a row changed without being loaded is refused when undo is recorded, see `Store`).
   */
  async load(client: Runner, events: ChainEvent[]): Promise<void> {
    const tokenKeys = new Map<string, Row>();
    const collections = new Set<string>();
    const accounts = new Set<string>();
    const settings = new Set<string>();
    const offers = new Map<string, Row>();
    const collectionOffers = new Set<string>();
    const created: Row[] = [];
    const offer = (collection: string, tokenId: string, buyer: unknown) => {
      if (typeof buyer !== "string" || buyer === ZERO) return;
      offers.set(`${collection}:${tokenId}:${buyer}`, { collection, token_id: tokenId, buyer });
    };
    // Paced: PostgreSQL is taking the events' COPY meanwhile (see `Pace`).
    const pace = new Pace();
    for (const e of events) {
      if (pace.due()) await pace.next();
      const { collection, tokenId } = target(e, this.market);
      if (collection) collections.add(collection);
      if (collection && tokenId !== undefined)
        tokenKeys.set(tokenKey(collection, tokenId), { collection, token_id: tokenId });
      if (e.name === "UserBanned" || e.name === "ArtistVerified") accounts.add(String(e.args.account));
      if (SETTINGS_EVENTS.has(e.name)) settings.add(e.name);
      // A collection offer's events name it by its id (the accept names no collection): its row is read by the
      // handlers (a new make adds to its quantity, an accept names its buyer and price).
      if (e.address === this.market && COLLECTION_OFFER_EVENTS.has(e.name)) {
        collectionOffers.add(String(e.args.offerId));
      }
      if (e.address !== this.market || !collection || tokenId === undefined) continue;
      if (e.name === "OfferMade" || e.name === "OfferCancelled" || e.name === "OfferAccepted") {
        offer(collection, tokenId, e.args.buyer);
        // The offer this one outbid becomes `outbid`.
        offer(collection, tokenId, e.args.previousBuyer);
      }
      // A new auction's row is keyed by its event: normally absent, present if these events were applied before.
      if (e.name === "AuctionCreated")
        created.push({ created_block: blockText(e.blockNumber), created_log_index: e.logIndex });
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
    await this.collectionOffers.load(
      client,
      [...collectionOffers].map((offer_id) => ({ offer_id })),
    );
    if (this.undo) {
      // The handlers write these rows whole without reading them: loaded only for their undo records.
      await this.settings.load(
        client,
        [...settings].map((name) => ({ name })),
      );
      await this.offers.load(client, [...offers.values()]);
      await this.auctions.load(client, created);
    }
    // Ids with no row yet (minted in this batch, or offered on before their mint): their current offer, which a
    // mint's new row shows and an outbid or a cancellation ends (see `unmintedOffers`).
    const rowless = tokens.filter((t) => !this.token(String(t.collection), String(t.token_id)));
    if (rowless.length > 0) {
      const { rows } = await client.query(
        `SELECT o.collection, o.token_id::text AS token_id, o.amount::text AS amount, o.expires_at
           FROM chain_offers o WHERE o.status = 'active' AND (o.collection, o.token_id) IN
         (SELECT collection, token_id FROM json_to_recordset($1::json) AS x(collection text, token_id numeric))`,
        [JSON.stringify(rowless)],
      );
      for (const row of rows) {
        this.unmintedOffers.set(tokenKey(String(row.collection), String(row.token_id)), {
          offer: String(row.amount),
          offer_expires_at: row.expires_at == null ? null : new Date(row.expires_at as Date).toISOString(),
        });
      }
    }
    if (tokens.length > 0) {
      const { rows } = await client.query(
        `SELECT a.* FROM chain_auctions a WHERE a.status = 'active' AND (a.collection, a.token_id) IN
         (SELECT collection, token_id FROM json_to_recordset($1::json) AS x(collection text, token_id numeric))`,
        [JSON.stringify(tokens)],
      );
      for (const row of rows) {
        this.auctions.adopt(row);
        this.activeAuction.set(
          tokenKey(String(row.collection), String(row.token_id)),
          this.auctions.keyOf(row),
        );
      }
    }
  }

  /** The stores of the mutable projections (the append-only ones are arrays of rows). */
  get stores(): Store[] {
    return [
      this.collections,
      this.tokens,
      this.sellOrders,
      this.auctions,
      this.offers,
      this.collectionOffers,
      this.accounts,
      this.blockedTokens,
      this.blockedCollections,
      this.settings,
    ];
  }

  /**
   * Writes every change of the batch, through `statements` (a chain other writes of the batch may share).
   * With `undoFrom` (the batch's first block), it also records the prior rows of everything it changes in
   * `chain_undo`, so a reorg can undo the batch.
   */
  async flush(
    client: pg.ClientBase,
    undoFrom?: bigint,
    statements = new Statements(client),
    {
      fresh = false,
      after,
    }: {
      fresh?: boolean;
      /** Writes of the batch sent before (`flushAppended`), done before the stats are computed. */
      after?: Promise<unknown>;
    } = {},
  ): Promise<void> {
    // Every statement is added at once to one ordered chain: each one's rows are serialised while
    // PostgreSQL executes the previous one. The stats need the rows written first.
    await Promise.all([
      after,
      ...(undoFrom !== undefined ? [this.recordUndo(statements, undoFrom, { fresh })] : []),
      ...this.stores.map((s) => s.flush(statements)),
      this.flushAppended(statements, { fresh }),
    ]);
    // The signed-listing book: the orders these events retire, then the token rows they show on, projected
    // again from the book (the handlers wrote those rows from what they loaded).
    const collections = new Set(this.touched.collections);
    const retired = this.book.length > 0 ? await retireSignedListings(statements, this.book) : null;
    if (retired) {
      const tokens = [
        ...retired,
        ...[...this.touched.tokens].map((key) => {
          const [collection, tokenId] = key.split(":") as [string, string];
          return { collection, tokenId };
        }),
      ];
      for (const c of await projectSignedListings(statements, tokens)) collections.add(c);
      for (const t of retired) collections.add(t.collection);
    }
    // A collection indexed again (a rebuild from the stored events, a resync) shows its unsold lazy items.
    if (this.createdCollections.size > 0) {
      const created = [...this.createdCollections];
      for (const c of await projectLazyItems(statements, { collections: created })) collections.add(c);
    }
    if (collections.size > 0) await refreshCollectionStats(statements, [...collections]);
  }

  /**
   * Writes the rows appended so far (transfers, bids, sales, credits, activity) and forgets them: the
   * indexer calls it at the first event of a transaction while the handlers go on, since no later
   * transaction changes an appended row (a sale drops its own transfer's activity within its transaction).
   * Appended rows are keyed by their event: from events new to `chain_events` (`fresh`), none can exist yet,
   * and COPY writes them; otherwise rows already there are kept.
   */
  async flushAppended(statements: Statements, { fresh = false }: { fresh?: boolean } = {}): Promise<void> {
    const append: [typeof TABLES.transfers, Row[]][] = [
      [TABLES.transfers, this.transfers.splice(0)],
      [TABLES.bids, this.bids.splice(0)],
      [TABLES.sales, this.sales.splice(0)],
      [TABLES.credits, this.credits.splice(0)],
      [TABLES.activity, this.activity.splice(0).filter((r) => !r.skip)],
    ];
    this.transferActivity.clear();
    this.transferNotes.clear();
    await Promise.all(
      append
        .filter(([, rows]) => rows.length > 0)
        .map(([t, rows]) =>
          fresh
            ? copyRows(statements, t.name, t.columns, rows)
            : upsertRows(statements, t.name, t.pk, t.columns, rows, { keep: true }),
        ),
    );
  }

  /** The notifications the handlers asked for so far (without those dropped), forgotten by the batch. */
  takeNotifications(): NotificationIntent[] {
    return this.notifications.splice(0).filter((n) => !n.skip);
  }

  /** Records a change of the signed-listing book for an event (see `retireSignedListings`). */
  bookChange(e: ChainEvent, change: DistributiveOmit<BookChange, "block" | "tx" | "time">): void {
    this.book.push({
      ...change,
      block: blockText(e.blockNumber),
      tx: e.txHash,
      time: timeText(e.blockTime),
    } as BookChange);
  }

  /**
   * `fresh`: the batch is applied whole (not in a replay's chunks) to a range new to `chain_events`, so no
   * undo record of it exists yet and COPY writes them.
   */
  async recordUndo(statements: Statements, from: bigint, { fresh = false }: { fresh?: boolean } = {}) {
    const rows = this.stores.flatMap((s) =>
      s.changes().map((c) => ({ batch_from: from.toString(), table: s.table, key: c.key, prior: c.prior })),
    );
    if (fresh) return copyRows(statements, "chain_undo", ["batch_from", "table", "key", "prior"], rows);
    const client: Runner = statements;
    const inserts: Promise<unknown>[] = [];
    for (let i = 0; i < rows.length; i += 5_000) {
      // A batch applied in chunks (a replay) records each row's state before its first chunk only.
      inserts.push(
        client.query(
          `INSERT INTO chain_undo SELECT * FROM json_populate_recordset(NULL::chain_undo, $1::json)
           ON CONFLICT DO NOTHING`,
          [JSON.stringify(rows.slice(i, i + 5_000))],
        ),
      );
      await yieldToEventLoop();
    }
    await Promise.all(inserts);
  }

  // ------------------------------------------------------------------ helpers for handlers

  token(collection: string, tokenId: string): Row | undefined {
    return this.tokens.get(tokenKey(collection, tokenId));
  }

  /**
   * Copies a change of the token's active listing, auction or offer onto the token row
   * (`chain_tokens.listing_expires_at`, `auction_kind`, `auction_end`, `offer`, `offer_expires_at`), which explore
   * filters on:
   * every handler that changes one of those rows calls this with the same change.
   */
  copyToToken(collection: string, tokenId: string, change: Row): void {
    const token = this.token(collection, tokenId);
    if (!token) return;
    Object.assign(token, change);
    this.tokens.touch(token);
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
      block_number: blockText(e.blockNumber),
      log_index: e.logIndex,
      seq,
      kind,
      collection,
      token_id: tokenId,
      from: (from as string | null) ?? null,
      to: (to as string | null) ?? null,
      price: price == null ? null : String(price),
      tx_hash: e.txHash,
      block_time: timeText(e.blockTime),
    });
  }

  /**
   * Notifies `address` of an event about a token, named in `message` by its artwork's name, and by the name of
   * `person` when the text names one.
   */
  notify(
    e: ChainEvent,
    address: unknown,
    kind: string,
    flag: string,
    message: (item: string, person: string) => string,
    extra: { collection: string; tokenId: string } & Row,
    person?: unknown,
  ): void {
    if (typeof address !== "string" || address === ZERO || address === this.market) return;
    this.notifications.push({
      key: `chain:${e.blockNumber}:${e.logIndex}:${kind}:${address}`,
      address,
      kind,
      flag,
      message,
      ...(typeof person === "string" ? { person } : {}),
      item: this.namedItem(extra.collection, extra.tokenId),
      data: { block: blockText(e.blockNumber), tx: e.txHash, ...extra },
      time: e.blockTime,
    });
  }

  /**
   * Alerts everyone watching the token (who favourited it) of an event about it: a listing, a bid, a new
   * price. `except`: whoever acted, who need no alert of their own deed.
   */
  notifyWatchers(
    e: ChainEvent,
    kind: string,
    message: (item: string, person: string) => string,
    extra: { collection: string; tokenId: string } & Row,
    except: unknown[],
    person?: unknown,
  ): void {
    this.notifications.push({
      key: `chain:${e.blockNumber}:${e.logIndex}:${kind}:watchers`,
      address: "",
      kind,
      flag: "favorite",
      message,
      ...(typeof person === "string" ? { person } : {}),
      item: this.namedItem(extra.collection, extra.tokenId),
      data: { block: blockText(e.blockNumber), tx: e.txHash, ...extra },
      time: e.blockTime,
      watchersOf: { except: except.filter((a): a is string => typeof a === "string") },
    });
  }

  /** How a notification names a token: by its metadata's CID, as the batch holds the token row. */
  namedItem(collection: string, tokenId: string): NamedItem {
    const cid = this.token(collection, tokenId)?.cid;
    const name = this.collections.get(collection)?.name;
    return {
      cid: typeof cid === "string" ? cid : null,
      fallback: tokenName(typeof name === "string" ? name : null, tokenId),
    };
  }

  /** Ends the fixed-price listing of a token if it is active; returns the listing it ended. */
  endListing(e: ChainEvent, collection: string, tokenId: string, status: string): Row | undefined {
    const order = this.sellOrders.get(tokenKey(collection, tokenId));
    if (order?.status !== "active") return undefined;
    order.status = status;
    order.updated_block = blockText(e.blockNumber);
    this.sellOrders.touch(order);
    this.copyToToken(collection, tokenId, { listing_expires_at: null });
    return order;
  }
}

/** The market's events about a collection offer, each naming it by `offerId`. */
const COLLECTION_OFFER_EVENTS: ReadonlySet<string> = new Set([
  "CollectionOfferMade",
  "CollectionOfferAccepted",
  "CollectionOfferCancelled",
]);

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

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
