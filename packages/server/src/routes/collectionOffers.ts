import {
  apiErrorSchema,
  bestCollectionOfferResponseSchema,
  COLLECTION_OFFER_STATUSES,
  collectionOffersResponseSchema,
  traitRootInputSchema,
  traitRootResponseSchema,
} from "@easel/common";
import { sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  bestCollectionOffer,
  COLLECTION_OFFER_MESSAGES,
  listCollectionOffers,
  MAX_TRAIT_OFFER_WORKS,
  traitTokenIds,
  treeOf,
} from "../trading/collectionOffers.ts";
import { badRequest, requireActiveUser, walletOrIpKey } from "./guards.ts";

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "Must be an address")
  .transform((s) => s.toLowerCase());
const tokenIdText = z
  .string()
  .regex(/^\d{1,78}$/, "Must be a whole number")
  .transform((s) => BigInt(s).toString());

const listQuery = z.object({
  collection: address.optional(),
  buyer: address.optional(),
  status: z.enum(COLLECTION_OFFER_STATUSES).optional(),
});
const bestQuery = z.object({ collection: address, tokenId: tokenIdText });

/**
 * Collection and trait offers (issue 51): the roots of trait offers (the server finds the trait's token ids and
 * keeps them, so owners get their proofs), the offers of a collection or a buyer, and the best offer a work can
 * accept. The offers themselves are made, accepted and cancelled on chain; the indexer records them.
 */
export const collectionOfferRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.post(
    "/roots",
    {
      config: { rateLimit: { max: 30, timeWindow: "1 minute", keyGenerator: walletOrIpKey(app) } },
      schema: {
        summary: `The token root of a trait offer: the collection's works with this trait (1 to ${MAX_TRAIT_OFFER_WORKS}), kept so that their owners get proofs`,
        body: traitRootInputSchema,
        response: {
          200: traitRootResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      const collection = request.body.collection.toLowerCase();
      const { traitType, traitValue } = request.body;
      const ids = await traitTokenIds(db, collection, traitType, traitValue);
      if (ids.length === 0)
        throw badRequest("no_works", "traitValue", COLLECTION_OFFER_MESSAGES.noWorks(traitType, traitValue));
      if (ids.length > MAX_TRAIT_OFFER_WORKS)
        throw badRequest("too_many_works", "traitValue", COLLECTION_OFFER_MESSAGES.tooMany(ids.length));
      const { root } = treeOf(ids);
      // The same ids give the same root: the first trait that asked for it keeps naming it.
      await db.execute(sql`
        INSERT INTO trait_roots (token_root, collection, trait_type, trait_value, token_ids, created_by)
        VALUES (${root}, ${collection}, ${traitType}, ${traitValue}, string_to_array(${ids.join(",")}, ','), ${session.address})
        ON CONFLICT (token_root) DO NOTHING`);
      return { data: { tokenRoot: root, tokenIds: ids } };
    },
  );

  app.get(
    "/",
    {
      schema: {
        summary:
          "Collection offers of a collection (best price first) or of a buyer (newest first); an active offer past its expiry reads expired",
        querystring: listQuery,
        response: { 200: collectionOffersResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const { collection, buyer, status } = request.query;
      if (!collection && !buyer)
        throw badRequest("missing_filter", "collection", COLLECTION_OFFER_MESSAGES.oneFilter);
      return { data: await listCollectionOffers(db, { collection, buyer, status }) };
    },
  );

  app.get(
    "/best",
    {
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
      schema: {
        summary:
          "The best live collection or trait offer this work's owner can accept, with the proof for acceptCollectionOffer",
        querystring: bestQuery,
        response: { 200: bestCollectionOfferResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const { collection, tokenId } = request.query;
      return { data: await bestCollectionOffer(db, collection, tokenId) };
    },
  );
};
