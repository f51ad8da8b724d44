CREATE TABLE "item_metadata" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cid" text NOT NULL,
	"creator" text NOT NULL,
	"collection" text NOT NULL,
	"category_id" integer,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"description_ui" jsonb,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"royalty" integer NOT NULL,
	"collaborators" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"media_cid" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "item_metadata_cid_unique" UNIQUE("cid")
);
--> statement-breakpoint
CREATE TABLE "lazy_items" (
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"metadata_cid" text NOT NULL,
	"creator" text NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lazy_items_collection_token_id_pk" PRIMARY KEY("collection","token_id")
);
--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "preview_cid" text;--> statement-breakpoint
CREATE INDEX "item_metadata_creator_idx" ON "item_metadata" USING btree ("creator","created_at");--> statement-breakpoint
CREATE INDEX "lazy_items_creator_idx" ON "lazy_items" USING btree ("creator");