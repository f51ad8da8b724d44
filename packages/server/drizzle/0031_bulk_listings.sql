ALTER TABLE "signed_listings" ADD COLUMN "bulk_index" integer;--> statement-breakpoint
ALTER TABLE "signed_listings" ADD COLUMN "bulk_proof" text[];--> statement-breakpoint
ALTER TABLE "signed_listings" ADD COLUMN "bulk_root" text;