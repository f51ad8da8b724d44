/**
 * Trading data of one account, read from the chain tables: the profile's four tabs (created, collections,
 * collected, split) and the rows of its trading history. Used by the profile routes.
 */
import type { ChainCollectionItem, ChainTokenItem, TradeRow } from "@easel/common";
import { and, desc, eq, ne, or, sql } from "drizzle-orm";
import { formatEther } from "viem";
import { listingLapsed, OWNS_NAME, slugOf, tokenName } from "../chain/rows.ts";
import { type chainAuctions, chainCollections, chainSellOrders, chainTokens } from "../db/chain-schema.ts";
import type { Database } from "../db/client.ts";
import { itemMetadata, media } from "../db/schema.ts";

/** Lists are capped; the profile shows the newest. */
export const LIST_LIMIT = 100;

type TokenRow = typeof chainTokens.$inferSelect;
type CollectionRow = Pick<typeof chainCollections.$inferSelect, "address" | "name" | "kind">;

function unlistIfLapsed(token: TokenRow, listingExpiresAt: Date | null): TokenRow {
  // An unsold lazy item (browse's projection, see browse/lazyCards.ts) past its listing's term has no price.
  if (token.status === "lazy")
    return token.listingExpiresAt && token.listingExpiresAt.getTime() <= Date.now()
      ? { ...token, price: null }
      : token;
  return listingLapsed(token.status, listingExpiresAt) ? { ...token, status: "minted", price: null } : token;
}

function toTokenItem(
  row: TokenRow,
  collection: CollectionRow | null,
  listingExpiresAt: Date | null,
  art: { name: string | null; thumbnail: string | null } = { name: null, thumbnail: null },
): ChainTokenItem {
  const token = unlistIfLapsed(row, listingExpiresAt);
  return {
    _id: `${token.collection}:${token.tokenId}`,
    collection: { address: token.collection, name: collection?.name ?? null, kind: collection?.kind ?? null },
    tokenId: token.tokenId,
    name: art.name ?? tokenName(collection?.name, token.tokenId),
    creator: token.creator,
    owner: token.owner,
    status: token.status,
    image_cid: art.thumbnail,
    royaltyBps: token.royaltyBps,
    collaborators: token.collaborators ?? [],
    price: token.price === null ? null : formatEther(BigInt(token.price)),
    priceWei: token.price,
    lastPriceWei: token.lastPrice,
  };
}

async function tokensWhere(db: Database, where: ReturnType<typeof and>): Promise<ChainTokenItem[]> {
  const rows = await db
    .select({
      token: chainTokens,
      collection: {
        address: chainCollections.address,
        name: chainCollections.name,
        kind: chainCollections.kind,
      },
      listingExpiresAt: chainSellOrders.expiresAt,
      art: { name: itemMetadata.name, thumbnail: media.thumbnailCid },
    })
    .from(chainTokens)
    .leftJoin(chainCollections, eq(chainCollections.address, chainTokens.collection))
    .leftJoin(itemMetadata, eq(itemMetadata.cid, chainTokens.cid))
    .leftJoin(media, eq(media.cid, itemMetadata.mediaCid))
    .leftJoin(
      chainSellOrders,
      and(
        eq(chainSellOrders.collection, chainTokens.collection),
        eq(chainSellOrders.tokenId, chainTokens.tokenId),
        eq(chainSellOrders.status, "active"),
      ),
    )
    .where(where)
    .orderBy(desc(chainTokens.mintedBlock))
    .limit(LIST_LIMIT);
  return rows.map((row) => toTokenItem(row.token, row.collection, row.listingExpiresAt, row.art));
}

/**
 * The profile's four tabs from the chain tables: tokens it created, collections it owns, tokens it
 * collected (owns but did not create), and tokens whose proceeds it shares as a collaborator.
 */
