CREATE TABLE "lazy_vouchers" (
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"buyer" text NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"nonce" integer NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"voucher" jsonb NOT NULL,
	CONSTRAINT "lazy_vouchers_collection_token_id_buyer_pk" PRIMARY KEY("collection","token_id","buyer")
);
--> statement-breakpoint
ALTER TABLE "lazy_items" DROP COLUMN "voucher_expires_at";