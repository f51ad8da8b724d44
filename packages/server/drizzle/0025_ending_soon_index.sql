-- Ending soon (explore and the collection page): the auctions with an end, soonest first, walked from now().
CREATE INDEX "chain_tokens_auction_end_idx" ON "chain_tokens" USING btree ("auction_end","collection","token_id") WHERE "chain_tokens"."auction_end" is not null;
