CREATE TABLE "trait_roots" (
	"token_root" text PRIMARY KEY NOT NULL,
	"collection" text NOT NULL,
	"trait_type" text NOT NULL,
	"trait_value" text NOT NULL,
	"token_ids" text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "trait_roots_collection_idx" ON "trait_roots" USING btree ("collection","trait_type","trait_value");