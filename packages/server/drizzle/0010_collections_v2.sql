CREATE TABLE "lazy_collection_vouchers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner" text NOT NULL,
	"name" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "lazy_collections" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "lazy_collection_vouchers_owner_idx" ON "lazy_collection_vouchers" USING btree ("owner","expires_at");--> statement-breakpoint
CREATE INDEX "chain_activity_collection_idx" ON "chain_activity" USING btree ("collection","block_number","log_index","seq");