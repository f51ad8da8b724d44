import {
  ADMIN_USERS_PAGE_SIZE,
  APPLICATION_STATUSES,
  adminApplicationsResponseSchema,
  adminPermissionSchema,
  adminReportsResponseSchema,
  adminReportUpdateSchema,
  adminUserResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  apiErrorSchema,
  artistApplicationResponseSchema,
  BROWSE_MESSAGES,
  categoryIdSchema,
  categorySchema,
  categoryTitleSchema,
  categoryUpdateSchema,
  featureCollectionSchema,
  heldPaymentsResponseSchema,
  lowercaseAddressSchema,
  REPORT_STATUSES,
  type Report,
  reportSchema,
} from "@easel/common";
import { asc, desc, eq, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { endAllSessions } from "../auth/siwe.ts";
import { toCategory } from "../browse/cards.ts";
import { notify } from "../community/notify.ts";
import { personAt, personColumns, personJoin } from "../community/people.ts";
import { chainCollections } from "../db/chain-schema.ts";
import type { Database } from "../db/client.ts";
import { artistApplications, categories, collectionDetails, profiles, reports } from "../db/schema.ts";
import { dateOf } from "../db/timestamps.ts";
import { ApiError } from "../errors.ts";
import { toApplication } from "./community.ts";
import { badRequest, isAdmin, pgError, requireAdmin } from "./guards.ts";
import { forgetHomePage } from "./home.ts";

const idParams = z.object({ id: z.uuid("Not found") });
const addressParams = z.object({
  address: lowercaseAddressSchema,
});
/** Two artwork types cannot share a title, ignoring case (a unique index says so). */
function titleTaken(error: unknown): never {
  if (pgError(error)?.code === "23505")
    throw badRequest("category_taken", "title", BROWSE_MESSAGES.categoryTaken);
  throw error;
}

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

/** The reporter's and the reported user's profiles, joined with each report (as `community/people.ts` does). */
const reporterProfile = alias(profiles, "reporter_profile");
const targetProfile = alias(profiles, "target_profile");
type Names = { name: string | null; username: string | null; ens: string | null };
const person = (address: string, n: Names) => ({
  address,
  name: n.name || null,
  username: n.username || null,
  ens: n.ens || null,
});

/** Reports with the names of their reporter and of the reported user: one query for the list. */
async function reportsWithPeople(db: Database, where: SQL | undefined, limit: number): Promise<Report[]> {
  // Flat columns: drizzle reads a nested object of a left-joined alias as null when its table is "profiles".
  const rows = await db
    .select({
      report: reports,
      reporterName: reporterProfile.name,
      reporterUsername: reporterProfile.username,
      reporterEns: reporterProfile.ens,
      targetName: targetProfile.name,
      targetUsername: targetProfile.username,
      targetEns: targetProfile.ens,
    })
    .from(reports)
    .leftJoin(reporterProfile, eq(reporterProfile.address, reports.reporter))
    .leftJoin(
      targetProfile,
      sql`${reports.targetType} = 'profile' AND ${targetProfile.address} = ${reports.targetId}`,
    )
    .where(where)
    .orderBy(asc(reports.createdAt))
    .limit(limit);
  return rows.map((row) =>
    toReport(
      row.report,
      { name: row.reporterName, username: row.reporterUsername, ens: row.reporterEns },
      { name: row.targetName, username: row.targetUsername, ens: row.targetEns },
    ),
  );
}

const NO_NAMES: Names = { name: null, username: null, ens: null };
const toReport = (row: typeof reports.$inferSelect, reporter: Names, target: Names): Report => ({
  _id: row.id,
  reporter: row.reporter,
  reporterPerson: person(row.reporter, reporter),
  targetPerson: row.targetType === "profile" ? person(row.targetId, target) : null,
  reason: row.reason as Report["reason"],
  email: row.email,
  description: row.description,
  targetType: row.targetType as Report["targetType"],
  targetId: row.targetId,
  status: row.status as Report["status"],
  createdAt: row.createdAt.toISOString(),
  reviewedBy: row.reviewedBy,
  reviewedAt: row.reviewedAt?.toISOString() ?? null,
});

const toAdminUser = (row: typeof profiles.$inferSelect) => ({
  _id: row.id,
  address: row.address,
  username: row.username,
  name: row.name,
  ens: row.ens,
  avatar: row.avatar,
  active: row.active,
  lazyCollections: row.lazyCollections,
  createdAt: row.createdAt.toISOString(),
});

/**
 * The moderators' API, for addresses in ADMIN_ADDRESSES: reports queue, artist applications,
 * bans and the user list. Every route answers 401 when signed out and 403 to everyone else.
 * Approving an application records the decision; making the artist verified on chain is the
 * moderator's own wallet transaction, sent by the admin screen.
 */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;
  app.addHook("onRequest", async (request, reply) => {
    reply.header("cache-control", "no-store");
    await requireAdmin(app, request);
  });

  app.get(
    "/held",
    {
      schema: {
        summary: "Payments the market holds for banned payees, per account: held now, released and forfeited",
        response: { 200: heldPaymentsResponseSchema, ...errors },
      },
    },
    async () => {
      // Summed from the stored events (`chain_events` keeps PaymentHeld, HeldPaymentReleased and
      // HeldPaymentForfeited, undone with their blocks on a reorg).
      // Each payee with their profile's names (`community/people.ts`).
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        SELECT h.*, ${personColumns("p", "payee")} FROM (
          SELECT args->>'account' AS account,
            coalesce(sum((args->>'amount')::numeric) FILTER (WHERE name = 'PaymentHeld'), 0) AS held,
            coalesce(sum((args->>'amount')::numeric) FILTER (WHERE name = 'HeldPaymentReleased'), 0) AS released,
            coalesce(sum((args->>'amount')::numeric) FILTER (WHERE name = 'HeldPaymentForfeited'), 0) AS forfeited,
            (array_agg(tx_hash ORDER BY block_number DESC, log_index DESC))[1] AS last_tx,
            max(block_time) AS last_at, max(block_number) AS last_block
          FROM chain_events
          WHERE address = ${app.deps.config.contracts.market}
            AND name IN ('PaymentHeld', 'HeldPaymentReleased', 'HeldPaymentForfeited')
          GROUP BY args->>'account'
        ) h ${personJoin("p", sql`lower(h.account)`)}
        ORDER BY h.last_block DESC`);
      let total = 0n;
      const data = rows.map((r) => {
        const held = BigInt(String(r.held)) - BigInt(String(r.released)) - BigInt(String(r.forfeited));
        total += held;
        return {
          account: String(r.account),
          person: personAt(r, "payee", String(r.account)),
          heldWei: held.toString(),
          releasedWei: String(r.released),
          forfeitedWei: String(r.forfeited),
          lastTx: String(r.last_tx) as `0x${string}`,
          lastAt: dateOf(r.last_at).toISOString(),
        };
      });
      return { data, totalHeldWei: total.toString() };
    },
  );

  app.get(
    "/reports",
    {
      schema: {
        summary: "Reports by status (open by default), oldest first",
        querystring: z.object({ status: z.enum([...REPORT_STATUSES, "all"]).default("open") }),
        response: { 200: adminReportsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { status } = request.query;
      const list = await reportsWithPeople(
        db,
        status === "all" ? undefined : eq(reports.status, status),
        500,
      );
      return { data: { reports: list } };
    },
  );

  app.put(
    "/reports/:id",
    {
      schema: {
        summary: "Close a report as resolved or dismissed",
        params: idParams,
        body: adminReportUpdateSchema,
        response: { 200: z.object({ data: z.object({ report: reportSchema }) }), ...errors },
      },
    },
    async (request) => {
      const session = await requireAdmin(app, request);
      const [row] = await db
        .update(reports)
        .set({ status: request.body.status, reviewedBy: session.address, reviewedAt: new Date() })
        .where(eq(reports.id, request.params.id))
        .returning();
      if (!row) throw new ApiError(404, "not_found", "Report not found.");
      const [report] = await reportsWithPeople(db, eq(reports.id, row.id), 1);
      return { data: { report: report ?? toReport(row, NO_NAMES, NO_NAMES) } };
    },
  );

  app.get(
    "/applications",
    {
      schema: {
        summary: "Artist applications by status (pending by default), oldest first",
        querystring: z.object({ status: z.enum([...APPLICATION_STATUSES, "all"]).default("pending") }),
        response: { 200: adminApplicationsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { status } = request.query;
      const rows = await db
        .select()
        .from(artistApplications)
        .where(status === "all" ? undefined : eq(artistApplications.status, status))
        .orderBy(asc(artistApplications.updatedAt))
        .limit(500);
      return { data: { applications: rows.map(toApplication) } };
    },
  );

  for (const decision of ["approve", "reject"] as const) {
    app.post(
      `/applications/:id/${decision}`,
      {
        schema: {
          summary: decision === "approve" ? "Approve an artist application" : "Reject an artist application",
          params: idParams,
          response: { 200: artistApplicationResponseSchema, ...errors },
        },
      },
      async (request) => {
        const session = await requireAdmin(app, request);
        const status = decision === "approve" ? "approved" : "rejected";
        const mailQueued = await db.transaction(async (tx) => {
          const [row] = await tx
            .update(artistApplications)
            .set({ status, reviewedBy: session.address, reviewedAt: new Date(), updatedAt: new Date() })
            .where(eq(artistApplications.id, request.params.id))
            .returning();
          if (!row) throw new ApiError(404, "not_found", "Application not found.");
          const result = await notify(tx, {
            address: row.address,
            kind: `application_${status}`,
            message:
              status === "approved"
                ? "Your artist application was approved. Welcome to Easel's artists!"
                : "Your artist application was not approved this time.",
          });
          return { row, mailQueued: result.mailQueued };
        });
        if (mailQueued.mailQueued) app.mail.flush();
        return { data: { application: toApplication(mailQueued.row) } };
      },
    );
  }

  app.get(
    "/users",
    {
      schema: {
        summary: "Users, newest first, optionally filtered by address or username prefix",
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { q, page } = request.query;
      const pattern = `${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db
        .select()
        .from(profiles)
        .where(
          q
            ? or(sql`${profiles.address} LIKE ${pattern}`, sql`lower(${profiles.username}) LIKE ${pattern}`)
            : undefined,
        )
        .orderBy(desc(profiles.createdAt), asc(profiles.address))
        .limit(ADMIN_USERS_PAGE_SIZE + 1)
        .offset((page - 1) * ADMIN_USERS_PAGE_SIZE);
      return {
        data: {
          users: rows.slice(0, ADMIN_USERS_PAGE_SIZE).map(toAdminUser),
          page,
          lastPage: rows.length <= ADMIN_USERS_PAGE_SIZE,
        },
      };
    },
  );

  for (const action of ["ban", "unban"] as const) {
    app.post(
      `/users/:address/${action}`,
      {
        schema: {
          summary: action === "ban" ? "Ban a user (their profile becomes inactive)" : "Lift a ban",
          params: addressParams,
          response: { 200: adminUserResponseSchema, ...errors },
        },
      },
      async (request) => {
        const session = await requireAdmin(app, request);
        const { address } = request.params;
        if (action === "ban" && isAdmin(app, address)) {
          throw new ApiError(400, "cannot_ban_admin", "Moderators cannot be banned.");
        }
        const [row] = await db
          .update(profiles)
          .set(
            action === "ban"
              ? { active: false, bannedAt: new Date(), bannedBy: session.address, updatedAt: new Date() }
              : { active: true, bannedAt: null, bannedBy: null, updatedAt: new Date() },
          )
          .where(eq(profiles.address, address))
          .returning();
        if (!row) throw new ApiError(404, "not_found", "User not found.");
        // A ban signs the user out everywhere; they may sign in again to see the notice and cancel orders.
        if (action === "ban") await endAllSessions(db, address);
        return { data: { user: toAdminUser(row) } };
      },
    );
  }

  app.put(
    "/users/:address/permission",
    {
      schema: {
        summary: "Sets how many lazy collections a user may own (0: the standard type only)",
        params: addressParams,
        body: adminPermissionSchema,
        response: { 200: adminUserResponseSchema, ...errors },
      },
    },
    async (request) => {
      const [row] = await db
        .update(profiles)
        .set({ lazyCollections: request.body.lazyCollections, updatedAt: new Date() })
        .where(eq(profiles.address, request.params.address))
        .returning();
      if (!row) throw new ApiError(404, "not_found", "User not found.");
      return { data: { user: toAdminUser(row) } };
    },
  );

  app.post(
    "/categories",
    {
      schema: {
        summary: "Adds an artwork type",
        body: categoryTitleSchema,
        response: { 200: z.object({ data: z.object({ category: categorySchema }) }), ...errors },
      },
    },
    async (request) => {
      const [row] = await db
        .insert(categories)
        .values({ title: request.body.title })
        .returning()
        .catch(titleTaken);
      return { data: { category: toCategory(row as typeof categories.$inferSelect) } };
    },
  );

  app.put(
    "/categories/:id",
    {
      schema: {
        summary: "Renames an artwork type, or retires it (no longer offered) or brings it back",
        params: z.object({ id: categoryIdSchema }),
        body: categoryUpdateSchema,
        response: { 200: z.object({ data: z.object({ category: categorySchema }) }), ...errors },
      },
    },
    async (request) => {
      const { title, retired } = request.body;
      const [row] = await db
        .update(categories)
        .set({ ...(title !== undefined && { title }), ...(retired !== undefined && { retired }) })
        .where(eq(categories.id, request.params.id))
        .returning()
        .catch(titleTaken);
      if (!row) throw new ApiError(404, "not_found", "Category not found.");
      return { data: { category: toCategory(row) } };
    },
  );

  app.put(
    "/collections/:address/featured",
    {
      schema: {
        summary: "Features a collection on the home page, or stops featuring it",
        params: addressParams,
        body: featureCollectionSchema,
        response: { 200: z.object({ data: z.object({ featured: z.boolean() }) }), ...errors },
      },
    },
    async (request) => {
      const { address } = request.params;
      const [chain] = await db
        .select()
        .from(chainCollections)
        .where(eq(chainCollections.address, address))
        .limit(1);
      if (!chain) throw new ApiError(404, "not_found", BROWSE_MESSAGES.collectionNotFound);
      const featuredAt = request.body.featured ? new Date() : null;
      await db
        .insert(collectionDetails)
        .values({ address, featuredAt })
        .onConflictDoUpdate({ target: collectionDetails.address, set: { featuredAt } });
      forgetHomePage(db);
      return { data: { featured: request.body.featured } };
    },
  );
};
