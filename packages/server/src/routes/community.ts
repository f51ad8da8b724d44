import {
  type ArtistApplication,
  apiErrorSchema,
  artistApplicationRequestSchema,
  artistApplicationResponseSchema,
  contactRequestSchema,
  MESSAGES,
  messageResponseSchema,
  newsletterConfirmSchema,
  newsletterRequestSchema,
  reportRequestSchema,
  reportResponseSchema,
} from "@easel/common";
import { and, count, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_CONFIRMATIONS_PER_ADDRESS_PER_DAY } from "../community/profileEmail.ts";
import { signedLink, verifySignedLink } from "../community/signedLinks.ts";
import { chainCollections, chainTokens } from "../db/chain-schema.ts";
import type { Database } from "../db/client.ts";
import {
  artistApplications,
  contactMessages,
  lazyItems,
  mailOutbox,
  newsletterSubscriptions,
  profiles,
  reports,
} from "../db/schema.ts";
import { ApiError } from "../errors.ts";
import { queueMail } from "../mail/outbox.ts";
import { currentSession } from "./auth.ts";
import { requireActiveUser, requireSession, walletOrIpKey } from "./guards.ts";

/** A pending address gets at most one confirmation mail per this interval, however often it subscribes. */
const RESEND_INTERVAL_MS = 60_000;
export const NEWSLETTER_CONFIRM_SUBJECT = "Confirm your subscription to the Easel newsletter";
/**
 * An address nobody confirms gets this many confirmation mails in all, then no more: subscribing a stranger
 * in a loop otherwise mailed them once a minute forever. (A day holds at most the profile email's cap.)
 */
export const NEWSLETTER_MAX_CONFIRMATIONS = 5;

export function toApplication(row: typeof artistApplications.$inferSelect): ArtistApplication {
  return {
    _id: row.id,
    address: row.address,
    profileURL: row.profileUrl,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role as ArtistApplication["role"],
    portfolio: row.portfolio,
    description: row.description,
    status: row.status as ArtistApplication["status"],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    reviewedBy: row.reviewedBy,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  };
}

/**
 * The community's forms: newsletter (double opt-in), reports, contact messages and artist
 * applications. The newsletter and the contact form are open to visitors (the footer and the
 * contact page have no sign-in), with a tight rate limit; the others need a session.
 */
