/**
 * Dates and numbers as Easel writes them (en-US, in the reader's time zone), put together by hand instead of
 * with `toLocaleString`: a page's first Intl call loads the browser's locale data, 15–25 ms in one task on a
 * fast machine and many times that on a phone, and every landing page shows a date or a price as it starts.
 */
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

type When = string | number | Date;
const two = (n: number) => String(n).padStart(2, "0");

/** "9:05 AM", or "9:05:07 AM" with `seconds`. */
function clock(date: Date, seconds: boolean): string {
  const hours = date.getHours();
  const time = `${hours % 12 || 12}:${two(date.getMinutes())}${seconds ? `:${two(date.getSeconds())}` : ""}`;
  return `${time} ${hours < 12 ? "AM" : "PM"}`;
}

/** A whole number's digits grouped by thousands: "1234567" → "1,234,567". */
export const groupDigits = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ",");

/** "11/26/2026", as `toLocaleDateString("en")`. */
export function dateText(when: When): string {
  const date = new Date(when);
  return `${date.getMonth() + 1}/${date.getDate()}/${date.getFullYear()}`;
}

/** "11/26/2026, 9:05:07 AM", as `toLocaleString("en")`. */
export function dateTimeText(when: When): string {
  const date = new Date(when);
  return `${dateText(date)}, ${clock(date, true)}`;
}

/** "11/26/2026, 9:05 AM", as `toLocaleString("en-US")` with two-digit month and day, and minutes. */
export function dateMinuteText(when: When): string {
  const date = new Date(when);
  return `${two(date.getMonth() + 1)}/${two(date.getDate())}/${date.getFullYear()}, ${clock(date, false)}`;
}

/** "November 2026", as `toLocaleDateString("en", { month: "long", year: "numeric" })`. */
export function monthYearText(when: When): string {
  const date = new Date(when);
  return `${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}

/** "1,234.568": grouped, at most `digits` decimals (rounded half away from zero), as `toLocaleString("en")`. */
export function decimalText(value: number, digits: number): string {
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  const scale = 10 ** digits;
  const scaled = Math.round(Math.abs(value) * scale);
  const whole = Math.floor(scaled / scale);
  const fraction = String(scaled % scale)
    .padStart(digits, "0")
    .replace(/0+$/, "");
  return `${sign}${groupDigits(String(whole))}${fraction ? `.${fraction}` : ""}`;
}
