CREATE TABLE "indexer_leader" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"backend_pid" integer NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
