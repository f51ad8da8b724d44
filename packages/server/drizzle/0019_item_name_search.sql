CREATE INDEX "item_metadata_name_prefix_idx" ON "item_metadata" USING btree ((lower("name") COLLATE "C"),"cid");--> statement-breakpoint
CREATE INDEX "item_metadata_name_words_idx" ON "item_metadata" USING gin (to_tsvector('simple', lower("name")));--> statement-breakpoint
CREATE INDEX "chain_tokens_cid_idx" ON "chain_tokens" USING btree ("cid");--> statement-breakpoint
-- The dictionary learns the words of item names too. Statement triggers reading the new rows as a table: one
-- upload inserts one row, but a bulk load of a million names adds each distinct word once, not per row.
CREATE FUNCTION "item_metadata_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
  SELECT DISTINCT m[1] FROM "new_names" n, regexp_matches(lower(n."name"), '([a-z]{3,})', 'g') AS m
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "item_metadata_search_words_insert" AFTER INSERT ON "item_metadata"
  REFERENCING NEW TABLE AS "new_names" FOR EACH STATEMENT EXECUTE FUNCTION "item_metadata_search_words"();--> statement-breakpoint
CREATE TRIGGER "item_metadata_search_words_update" AFTER UPDATE ON "item_metadata"
  REFERENCING NEW TABLE AS "new_names" FOR EACH STATEMENT EXECUTE FUNCTION "item_metadata_search_words"();--> statement-breakpoint
INSERT INTO "search_words" ("word")
SELECT DISTINCT m[1] FROM "item_metadata" n, regexp_matches(lower(n."name"), '([a-z]{3,})', 'g') AS m
ON CONFLICT DO NOTHING;
