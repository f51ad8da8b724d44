import {
  apiErrorSchema,
  BROWSE_MESSAGES,
  collectionActivityQuerySchema,
  collectionActivityResponseSchema,
  collectionEditSchema,
  collectionFavoriteResponseSchema,
  collectionFavoriteSchema,
  collectionHistoryQuerySchema,
  collectionHistoryResponseSchema,
  collectionNameCheckResponseSchema,
  collectionNameCheckSchema,
  collectionQuerySchema,
  collectionResponseSchema,
  collectionTraitsQuerySchema,
  collectionTraitsResponseSchema,
  LAZY_VOUCHER_TTL_SECONDS,
  lazyVoucherQuerySchema,
  lazyVoucherResponseSchema,
  registerCollectionResponseSchema,
  registerCollectionSchema,
  richTextPlain,
} from "@easel/common";
import { easelFactoryAbi, LAZY_COLLECTION_DOMAIN, lazyCollectionVoucherTypes } from "@easel/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { collectionActivity, collectionHistory } from "../browse/activity.ts";
import { findCollection } from "../browse/collections.ts";
import { listItems } from "../browse/items.ts";
import { collectionTraits } from "../browse/traits.ts";
import { lazyCollectionsLeft } from "../collections/lazyAllowance.ts";
import { chainCollections } from "../db/chain-schema.ts";
import {
  categories,
  collectionDetails,
  collectionFavorites,
  lazyCollectionVouchers,
  profiles,
} from "../db/schema.ts";
import { ApiError } from "../errors.ts";
import { badRequest, isAdmin, requireActiveUser, viewerOf } from "./guards.ts";

/** How long `POST /api/collection` waits for the indexer to see a collection the wallet just created. */
const CHAIN_WAIT_MS = 15_000;
const CHAIN_POLL_MS = 250;

const okSchema = z.object({ data: z.object({ message: z.string() }) });

