ALTER TABLE "item_favorites" ADD COLUMN "since_block" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Favourites made before this column watched from some block not recorded: from the indexer's position now,
-- so a later resync alerts nobody of what happened before.
UPDATE "item_favorites" SET "since_block" = COALESCE((SELECT max("indexed_block") FROM "indexer_state"), 0);
