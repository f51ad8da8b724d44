CREATE INDEX "profiles_username_words_idx" ON "profiles" USING gin (to_tsvector('simple', lower("username")));--> statement-breakpoint
CREATE INDEX "profiles_name_words_idx" ON "profiles" USING gin (to_tsvector('simple', lower("name")));--> statement-breakpoint
CREATE INDEX "chain_collections_name_words_idx" ON "chain_collections" USING gin (to_tsvector('simple', lower("name")));