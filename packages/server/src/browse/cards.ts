/**
 * Collection cards and NFT cards as every browse list shows them: the chain's facts (`chain_*`, written by
 * the indexer) joined with what Easel keeps beside them (collection details, profiles, views, favourites).
 * One query builds each kind of card, so explore, the collection page, search and home agree.
 */
import {
  type Category,
  type CollectionCard,
  EXPLORE_COLLECTIONS_PAGE_SIZE,
  EXPLORE_ITEMS_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type NftCard,
  type Person,
  type RichText,
} from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import { formatEther } from "viem";
import { LIVE_OFFER, listingLapsed, OWNS_NAME, slugOf, tokenName } from "../chain/rows.ts";
import type { Database } from "../db/client.ts";
import { dateOf, isoOf } from "../db/timestamps.ts";

type Sql = SQL;

/** The row counts a repeated list statement is written with: a default page and one more, and the largest. */
const ROW_COUNTS = [EXPLORE_COLLECTIONS_PAGE_SIZE + 1, EXPLORE_ITEMS_PAGE_SIZE + 1, MAX_PAGE_SIZE + 1];

/**
 * At least `rows`, as one of a few counts, for a LIMIT written into a repeated statement's text (a literal,
 * so the generic plan knows it): every page size a client may pick made a statement of its own on each read
 * connection (sorts × filters × 50 sizes, hundreds of MB of plans). The caller slices what it needs.
 */
export function rowCount(rows: number): number {
  return ROW_COUNTS.find((count) => count >= rows) ?? rows;
}

/** Who may see blocked collections and tokens (marked): moderators. Everyone else never sees them. */
export type Viewer = { address: string | null; moderator: boolean };

export const toPerson = (address: string, username: unknown, name: unknown, avatar: unknown): Person => ({
  address,
  username: (username as string | null) ?? null,
  name: (name as string | null) ?? null,
  avatar: (avatar as string | null) ?? null,
});

// ---------------------------------------------------------------- collections

/** The select list of a collection card over `chain_collections c`. */
export const COLLECTION_CARD_COLUMNS = sql`
  c.address, c.kind, c.owner, c.name, c.symbol, c.created_at, c.blocked,
  c.floor_price, c.highest_sale, c.volume, c.sales_count, c.owners_count, c.tokens_count,
  d.description, d.logo, d.banner, d.social, d.category_id, cat.title AS category_title,
  op.username AS owner_username, op.name AS owner_name, op.avatar AS owner_avatar,
  (SELECT count(*)::int FROM collection_favorites f WHERE f.collection = c.address) AS favorites,
  ${OWNS_NAME}`;

export const COLLECTION_CARD_JOINS = sql`
  LEFT JOIN collection_details d ON d.address = c.address
  LEFT JOIN categories cat ON cat.id = d.category_id
  LEFT JOIN profiles op ON op.address = c.owner`;

export type CollectionRow = Record<string, unknown>;

export function toCollectionCard(row: CollectionRow): CollectionCard {
  const address = String(row.address);
  return {
    _id: address,
    contract_address: address,
    name: String(row.name),
    slug: slugOf(row),
    symbol: String(row.symbol),
    collectionType: String(row.kind),
    logo: (row.logo as string | null) ?? null,
    banner: (row.banner as string | null) ?? null,
    description: (row.description as RichText | null) ?? null,
    category:
      row.category_id == null ? null : { _id: Number(row.category_id), title: String(row.category_title) },
    owner: toPerson(String(row.owner), row.owner_username, row.owner_name, row.owner_avatar),
    time_created: isoOf(row.created_at) ?? "",
    blocked: row.blocked === true,
    favorites: Number(row.favorites ?? 0),
    stats: {
      artworks: Number(row.tokens_count ?? 0),
      owners: Number(row.owners_count ?? 0),
      floorPriceWei: row.floor_price == null ? null : String(row.floor_price),
      highestSaleWei: row.highest_sale == null ? null : String(row.highest_sale),
      totalSales: Number(row.sales_count ?? 0),
      volumeWei: String(row.volume ?? "0"),
    },
  };
}

/** Hides blocked collections from everyone but moderators. */
export const visibleCollection = (viewer: Viewer): Sql => (viewer.moderator ? sql`true` : sql`NOT c.blocked`);

// ---------------------------------------------------------------- NFT cards

/**
 * The select list of an NFT card over `chain_tokens t JOIN chain_collections c`. The token row carries its
 * active listing's end, its auction's kind and end and its offer (the indexer copies them there), so a card
 * joins only what Easel keeps beside the chain: people, counts, metadata. An expired offer shows as none.
 */
export const NFT_CARD_COLUMNS = sql`
  t.collection, t.token_id, t.creator, t.owner, t.cid, t.royalty_bps, t.collaborators, t.status, t.lazy,
  t.price, t.last_price, t.blocked OR c.blocked AS blocked, t.listed_at, t.sold_at, t.minted_block,
  c.name AS collection_name, c.kind AS collection_kind,
  cp.username AS creator_username, cp.name AS creator_name, cp.avatar AS creator_avatar,
  t.listing_expires_at, t.auction_kind, t.auction_end,
  CASE WHEN ${LIVE_OFFER} THEN t.offer END AS offer_wei,
  coalesce(st.views, 0) AS views, coalesce(st.favorites, 0) AS favorites,
  im.name AS item_name, am.thumbnail_cid, icat.title AS category_title,
  CASE WHEN am.mime LIKE 'video/%' THEN am.cid END AS video_cid`;

