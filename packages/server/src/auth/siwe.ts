import { createHash, randomBytes } from "node:crypto";
import { NONCE_TTL_MS, normalizeAddress, SESSION_TTL_MS, SIWE_STATEMENT } from "@easel/common";
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { PublicClient } from "viem";
import { hashMessage, isErc6492Signature, parseErc6492Signature, verifyMessage } from "viem";
import { generateSiweNonce, parseSiweMessage, type SiweMessage } from "viem/siwe";
import type { Config } from "../config.ts";
import { isChainUnavailable } from "../db/availability.ts";
import type { Database } from "../db/client.ts";
import { authNonces, profiles, sessions } from "../db/schema.ts";
import { ApiError, unauthorized } from "../errors.ts";
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
  const signer = signature ? await signatureMatches(chain, fields.address, input.message, signature) : null;
  if (!signature || !signer) {
    throw unauthorized(
      "invalid_signature",
      "The signature does not match the wallet address in the message.",
    );
  }
  // A contract wallet's owners may change: what it accepted is kept so it can be asked again (walletStillSigns).
  const wallet =
    signer === "contract"
      ? { walletMessageHash: hashMessage(input.message), walletSignature: signature, walletCheckedAt: now }
      : {};

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
      .values({ tokenHash: hashToken(token), address, chainId: config.chainId, expiresAt, ...wallet });
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

/**
 * Who signed: "eoa" when the address's own key did (checked offline), "contract" when a smart-contract wallet
 * accepts the signature (ERC-1271/6492, through the chain), null when neither.
 */
async function signatureMatches(
  chain: PublicClient,
  address: `0x${string}`,
  message: string,
  signature: `0x${string}`,
): Promise<"eoa" | "contract" | null> {
  try {
    if (await verifyMessage({ address, message, signature })) return "eoa";
  } catch {
    return null;
  }
  try {
    const code = await chain.getCode({ address });
    if (!code || code === "0x") return null;
    return (await chain.verifyMessage({ address, message, signature })) ? "contract" : null;
  } catch {
    return null;
  }
}

/**
 * How long a contract wallet's sign-in holds for reads before the wallet is asked again whether the signature
 * is still its own. A write always asks first (`requireSession`).
 */
export const WALLET_RECHECK_MS = 15 * 60_000;

/** What a contract wallet accepted at sign-in: null for an EOA's session. */
export type WalletProof = { messageHash: `0x${string}`; signature: `0x${string}`; checkedAt: Date };

export type SessionInfo = {
  id: string;
  address: `0x${string}`;
  chainId: number;
  expiresAt: Date;
  wallet: WalletProof | null;
};

const ERC1271_MAGIC = "0x1626ba7e";
const erc1271Abi = [
  {
    type: "function",
    name: "isValidSignature",
    stateMutability: "view",
    inputs: [
      { name: "hash", type: "bytes32" },
      { name: "signature", type: "bytes" },
    ],
    outputs: [{ name: "", type: "bytes4" }],
  },
] as const;

/**
 * Whether the contract wallet at `address` still accepts `signature` of `messageHash` (ERC-1271
 * `isValidSignature`): false when it answers anything but the magic value, reverts, or has no code any more.
 * An ERC-6492 signature (given before the wallet was deployed) is unwrapped once the wallet exists; until then
 * its factory decides, which cannot change. Throws when the chain cannot answer.
 */
export async function walletStillSigns(
  chain: PublicClient,
  address: `0x${string}`,
  messageHash: `0x${string}`,
  signature: `0x${string}`,
): Promise<boolean> {
  let inner = signature;
  if (isErc6492Signature(signature)) {
    const code = await chain.getCode({ address });
    if (!code || code === "0x") return true;
    inner = parseErc6492Signature(signature).signature;
  }
  try {
    const answer = await chain.readContract({
      address,
      abi: erc1271Abi,
      functionName: "isValidSignature",
      args: [messageHash, inner],
    });
    return answer.toLowerCase() === ERC1271_MAGIC;
  } catch (error) {
    if (isChainUnavailable(error)) throw error;
    return false;
  }
}

/**
 * A session, checked again with its contract wallet when it is one: on every write (`strict`), and on reads once
 * its last check is WALLET_RECHECK_MS old. A wallet that no longer accepts its sign-in (an owner changed, a Safe's
 * signers rotated, a passkey removed) ends that session, and every other of its sessions it refuses too; the
 * answer is then null. When the chain cannot answer, a read keeps the session (asked again next time) and a
 * write is refused with a 503.
 */
export async function recheckWalletSession(
  { db, chain }: { db: Database; chain: PublicClient },
  session: SessionInfo,
  { strict, now = new Date() }: { strict: boolean; now?: Date },
): Promise<SessionInfo | null> {
  const proof = session.wallet;
  if (!proof) return session;
  if (!strict && now.getTime() - proof.checkedAt.getTime() < WALLET_RECHECK_MS) return session;
  let valid: boolean;
  try {
    valid = await walletStillSigns(chain, session.address, proof.messageHash, proof.signature);
  } catch {
    if (!strict) return session;
    throw new ApiError(
      503,
      "unavailable",
      "Easel could not ask your wallet's contract whether you are still signed in. Try again in a moment.",
    );
  }
  if (valid) {
    await db.update(sessions).set({ walletCheckedAt: now }).where(eq(sessions.id, session.id));
    return { ...session, wallet: { ...proof, checkedAt: now } };
  }
  await db.delete(sessions).where(eq(sessions.id, session.id));
  await endRefusedWalletSessions({ db, chain }, session.address);
  return null;
}

/** Ends the wallet's other sessions whose sign-in it no longer accepts (those it still accepts stay). */
async function endRefusedWalletSessions(
  { db, chain }: { db: Database; chain: PublicClient },
  address: `0x${string}`,
): Promise<void> {
  const others = await db
    .select({ id: sessions.id, hash: sessions.walletMessageHash, signature: sessions.walletSignature })
    .from(sessions)
    .where(and(eq(sessions.address, address), isNotNull(sessions.walletSignature)));
  for (const other of others) {
    const accepted = await walletStillSigns(
      chain,
      address,
      other.hash as `0x${string}`,
      other.signature as `0x${string}`,
    ).catch(() => true); // the chain did not answer: that session is asked again on its own next use
    if (!accepted) await db.delete(sessions).where(eq(sessions.id, other.id));
  }
}

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
    wallet:
      row.walletSignature && row.walletMessageHash
        ? {
            messageHash: row.walletMessageHash as `0x${string}`,
            signature: row.walletSignature as `0x${string}`,
            checkedAt: row.walletCheckedAt ?? new Date(0),
          }
        : null,
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