export const collectionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config, chain } = app.deps;
  const platformSigner = privateKeyToAccount(config.signerPrivateKey);

  /** The chain's record of a collection, waiting briefly for the indexer to reach it. */
  async function chainCollection(address: string) {
    const deadline = Date.now() + CHAIN_WAIT_MS;
    for (;;) {
      const [row] = await db
        .select()
        .from(chainCollections)
        .where(eq(chainCollections.address, address))
        .limit(1);
      if (row || Date.now() >= deadline) return row ?? null;
      await new Promise((resolve) => setTimeout(resolve, CHAIN_POLL_MS));
    }
  }

  async function nameTaken(name: string, except?: string): Promise<boolean> {
    const rows = await db
      .select({ address: chainCollections.address })
      .from(chainCollections)
      .where(sql`lower(${chainCollections.name}) = lower(${name})`)
      .limit(2);
    return rows.some((row) => row.address !== except);
  }

  /** A name or symbol the factory refuses (reserved words, compared ignoring case), read from the chain. */
  async function reservedWord(words: readonly string[]): Promise<string | undefined> {
    const reserved = await Promise.all(
      words.map((word) =>
        chain.readContract({
          address: config.contracts.factory,
          abi: easelFactoryAbi,
          functionName: "isReserved",
          args: [word],
        }),
      ),
    );
    return words.find((_, i) => reserved[i]);
  }

  /** The name check shared by the check endpoint and the voucher: free, and not reserved on chain. */
  async function checkName(name: string, symbol: string | undefined) {
    if (await nameTaken(name)) throw badRequest("name_taken", "name", BROWSE_MESSAGES.nameTaken);
    const reserved = await reservedWord(symbol === undefined ? [name] : [name, symbol]);
    if (reserved !== undefined) {
      throw badRequest("reserved", reserved === name ? "name" : "symbol", BROWSE_MESSAGES.reserved);
    }
  }

  /** An artwork type people can still pick (retired ones stay only on collections that have them). */
  async function activeCategory(id: number) {
    const [category] = await db.select().from(categories).where(eq(categories.id, id)).limit(1);
    if (!category || category.retired) {
      throw badRequest("invalid_category", "category_web2_id", BROWSE_MESSAGES.categoryRequired);
    }
    return category;
  }

  app.get(
    "/",
    {
      schema: {
        summary: "A collection page: the collection, its stats and a page of its NFTs (tab and sort)",
        querystring: collectionQuerySchema,
        response: { 200: collectionResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const viewer = await viewerOf(app, request);
      const { name, sort, filter, traitType, traitValue, limit, cursor } = request.query;
      const collection = await findCollection(db, viewer, name);
      if (!collection) throw new ApiError(404, "not_found", BROWSE_MESSAGES.collectionNotFound);
      // A trait filter needs both halves: a type alone names no items.
      if ((traitType === undefined) !== (traitValue === undefined)) {
        const missing = traitType === undefined ? "traitType" : "traitValue";
        throw badRequest("invalid_request", missing, `${missing} is required with a trait filter`);
      }
      const trait = traitType && traitValue ? { type: traitType, value: traitValue } : undefined;
      const [page, favorite] = await Promise.all([
        listItems(db, viewer, {
          filters: { collection: collection._id, tab: filter, trait },
          sort,
          limit,
          cursor,
        }),
        viewer.address
          ? db
              .select({ collection: collectionFavorites.collection })
              .from(collectionFavorites)
              .where(
                and(
                  eq(collectionFavorites.collection, collection._id),
                  eq(collectionFavorites.address, viewer.address),
                ),
              )
              .limit(1)
          : Promise.resolve([]),
      ]);
      return {
        data: {
          collection,
          nfts: page.nfts,
          nextCursor: page.nextCursor,
          isOwner: viewer.address === collection.owner.address,
          isFavorite: favorite.length > 0,
        },
      };
    },
  );

  /** A collection this viewer may see, by address; 404 otherwise. */
  async function visibleCollection(request: Parameters<typeof viewerOf>[1], address: string) {
    const collection = await findCollection(db, await viewerOf(app, request), address);
    if (!collection) throw new ApiError(404, "not_found", BROWSE_MESSAGES.collectionNotFound);
    return collection;
  }

  app.get(
    "/traits",
    {
      schema: {
        summary: "A collection's traits: each property name with its values and how many items have each",
        querystring: collectionTraitsQuerySchema,
        response: { 200: collectionTraitsResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const viewer = await viewerOf(app, request);
      const collection = await findCollection(db, viewer, request.query.id);
      if (!collection) throw new ApiError(404, "not_found", BROWSE_MESSAGES.collectionNotFound);
      return { data: await collectionTraits(db, viewer, collection._id) };
    },
  );

  app.get(
    "/activity",
    {
      schema: {
        summary: "A collection's activity (mint, list, sale, bid, offer, transfer), newest first",
        querystring: collectionActivityQuerySchema,
        response: { 200: collectionActivityResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const { id, kind, limit, cursor } = request.query;
      const collection = await visibleCollection(request, id);
      const page = await collectionActivity(
        db,
        { address: collection._id, name: collection.name },
        { kind, limit, cursor },
      );
      return { data: page };
    },
  );

  app.get(
    "/stats",
    {
      schema: {
        summary: "A collection's volume, sales and floor per day (UTC) over a range, for its chart",
        querystring: collectionHistoryQuerySchema,
        response: { 200: collectionHistoryResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const { id, range } = request.query;
      const collection = await visibleCollection(request, id);
      const days = await collectionHistory(
        db,
        { address: collection._id, createdAt: new Date(collection.time_created) },
        range,
      );
      return { data: { days } };
    },
  );

  app.post(
    "/check_name",
    {
      schema: {
        summary:
          "Whether a collection name (and symbol) can be used: not taken (ignoring case), not reserved",
        body: collectionNameCheckSchema,
        response: { 200: collectionNameCheckResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      await checkName(request.body.name, request.body.symbol);
      return { data: { available: true as const } };
    },
  );

  app.get(
    "/lazy-voucher",
    {
      schema: {
        summary:
          "The platform's signature for creating one lazy collection from this wallet, within the account's permission",
        querystring: lazyVoucherQuerySchema,
        response: {
          200: lazyVoucherResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const { session } = await requireActiveUser(app, request);
      const { name, symbol, catWeb2_id, maximumSupply } = request.query;
      const category = await activeCategory(catWeb2_id);
      await checkName(name, symbol);
      // The factory creates collections for verified, not banned artists only (as mints): refused here, before
      // the creator pays gas for a revert.
      const { rows: accounts } = await db.execute<{ verified_artist: boolean; banned: boolean }>(
        sql`SELECT verified_artist, banned FROM chain_accounts WHERE address = ${session.address}`,
      );
      if (!accounts[0]?.verified_artist || accounts[0].banned)
        throw new ApiError(403, "not_artist", BROWSE_MESSAGES.notArtistCollection);
      const expiresAt = new Date(Date.now() + LAZY_VOUCHER_TTL_SECONDS * 1000);
      await db.transaction(async (tx) => {
        // The profile row is the lock: two requests at once cannot both take the last allowance.
        const [profile] = await tx
          .select({ allowance: profiles.lazyCollections })
          .from(profiles)
          .where(eq(profiles.address, session.address))
          .for("update");
        if (!profile || (await lazyCollectionsLeft(tx, session.address, profile.allowance)) < 1) {
          throw new ApiError(403, "no_lazy_permission", BROWSE_MESSAGES.noLazyPermission);
        }
        await tx.insert(lazyCollectionVouchers).values({ owner: session.address, name, expiresAt });
      });
      const voucher = {
        owner: session.address,
        maxSupply: maximumSupply,
        name,
        symbol,
        category: category.title,
        deadline: BigInt(Math.floor(expiresAt.getTime() / 1000)),
      };
      const signature = await platformSigner.signTypedData({
        domain: {
          ...LAZY_COLLECTION_DOMAIN,
          chainId: config.chainId,
          verifyingContract: config.contracts.factory,
        },
        types: lazyCollectionVoucherTypes,
        primaryType: "LazyCollectionVoucher",
        message: voucher,
      });
      return { data: { voucher: { ...voucher, deadline: voucher.deadline.toString(), signature } } };
    },
  );

  app.post(
    "/",
    {
      schema: {
        summary: "Registers a collection the wallet created on chain; the chain tables are the truth",
        body: registerCollectionSchema,
        response: {
          200: registerCollectionResponseSchema,
          400: apiErrorSchema,
          403: apiErrorSchema,
          409: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      const body = request.body;
      const chain = await chainCollection(body.contract_address);
      if (!chain) throw new ApiError(409, "not_on_chain", BROWSE_MESSAGES.notOnChain);
      if (chain.owner !== session.address)
        throw new ApiError(403, "forbidden", BROWSE_MESSAGES.notYourCollection);
      const kind = body.collectionType === "lazy" ? "lazy" : "standard";
      if (chain.name !== body.name || chain.symbol !== body.symbol || chain.kind !== kind) {
        throw badRequest("chain_mismatch", "contract_address", BROWSE_MESSAGES.chainMismatch);
      }
      const [category] = await db
        .select()
        .from(categories)
        .where(eq(categories.id, body.category_web2_id))
        .limit(1);
      // The factory records the category's title: the one picked must be the one on chain.
      if (!category || category.title.toLowerCase() !== chain.category.toLowerCase()) {
        throw badRequest("chain_mismatch", "category_web2_id", BROWSE_MESSAGES.chainMismatch);
      }
      // Registering twice changes nothing: the first registration's details stay.
      await db
        .insert(collectionDetails)
        .values({ address: chain.address, categoryId: category.id })
        .onConflictDoNothing();
      const viewer = { address: session.address, moderator: false };
      const card = await findCollection(db, viewer, chain.address);
      return { data: { _id: chain.address, slug: card?.slug ?? chain.address } };
    },
  );

  app.put(
    "/edit",
    {
      schema: {
        summary: "The owner edits the collection's description, logo, banner and social links",
        body: collectionEditSchema,
        response: { 200: okSchema, 400: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      const body = request.body;
      const [chain] = await db
        .select()
        .from(chainCollections)
        .where(eq(chainCollections.address, body.id))
        .limit(1);
      if (!chain) throw new ApiError(404, "not_found", BROWSE_MESSAGES.collectionNotFound);
      if (chain.owner !== session.address)
        throw new ApiError(403, "forbidden", BROWSE_MESSAGES.notYourCollection);
      const change: Partial<typeof collectionDetails.$inferInsert> = { updatedAt: new Date() };
      if (body.description !== undefined) {
        change.description = body.description;
        change.descriptionText = richTextPlain(body.description);
      }
      if (body.logo !== undefined) change.logo = body.logo;
      if (body.banner !== undefined) change.banner = body.banner;
      if (body.social !== undefined) {
        change.social = Object.fromEntries(Object.entries(body.social).map(([k, v]) => [k, v ?? null]));
      }
      await db
        .insert(collectionDetails)
        .values({ address: chain.address, ...change })
        .onConflictDoUpdate({ target: collectionDetails.address, set: change });
      return { data: { message: BROWSE_MESSAGES.collectionUpdated } };
    },
  );

  app.post(
    "/favorite",
    {
      schema: {
        summary: "Toggles the signed-in user's favourite of a collection (not their own)",
        body: collectionFavoriteSchema,
        response: {
          200: collectionFavoriteResponseSchema,
          400: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      const address = request.body.collectionId;
      const viewer = { address: session.address, moderator: isAdmin(app, session.address) };
      const collection = await findCollection(db, viewer, address);
      if (!collection) throw new ApiError(404, "not_found", BROWSE_MESSAGES.collectionNotFound);
      if (collection.owner.address === session.address) {
        throw new ApiError(403, "own_collection", "You cannot favourite your own collection.");
      }
      const mine = and(
        eq(collectionFavorites.collection, address),
        eq(collectionFavorites.address, session.address),
      );
      // The wanted state when given (a repeated request changes nothing), else a toggle.
      const favorite = await db.transaction(async (tx) => {
        const want =
          request.body.favorite ??
          (await tx.select().from(collectionFavorites).where(mine).for("update")).length === 0;
        if (want) {
          await tx
            .insert(collectionFavorites)
            .values({ collection: address, address: session.address })
            .onConflictDoNothing();
        } else {
          await tx.delete(collectionFavorites).where(mine);
        }
        return want;
      });
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(collectionFavorites)
        .where(eq(collectionFavorites.collection, address));
      return { data: { favorite, favorites: count?.n ?? 0 } };
    },
  );
};
