-- Unsold lazy items in browse: each is projected onto a token row of status 'lazy' (src/browse/lazyCards.ts
-- keeps it from here on), so every list, filter, sort, count, floor and search that reads token rows finds it.
-- The mint's Transfer replaces the row (same key): a lazy item is never shown twice.
INSERT INTO "chain_tokens" AS t ("collection", "token_id", "creator", "owner", "holder", "cid", "royalty_bps",
  "collaborators", "status", "lazy", "price", "listed_at", "listing_expires_at", "blocked", "minted_block",
  "minted_at", "mint_tx", "updated_block")
SELECT l."collection", l."token_id", l."creator", l."creator", l."creator", l."metadata_cid", m."royalty" * 100,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('account', lower(x->>'address'), 'share', (x->>'share')::int)), '[]'::jsonb)
   FROM jsonb_array_elements(coalesce(m."collaborators", '[]'::jsonb)) x),
  'lazy', true, l."price", l."updated_at", l."updated_at" + make_interval(days => 100),
  EXISTS (SELECT 1 FROM "chain_blocked_tokens" b WHERE b."collection" = l."collection" AND b."token_id" = l."token_id"),
  (SELECT coalesce(max("indexed_block"), 0) FROM "indexer_state"), l."created_at", '',
  (SELECT coalesce(max("indexed_block"), 0) FROM "indexer_state")
FROM "lazy_items" l
JOIN "item_metadata" m ON m."cid" = l."metadata_cid"
JOIN "chain_collections" c ON c."address" = l."collection"
ON CONFLICT ("collection", "token_id") DO NOTHING;--> statement-breakpoint
-- Their collections' artwork counts and floors (src/indexer/stats.ts), owners leaving the lazy rows out.
UPDATE "chain_collections" c SET
  "floor_price" = LEAST(
    (SELECT min(s."price") FROM "chain_sell_orders" s WHERE s."collection" = c."address" AND s."status" = 'active'),
    (SELECT min(l."price") FROM "signed_listings" l
     WHERE l."collection" = c."address" AND l."status" = 'active' AND l."expires_at" > now()),
    (SELECT min(t."price") FROM "chain_tokens" t WHERE t."collection" = c."address" AND t."status" = 'lazy'
     AND t."listing_expires_at" > now())),
  "owners_count" = (SELECT count(DISTINCT t."owner") FROM "chain_tokens" t
    WHERE t."collection" = c."address" AND t."status" NOT IN ('burned', 'lazy')),
  "tokens_count" = (SELECT count(*) FROM "chain_tokens" t WHERE t."collection" = c."address" AND t."status" <> 'burned')
WHERE c."address" IN (SELECT DISTINCT "collection" FROM "lazy_items");
