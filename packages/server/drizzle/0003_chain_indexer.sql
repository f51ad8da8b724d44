CREATE TABLE "chain_accounts" (
	"address" text PRIMARY KEY NOT NULL,
	"banned" boolean DEFAULT false NOT NULL,
	"verified_artist" boolean DEFAULT false NOT NULL,
	"updated_block" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_activity" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"seq" smallint NOT NULL,
	"kind" text NOT NULL,
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"from" text,
	"to" text,
	"price" numeric(78, 0),
	"tx_hash" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_activity_block_number_log_index_seq_pk" PRIMARY KEY("block_number","log_index","seq")
);
--> statement-breakpoint
CREATE TABLE "chain_auctions" (
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"created_block" bigint NOT NULL,
	"created_log_index" integer NOT NULL,
	"kind" text NOT NULL,
	"seller" text NOT NULL,
	"base_price" numeric(78, 0) NOT NULL,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"original_end_time" timestamp with time zone,
	"extended" boolean DEFAULT false NOT NULL,
	"top_bid" numeric(78, 0),
	"top_bidder" text,
	"bids_count" integer DEFAULT 0 NOT NULL,
	"status" text NOT NULL,
	"winner" text,
	"created_tx" text NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_auctions_created_block_created_log_index_pk" PRIMARY KEY("created_block","created_log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_bids" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"bidder" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"previous_bidder" text,
	"previous_amount" numeric(78, 0),
	"tx_hash" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_bids_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_blocked_collections" (
	"collection" text PRIMARY KEY NOT NULL,
	"block_number" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_blocked_tokens" (
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"block_number" bigint NOT NULL,
	CONSTRAINT "chain_blocked_tokens_collection_token_id_pk" PRIMARY KEY("collection","token_id")
);
--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_collections" (
	"address" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"owner" text NOT NULL,
	"name" text NOT NULL,
	"symbol" text NOT NULL,
	"category" text NOT NULL,
	"max_supply" numeric(78, 0) NOT NULL,
	"blocked" boolean DEFAULT false NOT NULL,
	"created_block" bigint NOT NULL,
	"created_tx" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"floor_price" numeric(78, 0),
	"highest_sale" numeric(78, 0),
	"volume" numeric(78, 0) DEFAULT '0' NOT NULL,
	"sales_count" integer DEFAULT 0 NOT NULL,
	"owners_count" integer DEFAULT 0 NOT NULL,
	"tokens_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_credits" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"contract" text NOT NULL,
	"account" text NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"to" text,
	"tx_hash" text NOT NULL,
	CONSTRAINT "chain_credits_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_events" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"block_hash" text NOT NULL,
	"tx_hash" text NOT NULL,
	"address" text NOT NULL,
	"name" text NOT NULL,
	"args" jsonb NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_events_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_offers" (
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"buyer" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text NOT NULL,
	"updated_block" bigint NOT NULL,
	"updated_tx" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_offers_collection_token_id_buyer_pk" PRIMARY KEY("collection","token_id","buyer")
);
--> statement-breakpoint
CREATE TABLE "chain_sales" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"seller" text NOT NULL,
	"buyer" text NOT NULL,
	"mechanism" text NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	"royalty" numeric(78, 0) NOT NULL,
	"proceeds" numeric(78, 0) NOT NULL,
	"primary" boolean NOT NULL,
	"tx_hash" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_sales_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_sell_orders" (
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"seller" text NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"listed_block" bigint NOT NULL,
	"listed_tx" text NOT NULL,
	"listed_at" timestamp with time zone NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_sell_orders_collection_token_id_pk" PRIMARY KEY("collection","token_id")
);
--> statement-breakpoint
CREATE TABLE "chain_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"args" jsonb NOT NULL,
	"block_number" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_tokens" (
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"creator" text,
	"owner" text NOT NULL,
	"holder" text NOT NULL,
	"cid" text,
	"royalty_bps" integer,
	"collaborators" jsonb,
	"status" text NOT NULL,
	"lazy" boolean DEFAULT false NOT NULL,
	"price" numeric(78, 0),
	"last_price" numeric(78, 0),
	"blocked" boolean DEFAULT false NOT NULL,
	"minted_block" bigint NOT NULL,
	"minted_at" timestamp with time zone NOT NULL,
	"mint_tx" text NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_tokens_collection_token_id_pk" PRIMARY KEY("collection","token_id")
);
--> statement-breakpoint
CREATE TABLE "chain_transfers" (
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"from" text NOT NULL,
	"to" text NOT NULL,
	"tx_hash" text NOT NULL,
	"block_time" timestamp with time zone NOT NULL,
	CONSTRAINT "chain_transfers_block_number_log_index_pk" PRIMARY KEY("block_number","log_index")
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "source_key" text;--> statement-breakpoint
CREATE INDEX "chain_activity_token_idx" ON "chain_activity" USING btree ("collection","token_id","block_number");--> statement-breakpoint
CREATE INDEX "chain_activity_from_idx" ON "chain_activity" USING btree ("from","block_number");--> statement-breakpoint
CREATE INDEX "chain_activity_to_idx" ON "chain_activity" USING btree ("to","block_number");--> statement-breakpoint
CREATE INDEX "chain_activity_time_idx" ON "chain_activity" USING btree ("block_time");--> statement-breakpoint
CREATE UNIQUE INDEX "chain_auctions_active_idx" ON "chain_auctions" USING btree ("collection","token_id") WHERE "chain_auctions"."status" = 'active';--> statement-breakpoint
CREATE INDEX "chain_auctions_seller_idx" ON "chain_auctions" USING btree ("seller");--> statement-breakpoint
CREATE INDEX "chain_bids_token_idx" ON "chain_bids" USING btree ("collection","token_id");--> statement-breakpoint
CREATE INDEX "chain_bids_bidder_idx" ON "chain_bids" USING btree ("bidder");--> statement-breakpoint
CREATE INDEX "chain_collections_owner_idx" ON "chain_collections" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "chain_credits_account_idx" ON "chain_credits" USING btree ("account");--> statement-breakpoint
CREATE INDEX "chain_events_tx_idx" ON "chain_events" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "chain_offers_buyer_idx" ON "chain_offers" USING btree ("buyer");--> statement-breakpoint
CREATE INDEX "chain_sales_token_idx" ON "chain_sales" USING btree ("collection","token_id");--> statement-breakpoint
CREATE INDEX "chain_sales_seller_idx" ON "chain_sales" USING btree ("seller");--> statement-breakpoint
CREATE INDEX "chain_sales_buyer_idx" ON "chain_sales" USING btree ("buyer");--> statement-breakpoint
CREATE INDEX "chain_sell_orders_active_idx" ON "chain_sell_orders" USING btree ("collection","price") WHERE "chain_sell_orders"."status" = 'active';--> statement-breakpoint
CREATE INDEX "chain_tokens_owner_idx" ON "chain_tokens" USING btree ("owner");--> statement-breakpoint
CREATE INDEX "chain_tokens_creator_idx" ON "chain_tokens" USING btree ("creator");--> statement-breakpoint
CREATE INDEX "chain_tokens_status_idx" ON "chain_tokens" USING btree ("collection","status");--> statement-breakpoint
CREATE INDEX "chain_transfers_token_idx" ON "chain_transfers" USING btree ("collection","token_id");--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_source_key_unique" UNIQUE("source_key");