import type { Runner } from "./store.ts";

/**
 * Recomputes the derived stats of collections from the projections. The floor is the lowest price of an
 * active on-chain listing, an active, unexpired signed listing (the API's order book) or a listed unsold lazy
 * item (a token row of status 'lazy', see `browse/lazyCards.ts`); its artworks count those lazy items, its
 * owners do not (nobody owns one yet).
 */
export async function refreshCollectionStats(client: Runner, collections: string[]): Promise<void> {
  await client.query(
    `UPDATE chain_collections c SET
       floor_price = LEAST(
         (SELECT min(s.price) FROM chain_sell_orders s WHERE s.collection = c.address AND s.status = 'active'),
         (SELECT min(l.price) FROM signed_listings l
          WHERE l.collection = c.address AND l.status = 'active' AND l.expires_at > now()),
         (SELECT min(t.price) FROM chain_tokens t WHERE t.collection = c.address AND t.status = 'lazy'
          AND t.listing_expires_at > now())),
       highest_sale = x.highest, volume = x.volume, sales_count = x.sales,
       owners_count = (SELECT count(DISTINCT t.owner) FROM chain_tokens t WHERE t.collection = c.address AND t.status NOT IN ('burned', 'lazy')),
       tokens_count = (SELECT count(*) FROM chain_tokens t WHERE t.collection = c.address AND t.status <> 'burned')
     FROM (SELECT a.address, max(s.price) AS highest, coalesce(sum(s.price), 0) AS volume, count(s.price)::int AS sales
           FROM unnest($1::text[]) AS a(address) LEFT JOIN chain_sales s ON s.collection = a.address
           GROUP BY a.address) x
     WHERE c.address = x.address`,
    [collections],
  );
}
