import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createDatabase } from "./client.ts";
import { parseTimestamptz } from "./timestamps.ts";

const pgReader = pg.types.getTypeParser(1184, "text");
const time = (value: Date | number | null) => (value instanceof Date ? value.getTime() : value);

describe("parseTimestamptz", () => {
  it("reads every UTC timestamp as pg's own reader does, to the millisecond", () => {
    const texts = [
      "2026-11-26 17:00:04+00",
      "2026-11-26 17:00:04.1+00",
      "2026-11-26 17:00:04.12+00",
      "2026-11-26 17:00:04.123+00",
      "2026-11-26 17:00:04.1239+00",
      "2026-11-26 17:00:04.999999+00",
      "2026-11-26 17:00:04.000001+00",
      "1970-01-01 00:00:00+00",
      "1969-12-31 23:59:59.999+00",
      "2000-02-29 12:30:45.5+00",
      "9999-12-31 23:59:59.999999+00",
      "1000-01-01 00:00:00+00",
    ];
    for (const text of texts) {
      const ours = parseTimestamptz(text);
      expect(ours, text).toBeInstanceOf(Date);
      expect(time(ours), text).toBe(time(pgReader(text)));
    }
  });

  it("hands what it does not read by position to pg's reader", () => {
    const texts = [
      "2026-11-26 18:00:04.25+01",
      "2026-11-26 12:30:04-05:30",
      "0099-06-01 00:00:00+00",
      "0044-03-15 12:00:00+00 BC",
      "2026-11-26 17:00:04+00 BC",
      "infinity",
      "-infinity",
    ];
    for (const text of texts) expect(time(parseTimestamptz(text)), text).toEqual(time(pgReader(text)));
    expect(parseTimestamptz("infinity")).toBe(Number.POSITIVE_INFINITY);
  });

  it("reads PostgreSQL's own output, in its session's time zone or another", async () => {
    const db = createDatabase(inject("databaseUrl"), { max: 1 });
    try {
      const read = async () =>
        (
          await db.$client.query<{ at: Date; text: string }>(
            "SELECT at, at::text AS text FROM (VALUES ('2026-11-26 17:00:04.123456+00'::timestamptz), ('1999-12-31 23:59:59+00'), ('2026-03-29 01:30:00.5+00')) v(at)",
          )
        ).rows;
      const utc = await read();
      await db.$client.query("SET TIME ZONE 'Asia/Kolkata'");
      const kolkata = await read();
      expect(kolkata.map((row) => row.text)).not.toEqual(utc.map((row) => row.text));
      for (const rows of [utc, kolkata]) {
        expect(rows.map((row) => row.at.toISOString())).toEqual([
          "2026-11-26T17:00:04.123Z",
          "1999-12-31T23:59:59.000Z",
          "2026-03-29T01:30:00.500Z",
        ]);
      }
      // The repeated statements' pool reads them alike.
      const { rows } = await db.$repeated.execute<{ at: Date }>(
        sql`SELECT '2026-11-26 17:00:04.987654+00'::timestamptz AS at`,
      );
      expect(rows[0]?.at.toISOString()).toBe("2026-11-26T17:00:04.987Z");
    } finally {
      await db.$client.end();
    }
  });
});
