import { MESSAGES } from "@easel/common";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SessionInfo } from "../auth/siwe.ts";
import type { Viewer } from "../browse/cards.ts";
import { type Profile, profiles } from "../db/schema.ts";
import { ApiError } from "../errors.ts";
import { currentSession } from "./auth.ts";

/**
 * The signed-in wallet, or a 401. Before a write (any method but GET and HEAD) a contract wallet's sign-in is
 * asked of the wallet again: one whose owner changed since is signed out.
 */
export async function requireSession(app: FastifyInstance, request: FastifyRequest): Promise<SessionInfo> {
  const strict = request.method !== "GET" && request.method !== "HEAD";
  const session = await currentSession(app, request, { strict });
  if (!session) throw new ApiError(401, "unauthenticated", MESSAGES.signInRequired);
  return session;
}

/**
 * The signed-in wallet and its profile, for calls that change something: a 401 when signed out and
 * a 403 ("you are not registered!") when the profile is inactive (banned).
 */
export async function requireActiveUser(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<{ session: SessionInfo; profile: Profile }> {
  const session = await requireSession(app, request);
  const [profile] = await app.deps.db
    .select()
    .from(profiles)
    .where(eq(profiles.address, session.address))
    .limit(1);
  if (!profile?.active) throw new ApiError(403, "inactive_profile", MESSAGES.notRegistered);
  return { session, profile };
}

/** Who is asking, for browse lists: moderators also see blocked collections and tokens (marked). */
export async function viewerOf(app: FastifyInstance, request: FastifyRequest): Promise<Viewer> {
  const address = (await currentSession(app, request))?.address ?? null;
  return { address, moderator: isAdmin(app, address) };
}

export function isAdmin(app: FastifyInstance, address: string | null | undefined): boolean {
  return !!address && app.deps.config.adminAddresses.includes(address.toLowerCase() as `0x${string}`);
}

/** A moderator's session: 401 when signed out, 403 for everyone not in ADMIN_ADDRESSES. */
export async function requireAdmin(app: FastifyInstance, request: FastifyRequest): Promise<SessionInfo> {
  const session = await requireSession(app, request);
  if (!isAdmin(app, session.address)) throw new ApiError(403, "forbidden", MESSAGES.adminOnly);
  return session;
}

/** The PostgreSQL error behind a (possibly wrapped) driver error. */
export function pgError(error: unknown): { code?: string; constraint?: string } | null {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const candidate = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return { code: candidate.code, constraint: candidate.constraint as string | undefined };
    }
    e = candidate.cause;
  }
  return null;
}

export const badRequest = (code: string, field: string, message: string) =>
  new ApiError(400, code, message, { [field]: message });

/**
 * The key of a per-user rate limit: the signed-in wallet, else the client's address. Keying on the raw
 * cookie let any random cookie (or signing in again) start a fresh allowance.
 */
export function walletOrIpKey(app: FastifyInstance) {
  return async (request: FastifyRequest): Promise<string> => {
    const session = await currentSession(app, request).catch(() => null);
    return session ? `wallet:${session.address.toLowerCase()}` : `ip:${request.ip}`;
  };
}
