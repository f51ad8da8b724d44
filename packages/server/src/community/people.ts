/**
 * The people a row names (an activity's from and to, an offer's buyer, a report's reporter), read with the
 * row: the query that returns the row joins each person's profile for its display name, username and ENS
 * name, so a list of a hundred people is still one query, and the web app reads them with `displayName`.
 *
 * The ENS name is the one stored on the profile: it was the chain's word when last checked (on saving, and
 * again when the profile is shown after a day; `ens.ts`), and a list does not ask the chain again per row.
 */
import type { PersonRef } from "@easel/common";
import { type SQL, sql } from "drizzle-orm";

/** `LEFT JOIN profiles <alias> ON <alias>.address = <address>`: the profile of the address a row names. */
export const personJoin = (alias: string, address: SQL): SQL =>
  sql`LEFT JOIN profiles ${sql.raw(alias)} ON ${sql.raw(alias)}.address = ${address}`;

/** The joined profile's names as `<prefix>_name`, `<prefix>_username`, `<prefix>_ens`. */
export const personColumns = (alias: string, prefix: string): SQL =>
  sql.raw(
    `${alias}.name AS ${prefix}_name, ${alias}.username AS ${prefix}_username, ${alias}.ens AS ${prefix}_ens`,
  );

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/** The person at `address` with the names `personColumns(…, prefix)` read. */
export const personAt = (row: Record<string, unknown>, prefix: string, address: string): PersonRef => ({
  address,
  name: text(row[`${prefix}_name`]),
  username: text(row[`${prefix}_username`]),
  ens: text(row[`${prefix}_ens`]),
});

/** `personAt` for a column that may be empty: null without an address. */
export const personOf = (row: Record<string, unknown>, prefix: string, address: unknown): PersonRef | null =>
  typeof address === "string" && address !== "" ? personAt(row, prefix, address) : null;
