import pg from "pg";

const TIMESTAMPTZ = 1184;
const readTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ, "text") as (text: string) => Date | number | null;

/** The value of an ASCII digit, or NaN. */
const digit = (text: string, at: number) => {
  const code = text.charCodeAt(at) - 48;
  return code >= 0 && code <= 9 ? code : Number.NaN;
};

/** The two-digit number at `at`, or NaN. */
const twoDigits = (text: string, at: number) => digit(text, at) * 10 + digit(text, at + 1);

/**
 * A `timestamptz` as PostgreSQL writes it in UTC, `2026-11-26 17:00:04.123456+00`, read by position. pg's own
 * reader (postgres-date) runs four regular expressions over each value: a page of NFT cards holds about eighty
 * timestamps, and reading them was a tenth of the API's CPU on the explore list. Anything else (another
 * time zone, a year before 1000, BC, infinity) goes to pg's reader. Like it, this keeps milliseconds.
 */
export function parseTimestamptz(text: string): Date | number | null {
  const length = text.length;
  if (
    length < 22 ||
    length > 29 ||
    text.charCodeAt(length - 3) !== 43 || // '+'
    text.charCodeAt(length - 2) !== 48 ||
    text.charCodeAt(length - 1) !== 48 ||
    text.charCodeAt(4) !== 45 || // '-'
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 || // ' '
    text.charCodeAt(13) !== 58 || // ':'
    text.charCodeAt(16) !== 58 ||
    (length > 22 && text.charCodeAt(19) !== 46) // '.'
  ) {
    return readTimestamptz(text);
  }
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  if (!(year >= 1000)) return readTimestamptz(text);
  let millisecond = 0;
  // The fraction's first three digits (of up to six), as milliseconds.
  for (let at = 20, scale = 100; at < length - 3; at++, scale /= 10) {
    const d = digit(text, at);
    if (Number.isNaN(d)) return readTimestamptz(text);
    if (scale >= 1) millisecond += d * scale;
  }
  const time = Date.UTC(
    year,
    twoDigits(text, 5) - 1,
    twoDigits(text, 8),
    twoDigits(text, 11),
    twoDigits(text, 14),
    twoDigits(text, 17),
    millisecond,
  );
  return Number.isNaN(time) ? readTimestamptz(text) : new Date(time);
}

/** pg's readers of column values, with `parseTimestamptz` for timestamptz. */
export const columnReaders = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMPTZ && format !== "binary"
      ? parseTimestamptz
      : pg.types.getTypeParser(oid, format ?? "text")) as typeof pg.types.getTypeParser,
};

/**
 * A timestamp column's value as a Date: pg reads a timestamptz as one, drizzle's queries give its text. (Not
 * `new Date(String(date))`: that writes the date out without its milliseconds and reads it back.)
 */
export const dateOf = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

/** A nullable timestamp column's value as ISO 8601 text, as the API answers times. */
export const isoOf = (value: unknown): string | null => (value == null ? null : dateOf(value).toISOString());
