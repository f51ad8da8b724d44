-- The market-wide activity feed (src/browse/feed.ts): each kind newest first, read one kind at a time and merged.
CREATE INDEX "chain_activity_kind_idx" ON "chain_activity" USING btree ("kind","block_number","log_index","seq");
