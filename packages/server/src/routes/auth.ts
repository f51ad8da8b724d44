import {
  apiErrorSchema,
  nonceResponseSchema,
  SESSION_COOKIE,
  SIWE_STATEMENT,
  sessionResponseSchema,
  verifyRequestSchema,
} from "@easel/common";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  endAllSessions,
  endSession,
  findSession,
  issueNonce,
  recheckWalletSession,
  type SessionInfo,
  signIn,
} from "../auth/siwe.ts";
import { lazyCollectionsLeft } from "../collections/lazyAllowance.ts";
import { countNewNotifications } from "../community/notifications.ts";
import type { Config } from "../config.ts";
import { profiles } from "../db/schema.ts";
import { unauthorized } from "../errors.ts";

/**
 * The session cookie's name. Over https it is `__Host-` prefixed: browsers then accept it only from this
 * exact host, secure, for path /, so no sibling subdomain can plant or overwrite it.
 */
export function sessionCookieName(config: Config): string {
  return config.publicUrl.protocol === "https:" ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/**
 * The session of the request's cookie, or null. A contract wallet's session is asked of its wallet again
 * (`recheckWalletSession`): with `strict` (before a write) every time, else once WALLET_RECHECK_MS has passed.
 */
export async function currentSession(
  app: FastifyInstance,
  request: FastifyRequest,
  { strict = false }: { strict?: boolean } = {},
): Promise<SessionInfo | null> {
  const token = request.cookies[sessionCookieName(app.deps.config)];
  const session = token ? await findSession(app.deps.db, token) : null;
  return session?.wallet ? recheckWalletSession(app.deps, session, { strict }) : session;
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.deps;
  const secure = config.publicUrl.protocol === "https:";
  const cookieName = sessionCookieName(config);
  const clearCookie = (reply: FastifyReply) =>
    reply.clearCookie(cookieName, { path: "/", httpOnly: true, sameSite: "lax", secure });

  app.get(
    "/nonce",
    {
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      schema: {
        summary: "A single-use nonce and the statement to sign",
        response: { 200: nonceResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return { nonce: await issueNonce(db), statement: SIWE_STATEMENT };
    },
  );

  app.post(
    "/verify",
    {
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      schema: {
        summary: "Sign in with an EIP-4361 message and its signature",
        body: verifyRequestSchema,
        response: { 200: z.object({ address: z.string(), expiresAt: z.string() }), 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { token, address, expiresAt } = await signIn(app.deps, request.body);
      reply.setCookie(cookieName, token, {
        path: "/",
        httpOnly: true,
        sameSite: "lax",
        secure,
        expires: expiresAt,
      });
      return { address, expiresAt: expiresAt.toISOString() };
    },
  );

  app.get(
    "/session",
    { schema: { summary: "The signed-in wallet, if any", response: { 200: sessionResponseSchema } } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const session = await currentSession(app, request);
      if (!session) {
        if (request.cookies[cookieName]) clearCookie(reply);
        return { session: null, profile: null, numberOfNewNotif: 0 };
      }
      const [profile] = await db
        .select()
        .from(profiles)
        .where(eq(profiles.address, session.address))
        .limit(1);
      const { rows: account } = await db.execute<{ verified_artist: boolean; banned: boolean }>(
        sql`SELECT verified_artist, banned FROM chain_accounts WHERE address = ${session.address}`,
      );
      const artist = account[0]?.verified_artist === true && account[0]?.banned !== true;
      return {
        session: {
          address: session.address,
          chainId: session.chainId,
          expiresAt: session.expiresAt.toISOString(),
        },
        profile: profile
          ? {
              address: profile.address,
              username: profile.username,
              name: profile.name,
              avatar: profile.avatar,
              active: profile.active,
              permission: {
                collection: {
                  lazyCollection: profile.lazyCollections,
                  lazyCollectionsLeft: await lazyCollectionsLeft(
                    db,
                    session.address,
                    profile.lazyCollections,
                  ),
                },
                mint: artist,
              },
            }
          : null,
        numberOfNewNotif: await countNewNotifications(db, session.address),
      };
    },
  );

  app.post(
    "/logout-everywhere",
    {
      schema: {
        summary: "End every session of the signed-in wallet, on every device",
        response: { 200: z.object({ ok: z.literal(true) }), 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const session = await currentSession(app, request, { strict: true });
      if (!session) throw unauthorized("not_signed_in", "Please sign in.");
      await endAllSessions(db, session.address);
      clearCookie(reply);
      return { ok: true as const };
    },
  );

  app.post(
    "/logout",
    { schema: { summary: "End the current session", response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (request, reply) => {
      const token = request.cookies[cookieName];
      if (token) await endSession(db, token);
      clearCookie(reply);
      return { ok: true as const };
    },
  );
};
