import {
  HOME_FEATURED_COLLECTIONS,
  HOME_FEATURED_NFTS,
  type HomeResponse,
  headerDataResponseSchema,
  homeResponseSchema,
} from "@easel/common";
import { eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { homeCollections } from "../browse/collections.ts";
import { latestItemsOf } from "../browse/items.ts";
import { countNewNotifications } from "../community/notifications.ts";
import { preferences } from "../community/notify.ts";
import type { Database } from "../db/client.ts";
import { profiles } from "../db/schema.ts";
import { shortLived } from "../db/shortLived.ts";
import { currentSession } from "./auth.ts";
import { isAdmin } from "./guards.ts";

/**
 * The home page is the same for everyone and changes slowly: it is built at most once every few seconds
 * (concurrent visitors share one build), and at once after moderators change the featured collections.
 */
const homePages = shortLived<HomeResponse["data"]>(5_000);

export function forgetHomePage(db: Database): void {
  homePages.forget(db);
}

function homePage(db: Database): Promise<HomeResponse["data"]> {
  return homePages.get(db, "home", async () => {
    const { collections, picked } = await homeCollections(db, HOME_FEATURED_COLLECTIONS);
    const nfts = await latestItemsOf(
      db,
      collections.map((c) => c._id),
      HOME_FEATURED_NFTS,
    );
    return {
      collections: collections.map((collection) => ({ ...collection, nfts: nfts.get(collection._id) ?? [] })),
      picked,
    };
  });
}

export const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.get(
    "/",
    {
      schema: {
        summary:
          "The home page: featured collections (moderators' picks, else the most active) with their NFTs",
        response: { 200: homeResponseSchema },
      },
    },
    async () => ({ data: await homePage(db) }),
  );

  app.get(
    "/header-data",
    {
      schema: {
        summary: "The signed-in user's summary for the header, and their count of new notifications",
        response: { 200: headerDataResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const session = await currentSession(app, request);
      if (!session) return { data: { user: null, numberOfNewNotif: 0, isAdmin: false, notifAllow: null } };
      const [[profile], numberOfNewNotif] = await Promise.all([
        db.select().from(profiles).where(eq(profiles.address, session.address)).limit(1),
        countNewNotifications(db, session.address),
      ]);
      return {
        data: {
          user: profile
            ? {
                _id: profile.id,
                avatar: profile.avatar,
                username: profile.username,
                address: profile.address,
                banner: profile.banner,
                active: profile.active,
              }
            : null,
          numberOfNewNotif,
          isAdmin: isAdmin(app, session.address),
          notifAllow: profile ? preferences(profile.notifAllow) : null,
        },
      };
    },
  );
};
