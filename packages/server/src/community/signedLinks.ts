import { createHmac, timingSafeEqual } from "node:crypto";

/** How long a confirmation link works. */
export const CONFIRM_LINK_TTL_S = 7 * 24 * 60 * 60;

/**
 * What a link confirms and the values it carries, in a fixed order. The purpose is part of the
 * signature, so a newsletter link cannot confirm a profile email and the other way round.
 */
type LinkClaim = { purpose: "newsletter-confirm" | "profile-email"; values: Record<string, string> };

const signature = (secret: string, claim: LinkClaim, expires: number) =>
  createHmac("sha256", secret)
    .update(`${claim.purpose}\n${Object.values(claim.values).join("\n")}\n${expires}`)
    .digest("base64url");

/** A signed link to `path` carrying the claim's values, valid for CONFIRM_LINK_TTL_S (double opt-in). */
export function signedLink(
  publicUrl: URL,
  secret: string,
  path: string,
  claim: LinkClaim,
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + CONFIRM_LINK_TTL_S;
  const url = new URL(path, publicUrl);
  for (const [name, value] of Object.entries(claim.values)) url.searchParams.set(name, value);
  url.searchParams.set("expires", String(expires));
  url.searchParams.set("sig", signature(secret, claim, expires));
  return url.toString();
}

/** Whether a link's parameters carry a valid, unexpired signature for the claim. */
export function verifySignedLink(
  secret: string,
  claim: LinkClaim,
  link: { expires: number; sig: string },
  now = Date.now(),
): boolean {
  if (link.expires * 1000 < now) return false;
  const expected = Buffer.from(signature(secret, claim, link.expires));
  const given = Buffer.from(link.sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
