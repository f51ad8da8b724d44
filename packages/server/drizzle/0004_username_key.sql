ALTER TABLE "profiles" ADD COLUMN "username_key" text;--> statement-breakpoint
-- Existing usernames are English letters, digits and underscores: lower() is their look-alike key, except
-- for the I/l and 0/O likenesses, which the next save of each profile records exactly.
UPDATE "profiles" SET "username_key" = lower("username") WHERE "username" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_username_key_idx" ON "profiles" USING btree ("username_key");
