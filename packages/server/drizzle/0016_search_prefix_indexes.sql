DROP INDEX "profiles_name_lower_idx";--> statement-breakpoint
CREATE INDEX "profiles_username_prefix_idx" ON "profiles" USING btree ((lower("username") COLLATE "C"));--> statement-breakpoint
CREATE INDEX "profiles_name_prefix_idx" ON "profiles" USING btree ((lower("name") COLLATE "C"),"address");--> statement-breakpoint
CREATE INDEX "chain_collections_name_prefix_idx" ON "chain_collections" USING btree ((lower("name") COLLATE "C"),"created_block");