export async function profileChainLists(db: Database, address: string) {
  const live = ne(chainTokens.status, "burned");
  const [created, collectionRows, collected, split] = await Promise.all([
    tokensWhere(db, and(live, eq(chainTokens.creator, address))),
    db
      .select({
        collection: chainCollections,
        // The stored floor counts listings until an event touches the collection; lapsed ones are left out here.
        floor: sql<
          string | null
        >`(SELECT min(s.price)::text FROM chain_sell_orders s WHERE s.collection = ${chainCollections.address} AND s.status = 'active' AND s.expires_at > now())`,
      })
      .from(chainCollections)
      .where(eq(chainCollections.owner, address))
      .orderBy(desc(chainCollections.createdBlock))
      .limit(LIST_LIMIT),
    tokensWhere(
      db,
      and(
        live,
        eq(chainTokens.owner, address),
        or(sql`${chainTokens.creator} IS NULL`, ne(chainTokens.creator, address)),
      ),
    ),
    tokensWhere(
      db,
      and(
        live,
        ne(chainTokens.creator, address),
        sql`${chainTokens.collaborators} @> ${JSON.stringify([{ account: address }])}::jsonb`,
      ),
    ),
  ]);
  const collection: ChainCollectionItem[] = collectionRows.map(({ collection: c, floor }) => ({
    _id: c.address,
    contract_address: c.address,
    name: c.name,
    symbol: c.symbol,
    kind: c.kind,
    owner: c.owner,
    tokensCount: c.tokensCount,
    ownersCount: c.ownersCount,
    floorPriceWei: floor,
    volumeWei: c.volume,
  }));
  return { created, collection, collected, split };
}

export type RowInput = {
  collection: string;
  tokenId: string;
  amount: string;
  status: string;
  counterparty: string | null;
  kind?: string | null;
  endTime?: Date | null;
  updatedAt?: Date | null;
  id: string;
};

/**
 * Rows of a trading list with what people recognise them by: the item's name (the artist's, or the
 * collection's name and number) and its page (`/{creator}/{collection}/{id}`, or without the collection in
 * the default collection).
 */
export async function tradeRows(db: Database, inputs: RowInput[]): Promise<TradeRow[]> {
  if (inputs.length === 0) return [];
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT p.collection, p.token_id::text AS token_id, c.name, c.kind, c.owner, ${OWNS_NAME},
      t.creator, im.name AS item_name
    FROM unnest(${sql.param(inputs.map((i) => i.collection))}::text[],
                ${sql.param(inputs.map((i) => i.tokenId))}::numeric[]) AS p(collection, token_id)
    JOIN chain_collections c ON c.address = p.collection
    LEFT JOIN chain_tokens t ON t.collection = p.collection AND t.token_id = p.token_id
    LEFT JOIN item_metadata im ON im.cid = t.cid`);
  const known = new Map(rows.map((row) => [`${row.collection}:${row.token_id}`, row]));
  return inputs.map((input) => {
    const row = known.get(`${input.collection}:${input.tokenId}`);
    const collectionName = row ? String(row.name) : null;
    const creator = row ? String(row.creator ?? row.owner) : null;
    const path = !row
      ? null
      : row.kind === "default"
        ? `/${creator}/${input.tokenId}`
        : `/${creator}/${encodeURIComponent(slugOf(row))}/${input.tokenId}`;
    return {
      _id: input.id,
      collection: input.collection,
      collectionName,
      tokenId: input.tokenId,
      name: (row?.item_name as string | null) ?? tokenName(collectionName, input.tokenId),
      path,
      price: formatEther(BigInt(input.amount)),
      priceWei: input.amount,
      status: input.status,
      counterparty: input.counterparty,
      kind: input.kind ?? null,
      endTime: input.endTime?.toISOString() ?? null,
      updatedAt: input.updatedAt?.toISOString() ?? null,
    };
  });
}

export type AuctionRow = typeof chainAuctions.$inferSelect;
export const auctionInput = (a: AuctionRow): RowInput => ({
  id: `${a.createdBlock}:${a.createdLogIndex}`,
  collection: a.collection,
  tokenId: a.tokenId,
  amount: a.topBid ?? a.basePrice,
  status: a.status,
  counterparty: a.topBidder,
  kind: a.kind,
  endTime: a.endTime,
  updatedAt: null,
});
