ALTER TABLE "chain_tokens" ADD COLUMN "listing_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_tokens" ADD COLUMN "auction_kind" text;--> statement-breakpoint
ALTER TABLE "chain_tokens" ADD COLUMN "auction_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_tokens" ADD COLUMN "offer" numeric(78, 0);--> statement-breakpoint
-- The token row carries its active listing's end, its active auction's kind and end, and its current offer
-- (the indexer's handlers keep them from here on): fill them from the rows that hold them today.
UPDATE "chain_tokens" t SET "listing_expires_at" = so."expires_at" FROM "chain_sell_orders" so
  WHERE so."collection" = t."collection" AND so."token_id" = t."token_id" AND so."status" = 'active';--> statement-breakpoint
UPDATE "chain_tokens" t SET "auction_kind" = au."kind", "auction_end" = au."end_time" FROM "chain_auctions" au
  WHERE au."collection" = t."collection" AND au."token_id" = t."token_id" AND au."status" = 'active';--> statement-breakpoint
UPDATE "chain_tokens" t SET "offer" = o."amount" FROM "chain_offers" o
  WHERE o."collection" = t."collection" AND o."token_id" = t."token_id" AND o."status" = 'active';
--> statement-breakpoint
-- Undo records written before now hold token rows without these columns: a reorg reaching into those
-- batches rebuilds the projections from the stored events instead of undoing them.
DELETE FROM "chain_undo";--> statement-breakpoint
DELETE FROM "chain_batches";
