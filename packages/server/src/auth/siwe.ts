import { createHash, randomBytes } from "node:crypto";
import { NONCE_TTL_MS, normalizeAddress, SESSION_TTL_MS, SIWE_STATEMENT } from "@easel/common";
import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { PublicClient } from "viem";
import { verifyMessage } from "viem";
import { generateSiweNonce, parseSiweMessage, type SiweMessage } from "viem/siwe";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { authNonces, profiles, sessions } from "../db/schema.ts";
import { unauthorized } from "../errors.ts";
import type { DbOrTx } from "../mail/outbox.ts";

/** Clock skew tolerated between the wallet's clock and ours. */
const CLOCK_SKEW_MS = 60_000;

export type AuthDeps = { db: Database; config: Config; chain: PublicClient };

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Issues a single-use nonce that expires after NONCE_TTL_MS. */
export async function issueNonce(db: Database, now = new Date()): Promise<string> {
  const nonce = generateSiweNonce();
  await db.insert(authNonces).values({ nonce, expiresAt: new Date(now.getTime() + NONCE_TTL_MS) });
  return nonce;
}

type VerifiedSignIn = { token: string; address: `0x${string}`; expiresAt: Date };

/**
 * Verifies an EIP-4361 message and its signature, consumes its nonce, creates the profile on first
 * sign-in and opens a session. Every failure is a 401 ApiError with a message a person can act on.
 */
export async function signIn(
  { db, config, chain }: AuthDeps,
  input: { message: string; signature: string },
  now = new Date(),
): Promise<VerifiedSignIn> {
  const fields = parseMessage(input.message);
  checkFields(fields, config, now);

  const signature = /^0x[0-9a-fA-F]+$/.test(input.signature) ? (input.signature as `0x${string}`) : null;
  if (!signature || !(await signatureMatches(chain, fields.address, input.message, signature))) {
    throw unauthorized(
      "invalid_signature",
      "The signature does not match the wallet address in the message.",
    );
  }

  const address = normalizeAddress(fields.address);
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);

  await db.transaction(async (tx) => {
    const consumed = await tx
      .update(authNonces)
      .set({ usedAt: now })
      .where(
        and(eq(authNonces.nonce, fields.nonce), isNull(authNonces.usedAt), gt(authNonces.expiresAt, now)),
      )
      .returning({ nonce: authNonces.nonce });
    if (consumed.length === 0) {
      throw unauthorized(
        "invalid_nonce",
        "This sign-in request has expired or was already used. Please sign in again.",
      );
    }
    await tx.insert(profiles).values({ address }).onConflictDoNothing({ target: profiles.address });
    await tx
      .insert(sessions)
      .values({ tokenHash: hashToken(token), address, chainId: config.chainId, expiresAt });
  });

  return { token, address, expiresAt };
}

type CompleteSiweMessage = SiweMessage & { address: `0x${string}`; nonce: string; issuedAt: Date };

function parseMessage(message: string): CompleteSiweMessage {
  let fields: Partial<SiweMessage>;
  try {
    fields = parseSiweMessage(message);
  } catch {
    fields = {};
  }
  const { address, domain, uri, version, chainId, nonce, issuedAt } = fields;
  if (!address || !domain || !uri || version !== "1" || chainId === undefined || !nonce || !issuedAt) {
    throw unauthorized("invalid_message", "The sign-in message is malformed. Please sign in again.");
  }
  return fields as CompleteSiweMessage;
}

function checkFields(fields: CompleteSiweMessage, config: Config, now: Date): void {
  if (!config.siweDomains.includes(fields.domain)) {
    throw unauthorized("wrong_domain", `This sign-in message is for another website (${fields.domain}).`);
  }
  // The URI must be this site's own origin: its scheme, the signed domain, no user info.
  let uri: URL | null = null;
  try {
    uri = new URL(fields.uri);
  } catch {
    // handled below
  }
  const ownOrigin = `${config.publicUrl.protocol}//${fields.domain}`;
  if (!uri || uri.origin !== ownOrigin || uri.username !== "" || uri.password !== "") {
    throw unauthorized("wrong_uri", "The sign-in message names a URI on another website.");
  }
  if (fields.chainId !== config.chainId) {
    throw unauthorized(
      "wrong_chain",
      `Please sign in on chain ${config.chainId}; the message was signed for chain ${fields.chainId}.`,
    );
  }
  if (fields.statement !== SIWE_STATEMENT) {
    throw unauthorized("wrong_statement", "The sign-in message must accept the Easel Terms of Service.");
  }
  const t = now.getTime();
  const expired =
    (fields.expirationTime && fields.expirationTime.getTime() <= t) ||
    fields.issuedAt.getTime() < t - NONCE_TTL_MS;
  if (expired) {
    throw unauthorized("expired", "This sign-in message has expired. Please sign in again.");
  }
  if (
    (fields.notBefore && fields.notBefore.getTime() > t + CLOCK_SKEW_MS) ||
    fields.issuedAt.getTime() > t + CLOCK_SKEW_MS
  ) {
    throw unauthorized("not_yet_valid", "This sign-in message is not valid yet. Check your device's clock.");
  }
}

/** EOA signatures are checked offline; smart-contract wallets (ERC-1271/6492) through the chain. */
async function signatureMatches(
  chain: PublicClient,
  address: `0x${string}`,
  message: string,
  signature: `0x${string}`,
): Promise<boolean> {
  try {
    if (await verifyMessage({ address, message, signature })) return true;
  } catch {
    return false;
  }
  try {
    const code = await chain.getCode({ address });
    if (!code || code === "0x") return false;
    return await chain.verifyMessage({ address, message, signature });
  } catch {
    return false;
  }
}

export type SessionInfo = { id: string; address: `0x${string}`; chainId: number; expiresAt: Date };

export async function findSession(
  db: Database,
  token: string,
  now = new Date(),
): Promise<SessionInfo | null> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row) return null;
  return {
    id: row.id,
    address: row.address as `0x${string}`,
    chainId: row.chainId,
    expiresAt: row.expiresAt,
  };
}

export async function endSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/** Ends every session of `address` (sign out everywhere; a ban). */
export async function endAllSessions(db: Database | DbOrTx, address: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.address, address.toLowerCase()));
}

/** Deletes expired sessions and nonces that can no longer be used. Returns how many rows went. */
export async function purgeExpiredAuth(db: Database, now = new Date()): Promise<number> {
  const goneSessions = await db
    .delete(sessions)
    .where(lt(sessions.expiresAt, now))
    .returning({ id: sessions.id });
  const goneNonces = await db
    .delete(authNonces)
    .where(or(lt(authNonces.expiresAt, now), sql`${authNonces.usedAt} IS NOT NULL`))
    .returning({ nonce: authNonces.nonce });
  return goneSessions.length + goneNonces.length;
}
