CREATE TABLE "signed_listings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"seller" text NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"transfer_count" numeric(78, 0) NOT NULL,
	"counter" numeric(78, 0) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"signature" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"checked_block" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_tx" text,
	CONSTRAINT "signed_listings_status_check" CHECK ("signed_listings"."status" IN ('active', 'hidden', 'filled', 'cancelled', 'bumped', 'void', 'expired', 'refused'))
);
--> statement-breakpoint
CREATE INDEX "signed_listings_token_idx" ON "signed_listings" USING btree ("collection","token_id","price","created_at");--> statement-breakpoint
CREATE INDEX "signed_listings_seller_idx" ON "signed_listings" USING btree ("seller","created_at");