/**
 * Characters no text of Easel's may hold: NUL (PostgreSQL refuses it in text) and a lone UTF-16 surrogate
 * (half a character: PostgreSQL refuses its escape in jsonb, and UTF-8 cannot encode it). The server refuses
 * both in every string it is sent, whatever the route (query, path, JSON body, multipart fields).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const BAD_CHARACTER_MESSAGE =
  "The request contains a character that is not text (NUL or half a character).";

/** Whether a string holds a NUL or a lone surrogate. */
export function hasBadCharacter(text: string): boolean {
  return text.includes("\u0000") || LONE_SURROGATE.test(text);
}

/** Whether any string (or object key) in a parsed query, body or params holds a bad character. */
export function containsBadCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return hasBadCharacter(value);
  if (depth > 32 || value === null || typeof value !== "object") return false;
  return Object.entries(value).some(
    ([key, item]) => hasBadCharacter(key) || containsBadCharacter(item, depth + 1),
  );
}
