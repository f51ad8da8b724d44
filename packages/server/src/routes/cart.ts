import {
  apiErrorSchema,
  cartQuoteInputSchema,
  cartQuoteResponseSchema,
  MAX_CART_ITEMS,
  sweepQuerySchema,
} from "@easel/common";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ApiError } from "../errors.ts";
import {
  CART_MESSAGES,
  canonicalItems,
  firstDuplicate,
  quoteCart,
  sweepCandidates,
} from "../trading/cart.ts";
import { currentSession } from "./auth.ts";
import { badRequest, walletOrIpKey } from "./guards.ts";

/** How many more works than asked a sweep rechecks, for those found sold or unlisted on the way. */
const SWEEP_SPARE = 10;

/**
 * Carts (issue 51): a quote of the works a collector is about to buy in one `buyMany`, each rechecked on chain
 * just now, and a collection's cheapest works quoted as a cart (a sweep). Signing in is optional: a signed-in
 * caller's own works read as such (and a sweep leaves them out).
 */
export const cartRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, chain, config } = app.deps;
  const deps = { db, chain, market: config.contracts.market as `0x${string}` };
  // Each quote reads the chain for every work: limited like the other calls that do (docs/security.md).
  const rateLimit = { max: 60, timeWindow: "1 minute", keyGenerator: walletOrIpKey(app) };
  const buyerOf = async (request: Parameters<typeof currentSession>[1]) =>
    (await currentSession(app, request).catch(() => null))?.address.toLowerCase() ?? null;

  app.post(
    "/quote",
    {
      config: { rateLimit },
      schema: {
        summary:
          "Quote a cart: every work rechecked on chain just now, with what buyMany(listed, signed, false) takes for those that can be bought, why the others cannot (in words), and the total",
        body: cartQuoteInputSchema,
        response: { 200: cartQuoteResponseSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const items = canonicalItems(request.body.items);
      const duplicate = firstDuplicate(items);
      if (duplicate >= 0) throw badRequest("duplicate_item", `items.${duplicate}`, CART_MESSAGES.duplicate);
      return { data: await quoteCart(deps, items, await buyerOf(request)) };
    },
  );

  app.get(
    "/sweep",
    {
      config: { rateLimit },
      schema: {
        summary:
          "A collection's count cheapest works for sale at a fixed price (on chain or by signature) at or below the cap, not the caller's own, cheapest first, quoted as a cart",
        querystring: sweepQuerySchema,
        response: {
          200: cartQuoteResponseSchema,
          400: apiErrorSchema,
          404: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const { count, maxPriceWei } = request.query;
      const collection = request.query.collection.toLowerCase();
      const { rowCount } = await db.$client.query("SELECT 1 FROM chain_collections WHERE address = $1", [
        collection,
      ]);
      if (!rowCount) throw new ApiError(404, "not_found", "Collection not found");
      const buyer = await buyerOf(request);
      const cap = maxPriceWei === undefined ? null : BigInt(maxPriceWei);
      const candidates = await sweepCandidates(db, {
        collection,
        maxPriceWei: cap === null ? null : cap.toString(),
        buyer,
        limit: Math.min(MAX_CART_ITEMS, count + SWEEP_SPARE),
      });
      if (candidates.length === 0) return { data: { lines: [], totalWei: "0" } };
      const quote = await quoteCart(deps, candidates, buyer);
      // Only what the sweep will buy: works that can be bought now, at or below the cap on chain too.
      const lines = quote.lines
        .filter((line) => line.priceWei !== null && (cap === null || BigInt(line.priceWei) <= cap))
        .sort((a, b) => {
          const d = BigInt(a.priceWei as string) - BigInt(b.priceWei as string);
          return d < 0n ? -1 : d > 0n ? 1 : 0;
        })
        .slice(0, count);
      const total = lines.reduce((sum, line) => sum + BigInt(line.priceWei as string), 0n);
      return { data: { lines, totalWei: total.toString() } };
    },
  );
};
