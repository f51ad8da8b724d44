CREATE TABLE "lazy_collection_vouchers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner" text NOT NULL,
	"name" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "lazy_collections" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "lazy_collection_vouchers_owner_idx" ON "lazy_collection_vouchers" USING btree ("owner","expires_at");--> statement-breakpoint
CREATE INDEX "item_stats_views_idx" ON "item_stats" USING btree ("views","collection","token_id");--> statement-breakpoint
CREATE INDEX "item_stats_favorites_idx" ON "item_stats" USING btree ("favorites","collection","token_id");--> statement-breakpoint
CREATE INDEX "profiles_name_lower_idx" ON "profiles" USING btree (lower("name"),"address");--> statement-breakpoint
CREATE INDEX "chain_activity_collection_idx" ON "chain_activity" USING btree ("collection","block_number","log_index","seq");--> statement-breakpoint
CREATE INDEX "chain_collections_owners_sort_idx" ON "chain_collections" USING btree ("owners_count","address");--> statement-breakpoint
CREATE INDEX "chain_collections_floor_sort_idx" ON "chain_collections" USING btree ("floor_price","address");--> statement-breakpoint
CREATE INDEX "chain_collections_floor_desc_sort_idx" ON "chain_collections" USING btree ("floor_price" DESC NULLS LAST,"address" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "chain_collections_created_sort_idx" ON "chain_collections" USING btree ("created_block","address");--> statement-breakpoint
CREATE INDEX "chain_tokens_collection_minted_idx" ON "chain_tokens" USING btree ("collection","minted_block");