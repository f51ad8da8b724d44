ALTER TABLE "chain_tokens" ADD COLUMN "category_id" integer;--> statement-breakpoint
-- A token carries its collection's category (set off-chain in collection_details), so explore filters by
-- category on the token row: a new token takes it when it is indexed, and a collection's tokens follow
-- when its category is set, changed or removed.
CREATE FUNCTION "chain_tokens_category"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."category_id" := (SELECT "category_id" FROM "collection_details" WHERE "address" = NEW."collection");
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "chain_tokens_category" BEFORE INSERT ON "chain_tokens"
  FOR EACH ROW EXECUTE FUNCTION "chain_tokens_category"();--> statement-breakpoint
CREATE FUNCTION "collection_details_category"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE "chain_tokens" SET "category_id" = NULL WHERE "collection" = OLD."address" AND "category_id" IS NOT NULL;
  ELSE
    UPDATE "chain_tokens" SET "category_id" = NEW."category_id"
      WHERE "collection" = NEW."address" AND "category_id" IS DISTINCT FROM NEW."category_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "collection_details_category" AFTER INSERT OR DELETE OR UPDATE OF "category_id" ON "collection_details"
  FOR EACH ROW EXECUTE FUNCTION "collection_details_category"();--> statement-breakpoint
UPDATE "chain_tokens" t SET "category_id" = d."category_id" FROM "collection_details" d
  WHERE d."address" = t."collection" AND d."category_id" IS NOT NULL;--> statement-breakpoint
-- After the fill: one build of each index instead of a million index updates.
CREATE INDEX "chain_tokens_category_minted_idx" ON "chain_tokens" USING btree ("category_id","minted_block","collection","token_id");--> statement-breakpoint
CREATE INDEX "chain_tokens_category_price_idx" ON "chain_tokens" USING btree ("category_id","price","collection","token_id") WHERE "chain_tokens"."price" is not null;--> statement-breakpoint
CREATE INDEX "chain_tokens_category_listed_idx" ON "chain_tokens" USING btree ("category_id","listed_at","collection","token_id") WHERE "chain_tokens"."listed_at" is not null;--> statement-breakpoint
CREATE INDEX "chain_tokens_category_sold_idx" ON "chain_tokens" USING btree ("category_id","sold_at","collection","token_id") WHERE "chain_tokens"."sold_at" is not null;