export const communityRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.deps;
  // Visitors' forms are limited per IP; signed-in forms per wallet, so people behind one NAT do not
  // share a budget and a new cookie does not reset one.
  const formLimit = { rateLimit: { max: 10, timeWindow: "1 minute" } };
  const userFormLimit = {
    rateLimit: {
      max: 30,
      timeWindow: "1 minute",
      keyGenerator: walletOrIpKey(app),
    },
  };

  app.post(
    "/marketing/subscribe",
    {
      config: formLimit,
      schema: {
        summary: "Subscribe an email address to the newsletter (a confirmation mail follows)",
        body: newsletterRequestSchema,
        response: { 200: messageResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const { email } = request.body;
      const queued = await db.transaction(async (tx) => {
        await tx.insert(newsletterSubscriptions).values({ email }).onConflictDoNothing();
        const [row] = await tx
          .select()
          .from(newsletterSubscriptions)
          .where(eq(newsletterSubscriptions.email, email))
          .for("update");
        // Subscribing twice is not an error: a confirmed address gets no more mail, a pending one
        // gets its confirmation again (at most once a minute).
        if (!row || row.confirmedAt) return false;
        if (row.lastMailAt && Date.now() - row.lastMailAt.getTime() < RESEND_INTERVAL_MS) return false;
        // The outbox keeps every mail: what it holds for this address is what was sent to it.
        const [sent] = await tx
          .select({
            total: count(),
            today: count(sql`CASE WHEN ${mailOutbox.createdAt} > now() - interval '1 day' THEN 1 END`),
          })
          .from(mailOutbox)
          .where(and(eq(mailOutbox.to, email), eq(mailOutbox.subject, NEWSLETTER_CONFIRM_SUBJECT)));
        if ((sent?.today ?? 0) >= MAX_CONFIRMATIONS_PER_ADDRESS_PER_DAY) return false;
        if ((sent?.total ?? 0) >= NEWSLETTER_MAX_CONFIRMATIONS) return false;
        await tx
          .update(newsletterSubscriptions)
          .set({ lastMailAt: new Date() })
          .where(eq(newsletterSubscriptions.email, email));
        const link = signedLink(config.publicUrl, config.emailLinkSecret, "/newsletter/confirm", {
          purpose: "newsletter-confirm",
          values: { email },
        });
        await queueMail(tx, [
          {
            to: email,
            subject: NEWSLETTER_CONFIRM_SUBJECT,
            text: [
              "Hello,",
              "",
              "Someone (we hope you) asked to receive the Easel newsletter at this address.",
              "Please confirm your subscription by opening this link:",
              "",
              link,
              "",
              "If you did not ask for it, ignore this mail and you will not hear from us again.",
            ].join("\n"),
          },
        ]);
        return true;
      });
      if (queued) app.mail.flush();
      return { message: MESSAGES.newsletterThanks };
    },
  );

  // Links mailed before confirmation moved to a page: send them there. A GET never confirms, because mail
  // scanners open links; the page's button does (POST below).
  app.get(
    "/marketing/confirm",
    {
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      schema: {
        summary: "An old confirmation link: redirects to the confirmation page, which confirms with a button",
        response: { 303: z.null() },
      },
    },
    async (request, reply) => {
      const query = request.raw.url?.split("?")[1] ?? "";
      return reply.redirect(`/newsletter/confirm${query ? `?${query}` : ""}`, 303);
    },
  );

  app.post(
    "/marketing/confirm",
    {
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      schema: {
        summary: "Confirm a newsletter subscription with the signed values of the mail's link",
        body: newsletterConfirmSchema,
        response: { 200: messageResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const { email, expires, sig } = request.body;
      const claim = { purpose: "newsletter-confirm", values: { email } } as const;
      if (!verifySignedLink(config.emailLinkSecret, claim, { expires, sig })) {
        throw new ApiError(400, "invalid_link", MESSAGES.newsletterLinkInvalid);
      }
      const rows = await db
        .update(newsletterSubscriptions)
        .set({ confirmedAt: sql`coalesce(${newsletterSubscriptions.confirmedAt}, now())` })
        .where(eq(newsletterSubscriptions.email, email))
        .returning({ email: newsletterSubscriptions.email });
      if (rows.length === 0) throw new ApiError(400, "invalid_link", MESSAGES.newsletterLinkInvalid);
      return { message: MESSAGES.newsletterConfirmed };
    },
  );

  app.post(
    "/reports",
    {
      config: userFormLimit,
      schema: {
        summary: "Report a profile, collection or item to the moderators",
        body: reportRequestSchema,
        response: {
          200: reportResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      const target = await reportTarget(db, request.body.targetType, request.body.targetId);
      if (!target) {
        throw new ApiError(400, "invalid_request", MESSAGES.reportTarget, {
          targetId: MESSAGES.reportTarget,
        });
      }
      // One does not report oneself or one's collection; an item's owner may report it (the spec's item menu
      // offers its owner Report: a counterfeit they bought, a file that broke).
      if (request.body.targetType !== "item" && target.account === session.address) {
        throw new ApiError(400, "invalid_request", MESSAGES.reportOwn, { targetId: MESSAGES.reportOwn });
      }
      const [row] = await db
        .insert(reports)
        .values({ reporter: session.address, ...request.body })
        .returning({ id: reports.id });
      return { message: MESSAGES.reportRegistered, data: { _id: row?.id ?? "" } };
    },
  );

  app.post(
    "/contact",
    {
      config: formLimit,
      schema: {
        summary: "Send a message to Easel's operators (stored, and mailed to OPERATOR_EMAILS)",
        body: contactRequestSchema,
        response: { 200: messageResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const session = await currentSession(app, request);
      const { name, email, message } = request.body;
      await db.transaction(async (tx) => {
        await tx.insert(contactMessages).values({ name, email, message, address: session?.address ?? null });
        await queueMail(
          tx,
          config.operatorEmails.map((to) => ({
            to,
            subject: `Easel contact form: message from ${name.slice(0, 60)}`,
            text: [
              `From: ${name} <${email}>`,
              session ? `Wallet: ${session.address}` : "Wallet: not signed in",
              "",
              message,
            ].join("\n"),
          })),
        );
      });
      if (config.operatorEmails.length > 0) app.mail.flush();
      else request.log.warn("contact message stored; set OPERATOR_EMAILS to have it mailed");
      return { message: MESSAGES.contactSent };
    },
  );

  app.get(
    "/artist-applications/mine",
    {
      schema: {
        summary: "The signed-in user's artist application, if any",
        response: { 200: artistApplicationResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const session = await requireSession(app, request);
      const [row] = await db
        .select()
        .from(artistApplications)
        .where(eq(artistApplications.address, session.address))
        .limit(1);
      return { data: { application: row ? toApplication(row) : null } };
    },
  );

  app.post(
    "/artist-applications",
    {
      config: userFormLimit,
      schema: {
        summary: "Apply (or re-apply) to become a verified artist; the application becomes pending",
        body: artistApplicationRequestSchema,
        response: {
          200: artistApplicationResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      const { profileURL, name, email, phone, role, portfolio, description } = request.body;
      const fields = {
        profileUrl: profileURL,
        name,
        email,
        phone,
        role,
        portfolio: portfolio ?? null,
        description: description ?? null,
      };
      const row = await db.transaction(async (tx) => {
        const [existing] = await tx
          .select()
          .from(artistApplications)
          .where(eq(artistApplications.address, session.address))
          .for("update");
        if (existing?.status === "approved") {
          throw new ApiError(400, "already_approved", MESSAGES.applicationAlreadyApproved);
        }
        const [saved] = await tx
          .insert(artistApplications)
          .values({ address: session.address, ...fields })
          .onConflictDoUpdate({
            target: artistApplications.address,
            set: { ...fields, status: "pending", reviewedBy: null, reviewedAt: null, updatedAt: new Date() },
          })
          .returning();
        return saved;
      });
      return { message: MESSAGES.applicationThanks, data: { application: row ? toApplication(row) : null } };
    },
  );
};

/**
 * A report's target, if it exists: a member's profile, an indexed collection, an indexed token or a lazy
 * item; with the account it belongs to (the member, the collection's owner, the token's owner or the lazy
 * item's creator).
 */
async function reportTarget(db: Database, type: string, id: string): Promise<{ account: string } | null> {
  if (type === "profile") {
    const [row] = await db
      .select({ account: profiles.address })
      .from(profiles)
      .where(eq(profiles.address, id))
      .limit(1);
    return row ?? null;
  }
  if (type === "collection") {
    const [row] = await db
      .select({ account: chainCollections.owner })
      .from(chainCollections)
      .where(eq(chainCollections.address, id))
      .limit(1);
    return row ?? null;
  }
  const [collection = "", tokenId = ""] = id.split(":");
  const [token] = await db
    .select({ account: chainTokens.owner })
    .from(chainTokens)
    .where(and(eq(chainTokens.collection, collection), eq(chainTokens.tokenId, tokenId)))
    .limit(1);
  if (token) return token;
  const [lazy] = await db
    .select({ account: lazyItems.creator })
    .from(lazyItems)
    .where(and(eq(lazyItems.collection, collection), eq(lazyItems.tokenId, tokenId)))
    .limit(1);
  return lazy ?? null;
}
