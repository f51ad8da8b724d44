import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { createDatabase, literalInteger } from "./client.ts";

describe("repeated statements", () => {
  it("prepares at most the bounded number of shapes, and still answers the others", async () => {
    // One connection, so every statement lands in the session whose prepared statements are counted.
    const db = createDatabase(inject("databaseUrl"), { max: 1, maxPreparedShapes: 3 });
    try {
      const prepared = async () =>
        Number(
          (await db.$repeated.execute(sql`SELECT count(*) AS n FROM pg_prepared_statements`)).rows[0]?.n,
        );
      expect(await prepared()).toBe(1); // the count itself
      // Texts holding client-chosen numbers, as a page's offset or a category are.
      for (let n = 1; n <= 10; n++) {
        const { rows } = await db.$repeated.execute(sql`SELECT ${literalInteger(n)} + ${1}::int AS v`);
        expect(rows[0]?.v).toBe(n + 1);
      }
      expect(await prepared()).toBe(3);
      // A shape prepared before the bound was reached is still prepared, and reused.
      await db.$repeated.execute(sql`SELECT ${literalInteger(1)} + ${1}::int AS v`);
      expect(await prepared()).toBe(3);
    } finally {
      await db.$client.end();
    }
  });
});
