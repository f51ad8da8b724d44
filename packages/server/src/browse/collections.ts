/**
 * Collections as people browse them: explore (filters, sorts, pages), one collection by its page name, and
 * the home page's featured ones. Stats come from `chain_collections` (the indexer derives them from chain
 * data after every batch).
 */
import type {
  CollectionCard,
  CollectionSort,
  ExploreCollectionsResponse,
  exploreCollectionsQuerySchema,
} from "@easel/common";
import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { parseEther } from "viem";
import type { z } from "zod";
import { type Database, literalInteger } from "../db/client.ts";
import { shortLived } from "../db/shortLived.ts";
import {
  COLLECTION_CARD_COLUMNS,
  COLLECTION_CARD_JOINS,
  type CollectionRow,
  toCollectionCard,
  type Viewer,
  visibleCollection,
} from "./cards.ts";

type ExploreQuery = z.output<typeof exploreCollectionsQuerySchema>;

/** Sorts end with the address, so equal keys keep one order across pages. */
const ORDER: Record<CollectionSort, SQL> = {
  owners: sql`c.owners_count DESC, c.address DESC`,
  floorPriceHighest: sql`c.floor_price DESC NULLS LAST, c.address DESC`,
  floorPriceLowest: sql`c.floor_price ASC NULLS LAST, c.address ASC`,
  newest: sql`c.created_block DESC, c.address DESC`,
  oldest: sql`c.created_block ASC, c.address ASC`,
};

/**
 * 'Collections {n}' for a filter set, kept for a few seconds: counting tens of thousands of rows for every
 * page every visitor loads would cost more than the pages themselves, and the number may lag that long.
 */
const collectionCounts = shortLived<number>(5_000);
const dialect = new PgDialect();

function countCollections(db: Database, condition: SQL): Promise<number> {
  const query = dialect.sqlToQuery(condition);
  return collectionCounts.get(db, `${query.sql}|${JSON.stringify(query.params)}`, async () => {
    const { rows } = await db.$repeated.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n
      FROM chain_collections c LEFT JOIN collection_details d ON d.address = c.address
      WHERE ${condition}`);
    return Number(rows[0]?.n ?? 0);
  });
}

/**
 * The page's row count as written into the statement: the page and one more (is there a next page?), rounded
 * up to a multiple of 10, so six texts serve every page size. The offset is a parameter: written into the
 * text it made a new statement for every page a client asked for (see docs/architecture.md, "Planning costs
 * more than running").
 */
const pageRows = (limit: number) => Math.ceil((limit + 1) / 10) * 10;

export async function exploreCollections(
  db: Database,
  viewer: Viewer,
  query: ExploreQuery,
): Promise<ExploreCollectionsResponse> {
  // The shared default collection has its own page (/singleCollection); explore lists artists' collections.
  const where: SQL[] = [visibleCollection(viewer), sql`c.kind <> 'default'`];
  if (query.collectionType)
    where.push(sql`c.kind = ${query.collectionType === "lazyMint" ? "lazy" : "standard"}`);
  if (query.minNumberOfArtworks !== undefined)
    where.push(sql`c.tokens_count >= ${query.minNumberOfArtworks}`);
  if (query.maxNumberOfArtworks !== undefined)
    where.push(sql`c.tokens_count <= ${query.maxNumberOfArtworks}`);
  if (query.minTotalSales !== undefined) where.push(sql`c.sales_count >= ${query.minTotalSales}`);
  if (query.maxTotalSales !== undefined) where.push(sql`c.sales_count <= ${query.maxTotalSales}`);
  if (query.minFloorPrice !== undefined) {
    where.push(sql`c.floor_price >= ${parseEther(query.minFloorPrice).toString()}::numeric`);
  }
  if (query.maxFloorPrice !== undefined) {
    where.push(sql`c.floor_price <= ${parseEther(query.maxFloorPrice).toString()}::numeric`);
  }
  // One array parameter, however many ids: a list of N placeholders was a statement of its own for each N.
  if (query.category_web2_ids?.length)
    where.push(sql`d.category_id = ANY(${sql.param(query.category_web2_ids)}::int[])`);
  const condition = sql.join(where, sql` AND `);
  const offset = (query.page - 1) * query.limit;
  const [page, total] = await Promise.all([
    // The page's addresses first, walking a sort index; the card's joins then touch only those rows.
    db.$repeated.execute(sql`
      WITH page AS (
        SELECT c.address FROM chain_collections c LEFT JOIN collection_details d ON d.address = c.address
        WHERE ${condition}
        ORDER BY ${ORDER[query.sort]}
        LIMIT ${literalInteger(pageRows(query.limit))} OFFSET ${offset}::bigint
      )
      SELECT ${COLLECTION_CARD_COLUMNS}
      FROM page JOIN chain_collections c ON c.address = page.address ${COLLECTION_CARD_JOINS}
      ORDER BY ${ORDER[query.sort]}`),
    countCollections(db, condition),
  ]);
  const rows = page.rows as CollectionRow[];
  return {
    collections: rows.slice(0, query.limit).map(toCollectionCard),
    lastPage: rows.length <= query.limit,
    headerData: { collections: total },
  };
}

/**
 * The collection a page name points at: its address, or its name ignoring case (the oldest collection
 * with that name). `null` when there is none or the viewer may not see it.
 */
export async function findCollection(
  db: Database,
  viewer: Viewer,
  nameOrAddress: string,
): Promise<(CollectionCard & { social: Record<string, string | null> }) | null> {
  const byAddress = /^0x[0-9a-fA-F]{40}$/.test(nameOrAddress);
  const match = byAddress
    ? sql`c.address = ${nameOrAddress.toLowerCase()}`
    : sql`lower(c.name) = lower(${nameOrAddress})`;
  const { rows } = await db.$repeated.execute(sql`
    SELECT ${COLLECTION_CARD_COLUMNS}
    FROM chain_collections c ${COLLECTION_CARD_JOINS}
    WHERE ${match} AND ${visibleCollection(viewer)}
    ORDER BY c.created_block ASC, c.address ASC
    LIMIT 1`);
  const row = rows[0] as CollectionRow | undefined;
  if (!row) return null;
  return { ...toCollectionCard(row), social: (row.social as Record<string, string | null> | null) ?? {} };
}

/**
 * The home page's collections: those moderators featured (newest pick first), or, until some are picked,
 * the most active ones (by sales, then owners, then artworks) that have at least one artwork.
 */
export async function homeCollections(
  db: Database,
  limit: number,
): Promise<{ collections: CollectionCard[]; picked: boolean }> {
  const featured = await db.$repeated.execute(sql`
    SELECT ${COLLECTION_CARD_COLUMNS}
    FROM chain_collections c ${COLLECTION_CARD_JOINS}
    WHERE d.featured_at IS NOT NULL AND NOT c.blocked
    ORDER BY d.featured_at DESC, c.address
    LIMIT ${literalInteger(limit)}`);
  if (featured.rows.length > 0) {
    return { collections: (featured.rows as CollectionRow[]).map(toCollectionCard), picked: true };
  }
  const active = await db.$repeated.execute(sql`
    SELECT ${COLLECTION_CARD_COLUMNS}
    FROM chain_collections c ${COLLECTION_CARD_JOINS}
    WHERE NOT c.blocked AND c.kind <> 'default' AND c.tokens_count > 0
    ORDER BY c.sales_count DESC, c.owners_count DESC, c.tokens_count DESC, c.created_block DESC, c.address
    LIMIT ${literalInteger(limit)}`);
  return { collections: (active.rows as CollectionRow[]).map(toCollectionCard), picked: false };
}
