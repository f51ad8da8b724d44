import {
  ADDRESS_PATTERN,
  apiErrorSchema,
  emailConfirmSchema,
  followRequestSchema,
  followResponseSchema,
  MAX_UPLOAD_BYTES,
  MESSAGES,
  mediaUploadResponseSchema,
  messageResponseSchema,
  NOTIFICATION_FLAGS,
  notifAllowRequestSchema,
  notifAllowResponseSchema,
  notificationsResponseSchema,
  notificationsSeenResponseSchema,
  type ProfileUser,
  profileQuerySchema,
  profileResponseSchema,
  profileUpdateResponseSchema,
  profileUpdateSchema,
  USER_SEARCH_LIMIT,
  type UserRef,
  userSearchQuerySchema,
  userSearchResponseSchema,
} from "@easel/common";
import fastifyMultipart from "@fastify/multipart";
import { and, asc, count, desc, eq, inArray, like, ne, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { ENS_RECHECK_MS, ensNameBelongsTo } from "../community/ens.ts";
import { toggleFollow } from "../community/follow.ts";
import { looksLikeStaff, usernameKey } from "../community/names.ts";
import { listNotifications } from "../community/notifications.ts";
import { notify, preferences } from "../community/notify.ts";
import { type ConfirmationOutcome, queueEmailConfirmation } from "../community/profileEmail.ts";
import { verifySignedLink } from "../community/signedLinks.ts";
import { chainAccounts } from "../db/chain-schema.ts";
import { escapeLike } from "../db/like.ts";
import { follows, media, notifications, type Profile, profiles } from "../db/schema.ts";
import { ApiError, loggableError } from "../errors.ts";
import { checkImage, ImageError } from "../media/images.ts";
import { StripError, stripImageBytes } from "../media/strip.ts";
import { profileChainLists } from "../trading/profileLists.ts";
import { currentSession } from "./auth.ts";
import { badRequest, isAdmin, pgError, requireActiveUser, requireSession, walletOrIpKey } from "./guards.ts";
import { malformedMultipart } from "./multipart.ts";
import { profileTradingRoutes } from "./profileTrading.ts";

/** Followers and following lists carry at most this many entries (newest first); counts are exact. */
const FOLLOW_LIST_LIMIT = 100;
const NOTIFICATION_LIST_LIMIT = 100;

/** The public JSON of a profile. Text is returned exactly as stored; only JSON ever carries it. */
export function toProfileUser(row: Profile, options: { owner: boolean }): ProfileUser {
  return {
    _id: row.id,
    address: row.address,
    name: row.name,
    username: row.username,
    ens: row.ens,
    bio: row.bio,
    avatar: row.avatar,
    banner: row.banner,
    email: options.owner ? row.email : null,
    emailVerified: options.owner && row.email !== null && row.emailVerifiedAt !== null,
    social: row.social,
    active: row.active,
    time_update: row.createdAt.toISOString(),
  };
}

const emptyUser = (address: string): ProfileUser => ({
  _id: null,
  address,
  name: null,
  username: null,
  ens: null,
  bio: null,
  avatar: null,
  banner: null,
  email: null,
  emailVerified: false,
  social: {},
  active: true,
  time_update: null,
});

/** What the owner is told about the confirmation link of their email. */
const CONFIRMATION_MESSAGES: Record<ConfirmationOutcome, string> = {
  sent: MESSAGES.emailConfirmSent,
  wait: MESSAGES.emailConfirmWait,
  limit: MESSAGES.emailConfirmLimit,
};

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, chain } = app.deps;
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6 },
  });
  // /api/profile/offers, /auctions and /open-orders: the signed-in user's trading history.
  await app.register(profileTradingRoutes);

  async function userRefs(addresses: string[]): Promise<Map<string, UserRef>> {
    const rows =
      addresses.length === 0
        ? []
        : await db.select().from(profiles).where(inArray(profiles.address, addresses));
    const byAddress = new Map<string, UserRef>();
    for (const address of addresses) {
      byAddress.set(address, { _id: null, address, username: null, name: null, avatar: null });
    }
    for (const row of rows) {
      byAddress.set(row.address, {
        _id: row.id,
        address: row.address,
        username: row.username,
        name: row.name,
        avatar: row.avatar,
      });
    }
    return byAddress;
  }

  /**
   * The profile with its ENS name checked again on chain when the last check is a day old: a name
   * that moved to another wallet (or stopped being this wallet's primary name) is removed. When the
   * RPC cannot answer, the name stays until the next view.
   */
  async function withCurrentEns(row: Profile): Promise<Profile> {
    if (!row.ens) return row;
    if (!config.ens) return { ...row, ens: null };
    if (row.ensCheckedAt && Date.now() - row.ensCheckedAt.getTime() < ENS_RECHECK_MS) return row;
    let belongs: boolean;
    try {
      belongs = await ensNameBelongsTo(chain, config, row.ens, row.address);
    } catch (error) {
      app.log.warn({ err: loggableError(error) }, "ENS recheck failed");
      return row;
    }
    const { updated, mailQueued } = await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(profiles)
        .set({ ensCheckedAt: new Date(), ...(belongs ? {} : { ens: null }) })
        .where(eq(profiles.id, row.id))
        .returning();
      if (belongs || !row.ens) return { updated: changed, mailQueued: false };
      const result = await notify(tx, {
        address: row.address,
        kind: "ens_removed",
        flag: "ens",
        message: `Your ENS name ${row.ens} no longer names your wallet, so Easel removed it from your profile.`,
        data: { ens: row.ens },
      });
      return { updated: changed, mailQueued: result.mailQueued };
    });
    if (mailQueued) app.mail.flush();
    return updated ?? row;
  }

  app.get(
    "/",
    {
      schema: {
        summary: "A profile by username, address or ENS name",
        querystring: profileQuerySchema,
        response: { 200: profileResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const key = request.query.userkey;
      const session = await currentSession(app, request);
      const byAddress = ADDRESS_PATTERN.test(key);
      const byEns = !byAddress && key.includes(".");
      if (byEns && !config.ens) throw new ApiError(404, "not_found", MESSAGES.userNotFound);
      const where = byAddress
        ? eq(profiles.address, key.toLowerCase())
        : sql`lower(${byEns ? profiles.ens : profiles.username}) = ${key.toLowerCase()}`;
      const [found] = await db.select().from(profiles).where(where).limit(1);
      const row = found ? await withCurrentEns(found) : undefined;
      // An address is a profile even before it signs in; a name must be someone's (an ENS name still).
      if (!byAddress && (!row || (byEns && !row.ens)))
        throw new ApiError(404, "not_found", MESSAGES.userNotFound);
      const address = row?.address ?? key.toLowerCase();
      const isOwner = session?.address === address;
      // A banned profile is hidden from everyone but its owner and the moderators.
      if (row && !row.active && !isOwner && !isAdmin(app, session?.address)) {
        throw new ApiError(404, "not_found", MESSAGES.userNotFound);
      }

      const [followerRows, followingRows, [followerCount], [followingCount], viewerFollows, [account]] =
        await Promise.all([
          db
            .select({ address: follows.follower })
            .from(follows)
            .where(eq(follows.followee, address))
            .orderBy(desc(follows.createdAt))
            .limit(FOLLOW_LIST_LIMIT),
          db
            .select({ address: follows.followee })
            .from(follows)
            .where(eq(follows.follower, address))
            .orderBy(desc(follows.createdAt))
            .limit(FOLLOW_LIST_LIMIT),
          db.select({ n: count() }).from(follows).where(eq(follows.followee, address)),
          db.select({ n: count() }).from(follows).where(eq(follows.follower, address)),
          session && !isOwner
            ? db
                .select({ one: sql`1` })
                .from(follows)
                .where(and(eq(follows.follower, session.address), eq(follows.followee, address)))
                .limit(1)
            : Promise.resolve([]),
          db
            .select({ verifiedArtist: chainAccounts.verifiedArtist })
            .from(chainAccounts)
            .where(eq(chainAccounts.address, address)),
        ]);
      const chainLists = await profileChainLists(db, address);
      const refs = await userRefs([
        ...new Set([address, ...followerRows.map((r) => r.address), ...followingRows.map((r) => r.address)]),
      ]);
      const ref = (a: string) => refs.get(a) as UserRef;
      return {
        data: {
          user: row ? toProfileUser(row, { owner: isOwner }) : emptyUser(address),
          isOwner,
          isFollowing: viewerFollows.length > 0,
          verifiedArtist: account?.verifiedArtist ?? false,
          profileOwner: ref(address),
          followers: followerRows.map((r) => ref(r.address)),
          following: followingRows.map((r) => ref(r.address)),
          followersCount: followerCount?.n ?? 0,
          followingCount: followingCount?.n ?? 0,
          ...chainLists,
        },
      };
    },
  );

  app.put(
    "/",
    {
      schema: {
        summary: "Update the signed-in user's own profile",
        body: profileUpdateSchema,
        response: {
          200: profileUpdateResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { profile } = await requireActiveUser(app, request);
      const body = request.body;
      // Images must come from our uploader, so the gateway holds them and they are real images.
      for (const field of ["avatar", "banner"] as const) {
        const path = body[field];
        if (!path) continue;
        const cid = path.slice("/ipfs/".length);
        const [known] = await db.select({ cid: media.cid }).from(media).where(eq(media.cid, cid)).limit(1);
        if (!known) throw badRequest("invalid_image", field, MESSAGES.imagePath);
      }
      const changes: Partial<typeof profiles.$inferInsert> = { updatedAt: new Date() };
      for (const field of ["name", "username", "bio", "avatar", "banner"] as const) {
        if (body[field] !== undefined) changes[field] = body[field];
      }
      if (body.username !== undefined)
        changes.usernameKey = body.username ? usernameKey(body.username) : null;
      // Only Easel's team may go by a staff-like name ("Easel Support", "easel_team").
      if (!isAdmin(app, profile.address)) {
        for (const field of ["username", "name"] as const) {
          const value = body[field];
          if (value && looksLikeStaff(value)) throw badRequest("name_reserved", field, MESSAGES.nameReserved);
        }
      }
      // A new email starts unconfirmed: no notification mail goes to it before its owner opens the link.
      const newEmail = body.email !== undefined && body.email !== profile.email ? body.email : undefined;
      if (newEmail !== undefined) {
        changes.email = newEmail;
        changes.emailVerifiedAt = null;
      }
      // An ENS name is saved only when the chain says it is this wallet's.
      const newEns = body.ens !== undefined && body.ens !== profile.ens ? body.ens : undefined;
      if (newEns) {
        if (!config.ens) throw badRequest("ens_unavailable", "ens", MESSAGES.ensUnavailable);
        let belongs: boolean;
        try {
          belongs = await ensNameBelongsTo(chain, config, newEns, profile.address);
        } catch (error) {
          request.log.warn({ err: loggableError(error) }, "ENS check failed");
          throw new ApiError(503, "ens_check_failed", MESSAGES.ensCheckFailed, {
            ens: MESSAGES.ensCheckFailed,
          });
        }
        if (!belongs) throw badRequest("ens_not_yours", "ens", MESSAGES.ensNotYours);
        changes.ensCheckedAt = new Date();
      }
      if (newEns !== undefined) changes.ens = newEns;
      if (body.social !== undefined) {
        const social: Record<string, string> = {};
        for (const [network, link] of Object.entries(body.social)) if (link) social[network] = link;
        changes.social = social;
      }
      try {
        const { updated, confirmation } = await db.transaction(async (tx) => {
          // The chain says the name is ours now, so another profile's claim on it is out of date.
          if (newEns) {
            await tx
              .update(profiles)
              .set({ ens: null, ensCheckedAt: new Date() })
              .where(and(sql`lower(${profiles.ens}) = ${newEns}`, ne(profiles.id, profile.id)));
          }
          const [row] = await tx.update(profiles).set(changes).where(eq(profiles.id, profile.id)).returning();
          const saved = row as Profile;
          const outcome =
            newEmail && saved.email
              ? await queueEmailConfirmation(tx, config, {
                  address: saved.address,
                  email: saved.email,
                  emailLinkSentAt: saved.emailLinkSentAt,
                })
              : null;
          return { updated: saved, confirmation: outcome };
        });
        if (confirmation === "sent") app.mail.flush();
        return {
          message: [MESSAGES.profileUpdated, confirmation && CONFIRMATION_MESSAGES[confirmation]]
            .filter(Boolean)
            .join(" "),
          data: { user: toProfileUser(updated, { owner: true }) },
        };
      } catch (error) {
        const pg = pgError(error);
        if (pg?.code === "23505" && pg.constraint?.includes("username")) {
          throw badRequest("username_taken", "username", MESSAGES.usernameTaken);
        }
        if (pg?.code === "23505" && pg.constraint?.includes("ens")) {
          throw badRequest("ens_taken", "ens", MESSAGES.ensTaken);
        }
        throw error;
      }
    },
  );

  const emailLinkLimit = { rateLimit: { max: 10, timeWindow: "1 minute", keyGenerator: walletOrIpKey(app) } };

  app.post(
    "/email/confirmation",
    {
      config: emailLinkLimit,
      schema: {
        summary: "Mail the confirmation link of the signed-in user's email again",
        description: "At most one link a minute per profile and three a day per address.",
        response: {
          200: messageResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { profile } = await requireActiveUser(app, request);
      const email = profile.email;
      if (!email) throw badRequest("email_not_set", "email", MESSAGES.emailNotSet);
      if (profile.emailVerifiedAt)
        throw badRequest("email_confirmed", "email", MESSAGES.emailAlreadyConfirmed);
      const outcome = await db.transaction(async (tx) => {
        // Lock the row so two clicks cannot both pass the one-a-minute check.
        const [current] = await tx
          .select({ emailLinkSentAt: profiles.emailLinkSentAt })
          .from(profiles)
          .where(eq(profiles.id, profile.id))
          .for("update");
        return queueEmailConfirmation(tx, config, {
          address: profile.address,
          email,
          emailLinkSentAt: current?.emailLinkSentAt ?? null,
        });
      });
      if (outcome !== "sent") throw new ApiError(429, `email_${outcome}`, CONFIRMATION_MESSAGES[outcome]);
      app.mail.flush();
      return { message: CONFIRMATION_MESSAGES.sent };
    },
  );

  // Links mailed before confirmation moved to a page: send them there. A GET never confirms, because mail
  // scanners open links; the page's button does (POST below).
  app.get(
    "/email/confirm",
    {
      config: emailLinkLimit,
      schema: {
        summary: "An old confirmation link: redirects to the confirmation page, which confirms with a button",
        response: { 303: z.null() },
      },
    },
    async (request, reply) => {
      const query = request.raw.url?.split("?")[1] ?? "";
      return reply.redirect(`/email/confirm${query ? `?${query}` : ""}`, 303);
    },
  );

  app.post(
    "/email/confirm",
    {
      config: emailLinkLimit,
      schema: {
        summary: "Confirm a profile's email with the signed values of the mail's link",
        description: "A link confirms only the address it was sent to, for the profile that asked.",
        body: emailConfirmSchema,
        response: { 200: messageResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const { address, email, expires, sig } = request.body;
      const claim = { purpose: "profile-email", values: { address, email } } as const;
      if (verifySignedLink(config.emailLinkSecret, claim, { expires, sig })) {
        // The profile must still have this email: a link to an address changed since confirms nothing.
        const rows = await db
          .update(profiles)
          .set({ emailVerifiedAt: sql`coalesce(${profiles.emailVerifiedAt}, now())` })
          .where(and(eq(profiles.address, address), eq(profiles.email, email)))
          .returning({ id: profiles.id });
        if (rows.length > 0) return { message: MESSAGES.emailConfirmed };
      }
      throw new ApiError(400, "invalid_link", MESSAGES.emailLinkInvalid);
    },
  );

  app.post(
    "/media_uploader",
    {
      config: {
        upload: true,
        rateLimit: {
          max: 30,
          timeWindow: "1 minute",
          keyGenerator: walletOrIpKey(app),
        },
      },
      schema: {
        summary: "Upload a profile image (PNG, JPEG, GIF or WebP under 10 MB) to the media store",
        consumes: ["multipart/form-data"],
        response: {
          200: mediaUploadResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      if (!request.isMultipart()) throw badRequest("no_file", "file", MESSAGES.imageRequired);
      let bytes: Buffer;
      try {
        const file = await request.file();
        if (!file) throw badRequest("no_file", "file", MESSAGES.imageRequired);
        bytes = await file.toBuffer();
      } catch (error) {
        if (error instanceof ApiError) throw error;
        const code = (error as { code?: string }).code;
        if (code === "FST_REQ_FILE_TOO_LARGE" || code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT") {
          throw badRequest("file_too_large", "file", MESSAGES.fileTooLarge);
        }
        throw malformedMultipart(request, error) ?? error;
      }
      if (bytes.length === 0) throw badRequest("no_file", "file", MESSAGES.imageRequired);
      let image: Awaited<ReturnType<typeof checkImage>>;
      try {
        image = await checkImage(bytes);
      } catch (error) {
        if (error instanceof ImageError) throw badRequest("invalid_image", "file", MESSAGES.imageType);
        throw error;
      }
      // Camera and location metadata (EXIF with GPS, XMP, IPTC) never reach the media store.
      let clean: Buffer;
      try {
        clean = await stripImageBytes(bytes, image.mime);
      } catch (error) {
        if (error instanceof StripError) throw badRequest("invalid_image", "file", MESSAGES.imageType);
        throw error;
      }
      const cid = await app.media.add(clean);
      const thumbnailCid = await app.media.add(image.thumbnail.bytes);
      await db.transaction(async (tx) => {
        await tx
          .insert(media)
          .values({
            cid: thumbnailCid,
            mime: "image/webp",
            size: image.thumbnail.bytes.length,
            width: image.thumbnail.width,
            height: image.thumbnail.height,
            uploader: session.address,
          })
          .onConflictDoNothing();
        await tx
          .insert(media)
          .values({
            cid,
            mime: image.mime,
            size: clean.length,
            width: image.width,
            height: image.height,
            thumbnailCid,
            uploader: session.address,
          })
          .onConflictDoNothing();
      });
      return {
        message: MESSAGES.imageUploaded,
        data: {
          path: `/ipfs/${cid}`,
          cid,
          thumbnail: `/ipfs/${thumbnailCid}`,
          mime: image.mime,
          size: clean.length,
          width: image.width,
          height: image.height,
        },
      };
    },
  );

  app.post(
    "/follow",
    {
      // Follows per wallet: 30 toggles a minute.
      config: { rateLimit: { max: 30, timeWindow: "1 minute", keyGenerator: walletOrIpKey(app) } },
      schema: {
        summary: "Follow a user, or stop following them (a toggle)",
        body: followRequestSchema,
        response: {
          200: followResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session, profile } = await requireActiveUser(app, request);
      const target = request.body.userAddress;
      if (target === session.address) throw badRequest("follow_self", "userAddress", MESSAGES.followSelf);
      const result = await toggleFollow(db, profile, target);
      if (result.mailQueued) app.mail.flush();
      return { data: { following: result.following, followersCount: result.followersCount } };
    },
  );

  app.get(
    "/search-complete-users",
    {
      schema: {
        summary: "Users whose address (0x prefix) or username starts with userKey",
        querystring: userSearchQuerySchema,
        response: { 200: userSearchResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const key = request.query.userKey;
      if (!key) return { data: { users: [] } };
      const match = /^0x/i.test(key)
        ? like(profiles.address, `${escapeLike(key.toLowerCase())}%`)
        : sql`lower(${profiles.username}) LIKE ${`${escapeLike(key.toLowerCase())}%`}`;
      const rows = await db
        .select({
          _id: profiles.id,
          username: profiles.username,
          avatar: profiles.avatar,
          address: profiles.address,
        })
        .from(profiles)
        .where(and(eq(profiles.active, true), match))
        .orderBy(asc(profiles.username), asc(profiles.address))
        .limit(USER_SEARCH_LIMIT);
      return { data: { users: rows } };
    },
  );

  app.get(
    "/notifications",
    {
      schema: {
        summary: "The signed-in user's notifications, newest first",
        response: { 200: notificationsResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const session = await requireSession(app, request);
      const [list, [unseen]] = await Promise.all([
        listNotifications(db, session.address, NOTIFICATION_LIST_LIMIT),
        db
          .select({ n: count() })
          .from(notifications)
          .where(and(eq(notifications.address, session.address), eq(notifications.seen, false))),
      ]);
      return {
        data: {
          notificationsTemp: list,
          numberOfNewNotif: unseen?.n ?? 0,
        },
      };
    },
  );

  app.put(
    "/notifications/seen",
    {
      schema: {
        summary: "Mark all of the signed-in user's notifications as seen",
        response: { 200: notificationsSeenResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const session = await requireSession(app, request);
      const updated = await db
        .update(notifications)
        .set({ seen: true })
        .where(and(eq(notifications.address, session.address), eq(notifications.seen, false)))
        .returning({ id: notifications.id });
      return { data: { updated: updated.length, numberOfNewNotif: 0 as const } };
    },
  );

  app.put(
    "/notif_allow",
    {
      schema: {
        summary: "Turn notification kinds on or off for the signed-in user",
        body: notifAllowRequestSchema,
        response: {
          200: notifAllowResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { profile } = await requireActiveUser(app, request);
      const flags: Record<string, boolean> = {};
      for (const flag of NOTIFICATION_FLAGS) {
        const value = request.body[flag];
        if (value !== undefined) flags[flag] = value;
      }
      // Merged in SQL, so two settings saved at once both survive.
      const [row] = await db
        .update(profiles)
        .set({
          notifAllow: sql`${profiles.notifAllow} || ${JSON.stringify(flags)}::jsonb`,
          updatedAt: new Date(),
        })
        .where(eq(profiles.id, profile.id))
        .returning({ notifAllow: profiles.notifAllow });
      return { data: { notifAllow: preferences(row?.notifAllow) } };
    },
  );
};
