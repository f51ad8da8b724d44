ALTER TABLE "signed_listings" DROP CONSTRAINT "signed_listings_status_check";--> statement-breakpoint
ALTER TABLE "signed_listings" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "signed_listings" ADD COLUMN "paused_block" bigint;--> statement-breakpoint
ALTER TABLE "signed_listings" ADD COLUMN "recheck_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signed_listings" ADD COLUMN "contract_seller" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "signed_listings_recheck_idx" ON "signed_listings" USING btree ("recheck_at") WHERE "signed_listings"."recheck_at" IS NOT NULL;--> statement-breakpoint
-- Orders retired as 'refused' (a passing refusal) may still be filled on chain: back on their sellers' Manage,
-- paused, rechecked by the worker at once; those past their expiry are expired.
UPDATE "signed_listings" SET "status" = CASE WHEN "expires_at" > now() THEN 'paused' ELSE 'expired' END,
  "paused_reason" = CASE WHEN "expires_at" > now() THEN 'refused' END,
  "paused_block" = CASE WHEN "expires_at" > now() THEN "checked_block" END,
  "recheck_at" = CASE WHEN "expires_at" > now() THEN now() END
  WHERE "status" = 'refused';--> statement-breakpoint
-- Every order in the book is rechecked once: the worker learns which sellers are contract wallets (their orders
-- are rechecked on a schedule from then on) and pauses what the chain refuses now.
UPDATE "signed_listings" SET "recheck_at" = now() WHERE "status" = 'active' AND "expires_at" > now();--> statement-breakpoint
ALTER TABLE "signed_listings" ADD CONSTRAINT "signed_listings_status_check" CHECK ("signed_listings"."status" IN ('active', 'hidden', 'paused', 'filled', 'cancelled', 'bumped', 'void', 'expired'));
