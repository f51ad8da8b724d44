ALTER TABLE "profiles" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "email_link_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "ens_checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "mail_outbox_to_created_idx" ON "mail_outbox" USING btree ("to","created_at");--> statement-breakpoint
-- ENS names were typed, never checked: forget them (owners add them again and the chain is asked).
UPDATE "profiles" SET "ens" = NULL WHERE "ens" IS NOT NULL;