export const NFT_CARD_JOINS = sql`
  LEFT JOIN profiles cp ON cp.address = t.creator
  LEFT JOIN item_stats st ON st.collection = t.collection AND st.token_id = t.token_id
  LEFT JOIN item_metadata im ON im.cid = t.cid
  LEFT JOIN media am ON am.cid = im.media_cid
  LEFT JOIN categories icat ON icat.id = t.category_id`;

/** Hides burned tokens, and blocked ones (or in blocked collections) from everyone but moderators. */
export const visibleToken = (viewer: Viewer): Sql =>
  viewer.moderator
    ? sql`t.status <> 'burned'`
    : sql`t.status <> 'burned' AND NOT t.blocked AND NOT c.blocked`;

/**
 * NFT cards from rows of `NFT_CARD_COLUMNS`. A listing lapses after its term without any event, so a
 * lapsed one shows as not for sale here, at read time.
 */
export async function toNftCards(
  db: Database,
  rows: Record<string, unknown>[],
  viewer: Viewer,
): Promise<NftCard[]> {
  const favorites = await favoritesOf(db, viewer, rows);
  const collaboratorAddresses = new Set<string>();
  for (const row of rows) {
    for (const c of (row.collaborators as { account: string }[] | null) ?? []) {
      collaboratorAddresses.add(c.account.toLowerCase());
    }
  }
  const people = await peopleByAddress(db, [...collaboratorAddresses]);
  return rows.map((row) => {
    const expiresAt = row.listing_expires_at == null ? null : dateOf(row.listing_expires_at);
    // An unsold lazy item past its listing's term stays 'lazy' (minted at purchase), with no price.
    const lazyLapsed = row.status === "lazy" && !!expiresAt && expiresAt.getTime() <= Date.now();
    const lapsed = listingLapsed(String(row.status), expiresAt) || lazyLapsed;
    const status = lapsed && !lazyLapsed ? "minted" : String(row.status);
    const price = lapsed || row.price == null ? null : String(row.price);
    const collection = String(row.collection);
    const tokenId = String(row.token_id);
    const creator = (row.creator as string | null) ?? null;
    const collaborators = ((row.collaborators as { account: string; share: number }[] | null) ?? []).map(
      (c) => ({ account: c.account.toLowerCase(), share: Number(c.share) }),
    );
    return {
      _id: `${collection}:${tokenId}`,
      collection: {
        address: collection,
        name: String(row.collection_name),
        kind: String(row.collection_kind),
      },
      tokenId,
      name: (row.item_name as string | null) ?? tokenName(String(row.collection_name), tokenId),
      creator,
      owner: String(row.owner),
      status,
      image_cid: (row.thumbnail_cid as string | null) ?? null,
      videoCid: (row.video_cid as string | null) ?? null,
      category: (row.category_title as string | null) ?? null,
      royaltyBps: row.royalty_bps == null ? null : Number(row.royalty_bps),
      collaborators,
      price: price === null ? null : formatEther(BigInt(price)),
      priceWei: price,
      lastPriceWei: row.last_price == null ? null : String(row.last_price),
      creatorData: creator
        ? toPerson(creator, row.creator_username, row.creator_name, row.creator_avatar)
        : null,
      collaboratorsData: collaborators.map((c) => ({
        ...(people.get(c.account) ?? toPerson(c.account, null, null, null)),
        share: c.share,
      })),
      auctionKind: status === "auction" ? ((row.auction_kind as string | null) ?? null) : null,
      endTime: status === "auction" ? isoOf(row.auction_end) : null,
      offerWei: row.offer_wei == null ? null : String(row.offer_wei),
      favorites: Number(row.favorites ?? 0),
      views: Number(row.views ?? 0),
      isFavorite: favorites.has(`${collection}:${tokenId}`),
      blocked: row.blocked === true,
    };
  });
}

/** Which of these tokens the viewer favourited, as `collection:tokenId` keys (one query per page). */
async function favoritesOf(
  db: Database,
  viewer: Viewer,
  rows: Record<string, unknown>[],
): Promise<Set<string>> {
  if (!viewer.address || rows.length === 0) return new Set();
  const { rows: found } = await db.$repeated.execute<{ collection: string; token_id: string }>(sql`
    SELECT f.collection, f.token_id FROM item_favorites f
    JOIN unnest(${sql.param(rows.map((r) => String(r.collection)))}::text[],
                ${sql.param(rows.map((r) => String(r.token_id)))}::numeric[]) AS p(collection, token_id)
      ON p.collection = f.collection AND p.token_id = f.token_id
    WHERE f.address = ${viewer.address}`);
  return new Set(found.map((r) => `${r.collection}:${r.token_id}`));
}

/** Usernames, names and avatars of the given addresses (lowercase) that have a profile. */
export async function peopleByAddress(db: Database, addresses: string[]): Promise<Map<string, Person>> {
  if (addresses.length === 0) return new Map();
  const { rows } = await db.$client.query(
    "SELECT address, username, name, avatar FROM profiles WHERE address = ANY($1::text[])",
    [addresses],
  );
  return new Map(
    rows.map((r: Record<string, unknown>) => [
      String(r.address),
      toPerson(String(r.address), r.username, r.name, r.avatar),
    ]),
  );
}

/** An artwork type as the API answers it. */
export const toCategory = (row: { id: number; title: string; retired: boolean }): Category => ({
  _id: row.id,
  title: row.title,
  retired: row.retired,
});
