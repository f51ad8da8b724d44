import {
  apiErrorSchema,
  categoriesResponseSchema,
  exploreCollectionsQuerySchema,
  exploreCollectionsResponseSchema,
  exploreItemsQuerySchema,
  exploreItemsResponseSchema,
  searchQuerySchema,
  searchResponseSchema,
} from "@easel/common";
import { asc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { toCategory } from "../browse/cards.ts";
import { exploreCollections } from "../browse/collections.ts";
import { listItems } from "../browse/items.ts";
import { search } from "../browse/search.ts";
import { categories } from "../db/schema.ts";
import { answersBuiltExactly } from "../serializer.ts";
import { viewerOf } from "./guards.ts";

// Both lists' answers are built card by card in their schema's own type (browse/cards.ts).
answersBuiltExactly(exploreCollectionsResponseSchema, exploreItemsResponseSchema);

/** Browsing the marketplace: explore collections and items, the header search and the artwork types. */
export const exploreRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps;

  app.get(
    "/category-web2",
    {
      schema: {
        summary:
          "The artwork types; retired ones only with ?all=true (for moderators' lists and old collections)",
        querystring: z.object({
          all: z.enum(["true", "false"], { error: "all must be true or false" }).optional(),
        }),
        response: { 200: categoriesResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const all = request.query.all === "true";
      const rows = await db
        .select()
        .from(categories)
        .where(all ? undefined : eq(categories.retired, false))
        .orderBy(asc(categories.title));
      return {
        data: { category_web2: rows.map(toCategory) },
      };
    },
  );

  app.get(
    "/explore/collections",
    {
      schema: {
        summary: "Collections with filters, a sort and pages (page size 10 unless limit says otherwise)",
        querystring: exploreCollectionsQuerySchema,
        response: { 200: exploreCollectionsResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => exploreCollections(db, await viewerOf(app, request), request.query),
  );

  app.get(
    "/explore",
    {
      schema: {
        summary: "NFTs with filters (status, price, category, collection, creator), a sort and keyset pages",
        querystring: exploreItemsQuerySchema,
        response: { 200: exploreItemsResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => {
      const { limit, cursor, sort, ...filters } = request.query;
      return { data: await listItems(db, await viewerOf(app, request), { filters, sort, limit, cursor }) };
    },
  );

  app.get(
    "/search",
    {
      schema: {
        summary: "The header search: collections, items and profiles matching searchItem",
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema, 400: apiErrorSchema },
      },
    },
    async (request) => ({ data: await search(db, await viewerOf(app, request), request.query.searchItem) }),
  );
};
