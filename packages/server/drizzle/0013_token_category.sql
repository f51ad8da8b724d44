ALTER TABLE "chain_tokens" ADD COLUMN "category_id" integer;--> statement-breakpoint
CREATE INDEX "chain_tokens_category_price_idx" ON "chain_tokens" USING btree ("category_id","price","collection","token_id") WHERE "chain_tokens"."price" is not null;--> statement-breakpoint
-- A token takes its collection's category whenever it is written (the indexer's upserts included: a BEFORE
-- INSERT trigger also sets the row an ON CONFLICT update takes from EXCLUDED).
CREATE FUNCTION chain_tokens_category() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.category_id := (SELECT d.category_id FROM collection_details d WHERE d.address = NEW.collection);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER chain_tokens_category BEFORE INSERT ON chain_tokens
  FOR EACH ROW EXECUTE FUNCTION chain_tokens_category();--> statement-breakpoint
-- A collection's new category reaches every token it holds.
CREATE FUNCTION collection_details_category() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE chain_tokens SET category_id = NULL WHERE collection = OLD.address;
  ELSIF TG_OP = 'INSERT' OR NEW.category_id IS DISTINCT FROM OLD.category_id THEN
    UPDATE chain_tokens SET category_id = NEW.category_id WHERE collection = NEW.address;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER collection_details_category AFTER INSERT OR UPDATE OF category_id OR DELETE ON collection_details
  FOR EACH ROW EXECUTE FUNCTION collection_details_category();--> statement-breakpoint
UPDATE chain_tokens t SET category_id = d.category_id FROM collection_details d WHERE d.address = t.collection;
