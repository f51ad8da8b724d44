CREATE TABLE "lazy_voucher_revocations" (
	"collection" text PRIMARY KEY NOT NULL,
	"revoked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "wallet_message_hash" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "wallet_signature" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "wallet_checked_at" timestamp with time zone;