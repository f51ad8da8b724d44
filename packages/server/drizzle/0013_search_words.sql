CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gist ("word" gist_trgm_ops);--> statement-breakpoint
-- The words of a text: runs of 3 or more letters, lowercased (names are English text; digits are no typo).
CREATE FUNCTION "search_words_add"(name text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "search_words" ("word")
  SELECT DISTINCT m[1] FROM regexp_matches(lower(coalesce(name, '')), '([a-z]{3,})', 'g') AS m
  ON CONFLICT DO NOTHING
$$;--> statement-breakpoint
CREATE FUNCTION "chain_collections_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "search_words_add"(NEW."name");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "chain_collections_search_words" AFTER INSERT OR UPDATE OF "name" ON "chain_collections"
  FOR EACH ROW EXECUTE FUNCTION "chain_collections_search_words"();--> statement-breakpoint
CREATE FUNCTION "profiles_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "search_words_add"(NEW."username");
  PERFORM "search_words_add"(NEW."name");
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "profiles_search_words" AFTER INSERT OR UPDATE OF "username", "name" ON "profiles"
  FOR EACH ROW EXECUTE FUNCTION "profiles_search_words"();--> statement-breakpoint
SELECT "search_words_add"("name") FROM "chain_collections";--> statement-breakpoint
SELECT "search_words_add"("username"), "search_words_add"("name") FROM "profiles";
