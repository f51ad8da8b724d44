CREATE TABLE "chain_batches" (
	"from_block" bigint PRIMARY KEY NOT NULL,
	"to_block" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_undo" (
	"batch_from" bigint NOT NULL,
	"table" text NOT NULL,
	"key" text NOT NULL,
	"prior" jsonb,
	CONSTRAINT "chain_undo_batch_from_table_key_pk" PRIMARY KEY("batch_from","table","key")
);
