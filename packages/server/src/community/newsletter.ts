import { createHmac, timingSafeEqual } from "node:crypto";

/** How long a newsletter confirmation link works. */
export const CONFIRM_LINK_TTL_S = 7 * 24 * 60 * 60;

const signature = (secret: string, email: string, expires: number) =>
  createHmac("sha256", secret).update(`newsletter-confirm\n${email}\n${expires}`).digest("base64url");

/** The signed link that confirms a newsletter address (double opt-in). */
export function confirmationLink(publicUrl: URL, secret: string, email: string, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + CONFIRM_LINK_TTL_S;
  const url = new URL("/api/marketing/confirm", publicUrl);
  url.searchParams.set("email", email);
  url.searchParams.set("expires", String(expires));
  url.searchParams.set("sig", signature(secret, email, expires));
  return url.toString();
}

/** Whether a link's parameters carry a valid, unexpired signature. */
export function verifyConfirmation(
  secret: string,
  input: { email: string; expires: number; sig: string },
  now = Date.now(),
): boolean {
  if (input.expires * 1000 < now) return false;
  const expected = Buffer.from(signature(secret, input.email, input.expires));
  const given = Buffer.from(input.sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
