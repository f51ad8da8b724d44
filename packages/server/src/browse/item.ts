/**
 * The item page's data: a token the chain minted (with what the artist uploaded, its sale state, offers,
 * activity and price history), or a lazy item Easel lists until a buyer mints it. Anything else (never
 * minted, burned, blocked for this viewer, or a creator that does not match) is not found.
 */
import { type ActivityRow, type ItemResponse, LISTING_DAYS, minNextBid } from "@easel/common";
import { sql } from "drizzle-orm";
import { OWNS_NAME, slugOf, tokenName } from "../chain/rows.ts";
import { personAt, personColumns, personJoin, personOf } from "../community/people.ts";
import type { Database } from "../db/client.ts";
import { isoOf } from "../db/timestamps.ts";
import { peopleByAddress, toPerson, type Viewer } from "./cards.ts";

const ADDRESS = /^0x[0-9a-f]{40}$/;
const ACTIVITY_LIMIT = 50;
/** Lazy items, like listings, are unlisted 100 days after they were listed or last repriced. */
export const LAZY_LISTING_DAYS = LISTING_DAYS;

type ItemKey = { creator: string; collection?: string | undefined; tokenId: string };

/** The collection an item URL names: by address, by the name it owns, or the default collection. */
async function findCollection(db: Database, slug: string | undefined, defaultCollection: string) {
  const key = (slug ?? defaultCollection).toLowerCase();
  const where = ADDRESS.test(key) ? sql`c.address = ${key}` : sql`lower(c.name) = ${key}`;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT c.address, c.name, c.kind, c.owner, c.blocked, d.logo, cat.title AS category,
      ${OWNS_NAME}
    FROM chain_collections c
    LEFT JOIN collection_details d ON d.address = c.address
    LEFT JOIN categories cat ON cat.id = d.category_id
    WHERE ${where}
    ORDER BY c.created_block, c.address LIMIT 1`);
  const row = rows[0];
  // Without a collection segment only the default collection's items match.
  if (!row || (slug === undefined) !== (row.kind === "default")) return null;
  return row;
}

/** Whether the URL's creator segment (an address or a username) is this address's. */
async function creatorMatches(db: Database, segment: string, address: string): Promise<boolean> {
  const key = segment.toLowerCase();
  if (ADDRESS.test(key)) return key === address;
  const { rows } = await db.execute(
    sql`SELECT 1 FROM profiles WHERE address = ${address} AND lower(username) = ${key}`,
  );
  return rows.length > 0;
}

export async function itemDetail(
  db: Database,
  viewer: Viewer,
  key: ItemKey,
  defaultCollection: string,
): Promise<ItemResponse["data"] | null> {
  const collection = await findCollection(db, key.collection, defaultCollection);
  if (!collection || (collection.blocked && !viewer.moderator)) return null;
  const address = String(collection.address);
  const nftCollection = {
    name: String(collection.name),
    contract_address: address,
    kind: String(collection.kind),
    slug: slugOf(collection),
    logo: (collection.logo as string | null) ?? null,
  };
  const category = collection.kind === "default" ? "" : String(collection.category ?? "");
  const { rows: tokens } = await db.execute<Record<string, unknown>>(sql`
    SELECT t.*, m.name AS meta_name, m.description, m.description_ui, m.tags, m.media_cid, m.royalty AS meta_royalty
    FROM chain_tokens t LEFT JOIN item_metadata m ON m.cid = t.cid
    WHERE t.collection = ${address} AND t.token_id = ${key.tokenId}::numeric`);
  // An unsold lazy item's token row (status 'lazy') is browse's projection of it: its page is the lazy item's.
  const token = tokens[0]?.status === "lazy" ? undefined : tokens[0];
  if (token) {
    if (token.status === "burned" || (token.blocked && !viewer.moderator)) return null;
    const creator = String(token.creator ?? collection.owner);
    if (!(await creatorMatches(db, key.creator, creator))) return null;
    return mintedItem(db, viewer, token, creator, category, nftCollection);
  }
  const { rows: lazy } = await db.execute<Record<string, unknown>>(sql`
    SELECT l.*, l.updated_at > now() - make_interval(days => ${LAZY_LISTING_DAYS}) AS listed,
      m.cid, m.name AS meta_name, m.description, m.description_ui, m.tags, m.media_cid,
      m.royalty AS meta_royalty, m.collaborators
    FROM lazy_items l JOIN item_metadata m ON m.cid = l.metadata_cid
    WHERE l.collection = ${address} AND l.token_id = ${key.tokenId}::numeric`);
  const item = lazy[0];
  if (!item || !(await creatorMatches(db, key.creator, String(item.creator)))) return null;
  return lazyItem(db, viewer, item, category, nftCollection);
}

type NftCollection = ItemResponse["data"]["nftCollection"];

async function mediaOf(db: Database, cid: unknown) {
  if (cid == null) return null;
  const { rows } = await db.execute<Record<string, unknown>>(
    sql`SELECT m.cid, m.mime, m.thumbnail_cid, m.preview_cid, m.width, m.height,
               m.phone_preview_cid, phone.width AS phone_width, preview.width AS preview_width
        FROM media m
        LEFT JOIN media phone ON phone.cid = m.phone_preview_cid
        LEFT JOIN media preview ON preview.cid = m.preview_cid
        WHERE m.cid = ${String(cid)}`,
  );
  const row = rows[0];
  if (!row) return null;
  // Two sizes with their widths, or none: media minted before the phone's copy show the preview alone, as
  // does a picture no larger than that copy (the two are one file).
  const stills =
    row.phone_width != null && row.preview_width != null && row.phone_preview_cid !== row.preview_cid
      ? [
          { cid: String(row.phone_preview_cid), width: Number(row.phone_width) },
          { cid: String(row.preview_cid), width: Number(row.preview_width) },
        ]
      : [];
  return {
    cid: String(row.cid),
    mime: String(row.mime),
    thumbnail: row.thumbnail_cid ? String(row.thumbnail_cid) : null,
    preview: row.preview_cid ? String(row.preview_cid) : null,
    stills,
    width: row.width == null ? null : Number(row.width),
    height: row.height == null ? null : Number(row.height),
  };
}

async function statsOf(db: Database, viewer: Viewer, collection: string, tokenId: string) {
  const { rows } = await db.execute<{ views: number; favorites: number; mine: boolean }>(sql`
    SELECT coalesce(s.views, 0)::int AS views, coalesce(s.favorites, 0)::int AS favorites,
      EXISTS (SELECT 1 FROM item_favorites f WHERE f.collection = ${collection}
        AND f.token_id = ${tokenId}::numeric AND f.address = ${viewer.address ?? ""}) AS mine
    FROM (SELECT 1) one
    LEFT JOIN item_stats s ON s.collection = ${collection} AND s.token_id = ${tokenId}::numeric`);
  const row = rows[0];
  return {
    views: Number(row?.views ?? 0),
    favorites: Number(row?.favorites ?? 0),
    isFavorite: row?.mine === true,
  };
}

async function people(
  db: Database,
  creator: string,
  owner: string | null,
  split: { account: string; share: number }[],
) {
  const addresses = [...new Set([creator, ...(owner ? [owner] : []), ...split.map((c) => c.account)])];
  const found = await peopleByAddress(db, addresses);
  const person = (a: string) => found.get(a) ?? toPerson(a, null, null, null);
  return {
    creator: person(creator),
    owner: owner ? person(owner) : null,
    collaborators: split.map((c) => ({ ...person(c.account), share: c.share })),
  };
}

async function mintedItem(
  db: Database,
  viewer: Viewer,
  token: Record<string, unknown>,
  creator: string,
  category: string,
  nftCollection: NftCollection,
): Promise<ItemResponse["data"]> {
  const collection = String(token.collection);
  const tokenId = String(token.token_id);
  const split = ((token.collaborators as { account: string; share: number }[] | null) ?? []).map((c) => ({
    account: c.account.toLowerCase(),
    share: Number(c.share),
  }));
  const [media, stats, who, listing, signed, auction, offers, activity, sales, owner] = await Promise.all([
    mediaOf(db, token.media_cid),
    statsOf(db, viewer, collection, tokenId),
    people(db, creator, String(token.owner), split.length ? split : [{ account: creator, share: 100 }]),
    db.execute<Record<string, unknown>>(sql`
      SELECT price, seller, expires_at FROM chain_sell_orders
      WHERE collection = ${collection} AND token_id = ${tokenId}::numeric AND status = 'active' AND expires_at > now()`),
    // The signed-listing book's best order, shown when the token has no on-chain listing (as on its row).
    db.execute<Record<string, unknown>>(sql`
      SELECT id, price, seller, expires_at FROM signed_listings
      WHERE collection = ${collection} AND token_id = ${tokenId}::numeric AND status = 'active' AND expires_at > now()
        AND seller = ${String(token.owner)}
      ORDER BY price, created_at, id LIMIT 1`),
    db.execute<Record<string, unknown>>(sql`
      SELECT a.kind, a.seller, a.base_price, a.top_bid, a.top_bidder, a.start_time, a.end_time,
        ${personColumns("pb", "bidder")}
      FROM chain_auctions a ${personJoin("pb", sql`a.top_bidder`)}
      WHERE a.collection = ${collection} AND a.token_id = ${tokenId}::numeric AND a.status = 'active'`),
    // Offers, activity and the auction come with the names of the people they name (`community/people.ts`).
    // An active offer past its expiry can no longer be accepted: it reads "expired", after the live one.
    db.execute<Record<string, unknown>>(sql`
      SELECT o.buyer, o.amount, o.updated_at, o.expires_at,
        CASE WHEN o.status = 'active' AND o.expires_at <= now() THEN 'expired' ELSE o.status END AS status,
        ${personColumns("pb", "buyer")}
      FROM chain_offers o ${personJoin("pb", sql`o.buyer`)}
      WHERE o.collection = ${collection} AND o.token_id = ${tokenId}::numeric
      ORDER BY (o.status = 'active' AND (o.expires_at IS NULL OR o.expires_at > now())) DESC,
        (o.status = 'active') DESC, o.amount DESC LIMIT 20`),
    db.execute<Record<string, unknown>>(sql`
      SELECT a.kind, a.token_id, a."from", a."to", a.price, a.tx_hash, a.block_time,
        ${personColumns("pf", "from")}, ${personColumns("pt", "to")}
      FROM chain_activity a ${personJoin("pf", sql`a."from"`)} ${personJoin("pt", sql`a."to"`)}
      WHERE a.collection = ${collection} AND a.token_id = ${tokenId}::numeric
      ORDER BY a.block_number DESC, a.log_index DESC, a.seq DESC LIMIT ${ACTIVITY_LIMIT}`),
    db.execute<Record<string, unknown>>(sql`
      SELECT price, mechanism, block_time FROM chain_sales
      WHERE collection = ${collection} AND token_id = ${tokenId}::numeric ORDER BY block_number, log_index`),
    // A banned seller's listing or auction stays on chain, but the market refuses its sale (as browse hides it).
    db.execute<Record<string, unknown>>(sql`
      SELECT banned FROM chain_accounts WHERE address = ${String(token.owner)}`),
  ]);
  const name = (token.meta_name as string | null) ?? tokenName(nftCollection.name, tokenId);
  const open = auction.rows[0];
  const chainOrder = listing.rows[0];
  const signedOrder = chainOrder || open ? undefined : signed.rows[0];
  const sellOrder = chainOrder ?? signedOrder;
  const topBid = open?.top_bid == null ? null : BigInt(String(open.top_bid));
  const status = sellOrder
    ? "fix"
    : open
      ? "auction"
      : String(token.status) === "fix"
        ? "minted"
        : String(token.status);
  const priceWei = sellOrder ? String(sellOrder.price) : open ? String(topBid ?? open.base_price) : null;
  return {
    nft: {
      _id: `${collection}:${tokenId}`,
      tokenId,
      name,
      status: status === "lazy-sold" ? "minted" : status,
      lazy: token.lazy === true,
      category,
      ...who,
      royalty: Number(token.royalty_bps ?? 0) / 100,
      description: (token.description as string | null) ?? null,
      description_ui: (token.description_ui as ItemResponse["data"]["nft"]["description_ui"]) ?? null,
      tags: (token.tags as string[] | null) ?? [],
      uri_cid: (token.cid as string | null) ?? null,
      media,
      priceWei,
      lastPriceWei: token.last_price == null ? null : String(token.last_price),
      listing: sellOrder
        ? {
            kind: signedOrder ? ("signed" as const) : ("chain" as const),
            signedId: signedOrder ? String(signedOrder.id) : null,
            priceWei: String(sellOrder.price),
            seller: String(sellOrder.seller),
            expiresAt: isoOf(sellOrder.expires_at) ?? "",
          }
        : null,
      auction: open
        ? {
            kind: String(open.kind),
            seller: String(open.seller),
            basePriceWei: String(open.base_price),
            topBidWei: topBid === null ? null : topBid.toString(),
            topBidder: (open.top_bidder as string | null) ?? null,
            topBidderPerson: personOf(open, "bidder", open.top_bidder),
            startTime: isoOf(open.start_time),
            endTime: isoOf(open.end_time),
            minBidWei: minNextBid(BigInt(String(open.base_price)), topBid).toString(),
          }
        : null,
      offers: offers.rows.map((row) => ({
        address: String(row.buyer),
        person: personAt(row, "buyer", String(row.buyer)),
        priceWei: String(row.amount),
        status: String(row.status),
        time: isoOf(row.updated_at) ?? "",
        expiresAt: isoOf(row.expires_at),
      })),
      ...stats,
      blocked: token.blocked === true,
      sellerBanned: !!(sellOrder || open) && owner.rows[0]?.banned === true,
      mintedAt: isoOf(token.minted_at),
    },
    nftCollection,
    permisionNft: { auction: true, reserve: true },
    activity: activity.rows.map(
      (row): ActivityRow => ({
        kind: String(row.kind),
        tokenId,
        itemName: name,
        from: (row.from as string | null) ?? null,
        to: (row.to as string | null) ?? null,
        fromPerson: personOf(row, "from", row.from),
        toPerson: personOf(row, "to", row.to),
        priceWei: row.price == null ? null : String(row.price),
        txHash: String(row.tx_hash),
        time: isoOf(row.block_time) ?? "",
      }),
    ),
    priceHistory: sales.rows.map((row) => ({
      time: isoOf(row.block_time) ?? "",
      priceWei: String(row.price),
      kind: String(row.mechanism),
    })),
  };
}

async function lazyItem(
  db: Database,
  viewer: Viewer,
  item: Record<string, unknown>,
  category: string,
  nftCollection: NftCollection,
): Promise<ItemResponse["data"]> {
  const collection = String(item.collection);
  const tokenId = String(item.token_id);
  const creator = String(item.creator);
  const split = ((item.collaborators as { address: string; share: number }[] | null) ?? []).map((c) => ({
    account: c.address,
    share: c.share,
  }));
  const [media, stats, who] = await Promise.all([
    mediaOf(db, item.media_cid),
    statsOf(db, viewer, collection, tokenId),
    people(db, creator, null, split.length ? split : [{ account: creator, share: 100 }]),
  ]);
  return {
    nft: {
      _id: tokenId,
      tokenId,
      name: String(item.meta_name),
      status: "lazy",
      lazy: true,
      category,
      ...who,
      royalty: Number(item.meta_royalty ?? 0),
      description: (item.description as string | null) ?? null,
      description_ui: (item.description_ui as ItemResponse["data"]["nft"]["description_ui"]) ?? null,
      tags: (item.tags as string[] | null) ?? [],
      uri_cid: String(item.cid),
      media,
      priceWei: item.listed ? String(item.price) : null,
      lastPriceWei: null,
      listing: null,
      auction: null,
      offers: [],
      ...stats,
      blocked: false,
      mintedAt: null,
    },
    nftCollection,
    permisionNft: { auction: true, reserve: true },
    activity: [],
    priceHistory: [],
  };
}

/** The item page path of an upload (`external_url` in its metadata), once it is minted or listed lazily. */
export async function uploadPath(db: Database, uploadId: string): Promise<string | null> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT coalesce(t.creator, c.owner) AS creator, c.kind, c.name, coalesce(t.token_id, l.token_id)::text AS token_id,
      ${OWNS_NAME}, c.address
    FROM item_metadata m
    JOIN chain_collections c ON c.address = m.collection
    LEFT JOIN chain_tokens t ON t.collection = m.collection AND t.cid = m.cid AND t.status <> 'burned'
    LEFT JOIN lazy_items l ON l.metadata_cid = m.cid
    WHERE m.id = ${uploadId}::uuid AND (t.token_id IS NOT NULL OR l.token_id IS NOT NULL)
    LIMIT 1`);
  const row = rows[0];
  if (!row) return null;
  const creator = String(row.creator);
  if (row.kind === "default") return `/${creator}/${row.token_id}`;
  return `/${creator}/${encodeURIComponent(slugOf(row))}/${row.token_id}`;
}
