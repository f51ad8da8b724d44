import unhomoglyph from "unhomoglyph";

/**
 * The form in which two usernames that look alike are equal: Unicode's confusable characters replaced by
 * their prototypes (TR39 data, via `unhomoglyph`), then case folded. "Alice", "aIice" (capital i) and
 * "аlice" (Cyrillic a) share one key. Mapped before folding, since folding first would turn a capital I
 * into an i and hide its likeness to l.
 */
export function usernameKey(username: string): string {
  return unhomoglyph(unhomoglyph(username.normalize("NFKD")).toLowerCase()).normalize("NFKC");
}

/** Words only Easel's staff may go by, in a username or a display name. */
const STAFF_WORDS = [
  "easel",
  "admin",
  "administrator",
  "moderator",
  "mod",
  "support",
  "staff",
  "official",
  "team",
];

/** The staff words as keys (the confusables data maps "m" to "rn", so "admin" becomes "adrnin"). */
const STAFF_KEYS = new Set(STAFF_WORDS.map(usernameKey));
const EASEL_KEY = usernameKey("easel");

/** Whether a username or display name claims to be staff ("Easel Support", "easel_team", "Site Admin"). */
export function looksLikeStaff(value: string): boolean {
  const key = usernameKey(value);
  if (key.includes(EASEL_KEY)) return true;
  return key.split(/[\s_\-.,:;|/]+/).some((word) => STAFF_KEYS.has(word));
}
