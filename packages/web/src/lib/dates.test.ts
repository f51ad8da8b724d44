import { describe, expect, it } from "vitest";
import { dateMinuteText, dateText, dateTimeText, decimalText, monthYearText } from "./dates.ts";

// Intl writes a narrow no-break space before AM/PM in some versions, Chromium a plain one.
const plain = (text: string) => text.replace(/\u202f/g, " ");

describe("dates and numbers written by hand", () => {
  // Midnight, noon, single and double digits, the ends of the year, a leap day, before 1970.
  const moments = [
    "2026-01-01T00:00:00",
    "2026-01-01T00:59:09",
    "2026-06-15T12:00:00",
    "2026-06-15T12:34:56",
    "2026-11-26T09:05:07",
    "2026-12-31T23:59:59",
    "2028-02-29T13:01:00",
    "1969-07-20T20:17:40",
  ].map((text) => new Date(text));

  it("read as Intl's en-US", () => {
    for (const date of moments) {
      expect(dateText(date)).toBe(date.toLocaleDateString("en"));
      expect(dateTimeText(date)).toBe(plain(date.toLocaleString("en")));
      expect(dateTimeText(date.toISOString())).toBe(plain(date.toLocaleString("en")));
      expect(dateTimeText(date.getTime())).toBe(plain(date.toLocaleString("en")));
      expect(monthYearText(date)).toBe(date.toLocaleDateString("en", { month: "long", year: "numeric" }));
      expect(dateMinuteText(date)).toBe(
        plain(
          date.toLocaleString("en-US", {
            month: "2-digit",
            day: "2-digit",
            year: "numeric",
            hour: "numeric",
            minute: "2-digit",
            hour12: true,
          }),
        ),
      );
    }
  });

  it("group and round numbers as Intl's en-US", () => {
    const numbers = [
      0, 0.0004, 0.0005, 0.001, 1, 12.5, 999.9999, 1000, 1234.5678, 1_234_567.891, 98_765_432.1,
    ];
    for (const n of [...numbers, ...numbers.map((x) => -x)])
      expect(decimalText(n, 3)).toBe(n.toLocaleString("en", { maximumFractionDigits: 3 }));
  });
});
