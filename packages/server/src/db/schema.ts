import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** One row per wallet that has signed in; app data about a person (chain data lives in chain tables). */
export const profiles = pgTable("profiles", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** Lowercase 0x address. */
  address: text("address").notNull().unique(),
  username: text("username").unique(),
  name: text("name"),
  bio: text("bio"),
  avatar: text("avatar"),
  banner: text("banner"),
  email: text("email"),
  /** Inactive profiles are refused by guarded routes ("you are not registered!"). */
  active: boolean("active").notNull().default(true),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Sign-in nonces: single use (usedAt set atomically) and short-lived. */
export const authNonces = pgTable(
  "auth_nonces",
  {
    nonce: text("nonce").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("auth_nonces_expires_at_idx").on(t.expiresAt)],
);

/** Sessions: the cookie carries a random token; only its SHA-256 is stored. */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull().unique(),
    address: text("address").notNull(),
    chainId: integer("chain_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_address_idx").on(t.address), index("sessions_expires_at_idx").on(t.expiresAt)],
);

/** Where the indexer stands: the chain head it last saw and the last block it has fully applied. */
export const indexerState = pgTable("indexer_state", {
  chainId: integer("chain_id").primaryKey(),
  headBlock: bigint("head_block", { mode: "bigint" }).notNull(),
  indexedBlock: bigint("indexed_block", { mode: "bigint" }).notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().default(sql`now()`),
});
