CREATE TABLE "chain_collection_offers" (
	"offer_id" text PRIMARY KEY NOT NULL,
	"collection" text NOT NULL,
	"buyer" text NOT NULL,
	"token_root" text,
	"price" numeric(78, 0) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"quantity" integer NOT NULL,
	"remaining" integer NOT NULL,
	"status" text NOT NULL,
	"created_block" bigint NOT NULL,
	"created_tx" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_block" bigint NOT NULL,
	"updated_tx" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chain_offers" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_tokens" ADD COLUMN "offer_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "chain_collection_offers_collection_idx" ON "chain_collection_offers" USING btree ("collection","status");--> statement-breakpoint
CREATE INDEX "chain_collection_offers_buyer_idx" ON "chain_collection_offers" USING btree ("buyer");