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

  it("builds a shape's text once and fills its placeholders at every run", async () => {
    const db = createDatabase(inject("databaseUrl"), { max: 1 });
    try {
      let builds = 0;
      const build = () => {
        builds++;
        return sql`SELECT ${sql.placeholder("a")}::int + ${sql.placeholder("b")}::int AS v, ${sql.placeholder("a")}::int AS a`;
      };
      expect((await db.$repeated.run("sum", build, { a: 1, b: 2 })).rows).toEqual([{ v: 3, a: 1 }]);
      expect((await db.$repeated.run("sum", build, { a: 40, b: 2 })).rows).toEqual([{ v: 42, a: 40 }]);
      expect(builds).toBe(1);
      // A value left out is an error before anything reaches the database, not a NULL.
      await expect(db.$repeated.run("sum", build, { a: 1 })).rejects.toThrow(/placeholder "b"/);
      // Another shape is its own statement.
      expect(
        (await db.$repeated.run("other", () => sql`SELECT ${sql.placeholder("a")}::text AS t`, { a: "x" }))
          .rows,
      ).toEqual([{ t: "x" }]);
    } finally {
      await db.$client.end();
    }
  });
});
