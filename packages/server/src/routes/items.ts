import { createHash } from "node:crypto";
import {
  apiErrorSchema,
  buyLazyMintResponseSchema,
  buyLazyMintSchema,
  cidToHex,
  displayName,
  ethPriceResponseSchema,
  itemFavoriteResponseSchema,
  itemFavoriteSchema,
  itemQuerySchema,
  itemRefSchema,
  itemResponseSchema,
  itemTraitsQuerySchema,
  itemTraitsResponseSchema,
  itemViewResponseSchema,
  LAZY_EDIT_MESSAGES,
  LAZY_MINT_VOUCHER_TTL_SECONDS,
  LAZY_PRICE_MIN_WEI,
  type LazyMintVoucherResponse,
  lazyPriceEditResponseSchema,
  lazyPriceEditSchema,
  MINT_MESSAGES,
} from "@easel/common";
import { LAZY_MINT_DOMAIN, lazyMintVoucherTypes, MAX_PRICE_WEI } from "@easel/contracts";
import { aggregatorV3Abi, easelCollectionAbi } from "@easel/contracts/abis";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { createWalletClient, custom, formatEther, formatUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import type { Viewer } from "../browse/cards.ts";
import { visibleToken } from "../browse/cards.ts";
import { itemDetail, LAZY_LISTING_DAYS, uploadPath } from "../browse/item.ts";
import { showLazyItem } from "../browse/lazyCards.ts";
import { itemTraits } from "../browse/traits.ts";
import { chainFor } from "../chain/client.ts";
import { tokenName } from "../chain/rows.ts";
import { itemLabel, notifiedToday, notify, notifyWatchers } from "../community/notify.ts";
import type { Database } from "../db/client.ts";
import { ApiError, loggableError } from "../errors.ts";
import type { DbOrTx } from "../mail/outbox.ts";
import { badRequest, isAdmin, requireActiveUser, viewerOf, walletOrIpKey } from "./guards.ts";

const ITEM_NOT_FOUND = "Item not found";
const LAZY_CREATOR_NOT_ARTIST =
  "This item cannot be minted now: its creator is not a verified artist on Easel at the moment.";
const LAZY_COLLABORATOR_BANNED = "This item cannot be minted now: one of its collaborators is banned.";
/** The feed moves every few minutes at most; one read a minute serves every price on every screen. */
const ETH_PRICE_TTL_MS = 60_000;
type LazyMintVoucher = LazyMintVoucherResponse["data"]["voucher"];
/** A voucher is given again only with this much time left to send the mint. */
const LAZY_VOUCHER_REUSE_MIN_SECONDS = 120;
/** How long a price raise waits for the revocation of older vouchers to be mined. */
const REVOKE_TIMEOUT_MS = 60_000;
/**
 * A lazy collection's vouchers are voided on chain (`revokeVouchers()`, paid by the platform signer) at most once
 * in this long. A raise over vouchers signed since then waits for the earlier of their deadline and the end of
 * this interval; the price stays as it was meanwhile, so no voucher under a price the creator was told holds is
 * ever usable.
 */
export const REVOKE_INTERVAL_MS = 5 * 60_000;
/** Price edits a wallet may send in a minute. */
export const PRICE_EDITS_PER_MINUTE = 20;

/** The 409 of a raise that must wait until `at`: the price is unchanged. */
function raiseHeld(at: Date, reply: FastifyReply): ApiError {
  const seconds = Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));
  reply.header("retry-after", String(seconds));
  const when = `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const message = LAZY_RAISE_HELD(when, Math.ceil(seconds / 60));
  return new ApiError(409, "raise_held", message, { price: message });
}
const LAZY_RAISE_HELD = (when: string, minutes: number) =>
  `Buyers hold vouchers at the current price, and this collection's vouchers were voided a moment ago: the price is unchanged. You can raise it again from ${when} (in ${minutes} minute${minutes === 1 ? "" : "s"}).`;
const LAZY_RAISE_FAILED =
  "The higher price cannot take effect now: the vouchers buyers hold at the current price could not be voided on chain. The price is unchanged; please try again in a few minutes.";

/** Whether the token exists on chain and this viewer may see it (not burned; blocked only for moderators). */
async function itemVisible(db: Database, viewer: Viewer, collection: string, tokenId: string) {
  const { rows } = await db.execute(sql`
    SELECT 1 FROM chain_tokens t JOIN chain_collections c ON c.address = t.collection
    WHERE t.collection = ${collection} AND t.token_id = ${tokenId}::numeric AND ${visibleToken(viewer)}`);
  return rows.length > 0;
}

/**
 * Item views and favourites, the counts behind the Most viewed and Most favorited sorts. `item_stats` holds
 * the counts, changed in the same transaction as the row that justifies them, so they never drift.
 */
export const itemRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, chain, config } = app.deps;
  const platformSigner = privateKeyToAccount(config.signerPrivateKey);
  let ethPrice: { usd: string; updatedAt: string; readAt: number } | null = null;

  app.get(
    "/eth-price",
    {
      schema: {
        summary: "USD per ETH, read from the chain's Chainlink ETH/USD feed (cached for a minute)",
        response: { 200: ethPriceResponseSchema, 503: apiErrorSchema },
      },
    },
    async (_request, reply) => {
      if (!ethPrice || Date.now() - ethPrice.readAt > ETH_PRICE_TTL_MS) {
        try {
          const feed = { address: config.contracts.ethUsdFeed, abi: aggregatorV3Abi } as const;
          const [decimals, round] = await Promise.all([
            chain.readContract({ ...feed, functionName: "decimals" }),
            chain.readContract({ ...feed, functionName: "latestRoundData" }),
          ]);
          const [, answer, , updatedAt] = round;
          if (answer <= 0n) throw new Error("no price");
          ethPrice = {
            usd: formatUnits(answer, decimals),
            updatedAt: new Date(Number(updatedAt) * 1000).toISOString(),
            readAt: Date.now(),
          };
        } catch {
          if (!ethPrice)
            throw new ApiError(503, "price_unavailable", "The ETH price is not available right now.");
        }
      }
      reply.header("cache-control", "public, max-age=60");
      return { data: { usd: ethPrice.usd, updatedAt: ethPrice.updatedAt } };
    },
  );

  app.get(
    "/",
    {
      schema: {
        summary:
          "An item's page: what was minted (or listed lazily), its sale state, offers, activity and prices",
        querystring: itemQuerySchema,
        response: { 200: itemResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const viewer = await viewerOf(app, request);
      const data = await itemDetail(db, viewer, request.query, config.contracts.defaultCollection);
      if (!data) throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      return { data };
    },
  );

  app.get(
    "/traits",
    {
      schema: {
        summary: "An item's properties, each with how many items of its collection share that value",
        querystring: itemTraitsQuerySchema,
        response: { 200: itemTraitsResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const viewer = await viewerOf(app, request);
      const traits = await itemTraits(db, viewer, request.query.collection, request.query.tokenId);
      if (!traits) throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      return { data: { traits } };
    },
  );

  app.get(
    "/link/:id",
    {
      schema: {
        summary: "Redirects a minted upload's external_url to its item page",
        params: z.object({ id: z.uuid() }),
        response: { 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const path = await uploadPath(db, request.params.id);
      if (!path) throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      return reply.redirect(path, 302);
    },
  );

  /** A lazy item not minted yet, with what a voucher needs. */
  async function openLazyItem(collection: string, tokenId: string) {
    const { rows } = await db.execute<Record<string, unknown>>(sql`
      SELECT l.collection, l.token_id, l.price, l.creator, m.cid, m.royalty, m.collaborators, c.owner,
        c.blocked OR EXISTS (SELECT 1 FROM chain_blocked_tokens b
          WHERE b.collection = l.collection AND b.token_id = l.token_id) AS blocked,
        l.updated_at > now() - make_interval(days => ${LAZY_LISTING_DAYS}) AS listed,
        COALESCE(a.verified_artist AND NOT a.banned, false) AS creator_may_mint,
        EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(m.collaborators, '[]'::jsonb)) x
          JOIN chain_accounts ca ON ca.address = x->>'address' WHERE ca.banned) AS collaborator_banned
      FROM lazy_items l JOIN item_metadata m ON m.cid = l.metadata_cid
      JOIN chain_collections c ON c.address = l.collection
      LEFT JOIN chain_accounts a ON a.address = c.owner
      WHERE l.collection = ${collection} AND l.token_id = ${tokenId}::numeric
        AND NOT EXISTS (SELECT 1 FROM chain_tokens t WHERE t.collection = l.collection AND t.token_id = l.token_id
          AND t.status <> 'lazy')`);
    return rows[0] ?? null;
  }

  /** The lazy-mint minimum on chain (and never under the mint form's floor). */
  async function lazyMinimum(): Promise<bigint> {
    const { rows } = await db.execute<{ lazy: string | null }>(
      sql`SELECT args->>'lazyMint' AS lazy FROM chain_settings WHERE name = 'MinimumsSet'`,
    );
    const chainMinimum = BigInt(rows[0]?.lazy ?? "0");
    return chainMinimum > LAZY_PRICE_MIN_WEI ? chainMinimum : LAZY_PRICE_MIN_WEI;
  }

  app.post(
    "/buy-lazy-mint",
    {
      config: { rateLimit: { max: 30, timeWindow: "1 minute", keyGenerator: walletOrIpKey(app) } },
      schema: {
        summary: "A voucher for the signed-in buyer to mint and buy a lazy item (valid 10 minutes)",
        body: buyLazyMintSchema,
        response: {
          200: buyLazyMintResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      const { collection, nft_id } = request.body;
      const item = await openLazyItem(collection, nft_id);
      if (!item || item.blocked) throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      if (!item.listed) throw new ApiError(400, "not_listed", "This item is no longer for sale.");
      if (item.owner === session.address)
        throw new ApiError(403, "own_item", "You created this item: a buyer mints it.");
      // The collection refuses these lazy mints on chain: said here, before the buyer pays gas for a revert.
      if (!item.creator_may_mint) throw new ApiError(403, "creator_not_artist", LAZY_CREATOR_NOT_ARTIST);
      if (item.collaborator_banned) throw new ApiError(403, "collaborator_banned", LAZY_COLLABORATOR_BANNED);
      // The nonce the collection expects now: a revocation on chain voids older vouchers.
      const [, , , nonce] = await chain.readContract({
        address: collection as `0x${string}`,
        abi: easelCollectionAbi,
        functionName: "collectionInfo",
      });
      const price = String(item.price);
      // One open voucher per buyer and item: asked again (the app asks at every Buy), the buyer gets the one
      // they hold while it is for this price and nonce and has time left to be used.
      const { rows: held } = await db.execute<{ voucher: LazyMintVoucher }>(sql`
        SELECT voucher FROM lazy_vouchers
        WHERE collection = ${collection} AND token_id = ${nft_id}::numeric AND buyer = ${session.address}
          AND price = ${price}::numeric AND nonce = ${Number(nonce)}
          AND deadline > now() + make_interval(secs => ${LAZY_VOUCHER_REUSE_MIN_SECONDS})`);
      if (held[0]) return { data: { voucher: held[0].voucher } };
      const collaborators = ((item.collaborators as { address: string; share: number }[] | null) ?? []).map(
        (c) => ({
          account: c.address as `0x${string}`,
          share: c.share,
        }),
      );
      const voucher = {
        tokenId: BigInt(nft_id),
        price: BigInt(price),
        royaltyBps: Number(item.royalty) * 100,
        cid: cidToHex(String(item.cid)),
        collaborators,
        nonce: Number(nonce),
        deadline: BigInt(Math.floor(Date.now() / 1000) + LAZY_MINT_VOUCHER_TTL_SECONDS),
      };
      const signature = await platformSigner.signTypedData({
        domain: {
          ...LAZY_MINT_DOMAIN,
          chainId: config.chainId,
          verifyingContract: collection as `0x${string}`,
        },
        types: lazyMintVoucherTypes,
        primaryType: "LazyMintVoucher",
        message: {
          ...voucher,
          buyer: session.address as `0x${string}`,
          collection: collection as `0x${string}`,
        },
      });
      const sent: LazyMintVoucher = {
        ...voucher,
        tokenId: voucher.tokenId.toString(),
        price: voucher.price.toString(),
        deadline: voucher.deadline.toString(),
        signature,
      };
      // Recorded before the voucher leaves: a price raise finds it and voids it (the edit below).
      await db.execute(sql`
        INSERT INTO lazy_vouchers (collection, token_id, buyer, price, nonce, deadline, voucher)
        VALUES (${collection}, ${nft_id}::numeric, ${session.address}, ${price}::numeric, ${voucher.nonce},
          to_timestamp(${Number(voucher.deadline)}), ${JSON.stringify(sent)}::jsonb)
        ON CONFLICT (collection, token_id, buyer) DO UPDATE SET price = EXCLUDED.price, nonce = EXCLUDED.nonce,
          deadline = EXCLUDED.deadline, voucher = EXCLUDED.voucher`);
      // A price changed while this was signed: the voucher never leaves (the edit may not have seen it).
      const { rows: still } = await db.execute(sql`
        SELECT 1 FROM lazy_items
        WHERE collection = ${collection} AND token_id = ${nft_id}::numeric AND price = ${price}::numeric`);
      if (still.length === 0)
        throw new ApiError(409, "price_changed", "The price has just changed: please try again.");
      return { data: { voucher: sent } };
    },
  );

  /**
   * Voids every voucher of a collection signed so far: the platform signer (which the collection allows, like
   * its owner) moves the collection's voucher nonce on, and vouchers carrying the old one no longer mint.
   * Not revoked when the transaction could not be made (the signer has no ETH for gas, the RPC is down, the
   * nonce is at its end; `sent` says whether a transaction left the signer): the raise is then refused and the
   * old vouchers end at their deadline, within LAZY_MINT_VOUCHER_TTL_SECONDS. `nonceBefore`: the nonce the
   * voided vouchers carry (and every older one).
   */
  async function revokeVouchers(
    collection: `0x${string}`,
    log: FastifyBaseLogger,
  ): Promise<{ revoked: true; nonceBefore: number } | { revoked: false; sent: boolean }> {
    let sent = false;
    try {
      const [, , , nonceBefore] = await chain.readContract({
        address: collection,
        abi: easelCollectionAbi,
        functionName: "collectionInfo",
      });
      const wallet = createWalletClient({
        account: platformSigner,
        chain: chainFor(config.chainId),
        transport: custom(chain),
      });
      const hash = await wallet.writeContract({
        address: collection,
        abi: easelCollectionAbi,
        functionName: "revokeVouchers",
      });
      sent = true;
      const receipt = await chain.waitForTransactionReceipt({ hash, timeout: REVOKE_TIMEOUT_MS });
      if (receipt.status === "success") return { revoked: true, nonceBefore: Number(nonceBefore) };
      log.warn({ collection, hash }, "revoking lazy vouchers reverted");
    } catch (error) {
      log.warn({ err: loggableError(error), collection }, "revoking lazy vouchers failed");
    }
    return { revoked: false, sent };
  }

  /** The end of `collection`'s revocation interval, when its vouchers were voided less than REVOKE_INTERVAL_MS ago. */
  async function revokedUntil(collection: string): Promise<Date | null> {
    const { rows } = await db.execute<{ until: Date | string }>(sql`
      SELECT revoked_at + make_interval(secs => ${REVOKE_INTERVAL_MS / 1000}) AS until
      FROM lazy_voucher_revocations
      WHERE collection = ${collection} AND revoked_at > now() - make_interval(secs => ${REVOKE_INTERVAL_MS / 1000})`);
    return rows[0] ? new Date(rows[0].until) : null;
  }

  /** The last deadline of the open vouchers of an item under `price`, or null when none is open. */
  async function openBelow(collection: string, tokenId: string, price: string): Promise<Date | null> {
    const { rows } = await db.execute<{ until: Date | string | null }>(sql`
      SELECT max(deadline) AS until FROM lazy_vouchers
      WHERE collection = ${collection} AND token_id = ${tokenId}::numeric AND deadline > now()
        AND price < ${price}::numeric`);
    return rows[0]?.until ? new Date(rows[0].until) : null;
  }

  app.put(
    "/edit",
    {
      config: {
        rateLimit: { max: PRICE_EDITS_PER_MINUTE, timeWindow: "1 minute", keyGenerator: walletOrIpKey(app) },
      },
      schema: {
        summary:
          "Change a lazy item's minting price (its creator, before a buyer mints it); lists it for 100 days",
        body: lazyPriceEditSchema,
        response: {
          200: lazyPriceEditResponseSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
          409: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { session } = await requireActiveUser(app, request);
      const { collection, nft_id, price } = request.body;
      const item = await openLazyItem(collection, nft_id);
      if (!item) throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      if (item.creator !== session.address) throw new ApiError(403, "forbidden", LAZY_EDIT_MESSAGES.notYours);
      if (BigInt(price) > MAX_PRICE_WEI)
        throw badRequest("price_too_high", "price", MINT_MESSAGES.priceTooHigh);
      const minimum = await lazyMinimum();
      if (BigInt(price) < minimum)
        throw new ApiError(400, "price_too_low", LAZY_EDIT_MESSAGES.priceMin(formatEther(minimum)), {
          price: LAZY_EDIT_MESSAGES.priceMin(formatEther(minimum)),
        });
      // A price the creator is told holds is the least any usable voucher pays. Vouchers given at a lower price
      // would still mint below it until their deadline: on a raise, the collection's nonce moves on and voids
      // them (the nonce is the collection's: other items' open vouchers go too, and their buyers ask again).
      // That costs the platform signer a transaction, so a collection is revoked at most once per
      // REVOKE_INTERVAL_MS; a raise over vouchers signed since waits, the price unchanged, until they end or the
      // interval does, whichever is first (so asking for vouchers again and again cannot freeze the price).
      const held = await openBelow(collection, nft_id, price);
      const revokedRecently = held ? await revokedUntil(collection) : null;
      if (held && revokedRecently) throw raiseHeld(held < revokedRecently ? held : revokedRecently, reply);
      // The price changes first, so a voucher signed meanwhile is either seen below or refused by the voucher
      // route's own check; the price it replaced is kept to put back if the raise cannot take effect.
      const {
        rows: [changed],
      } = await db.execute<{ old_price: string; old_updated_at: string; updated_at: string }>(sql`
        UPDATE lazy_items l SET price = ${price}::numeric, updated_at = now()
        FROM (SELECT collection, token_id, price, updated_at FROM lazy_items
              WHERE collection = ${collection} AND token_id = ${nft_id}::numeric FOR UPDATE) old
        WHERE l.collection = old.collection AND l.token_id = old.token_id
        RETURNING old.price::text AS old_price, old.updated_at::text AS old_updated_at, l.updated_at::text AS updated_at`);
      if (!changed) throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      const putBack = () =>
        db.execute(sql`
          UPDATE lazy_items SET price = ${changed.old_price}::numeric, updated_at = ${changed.old_updated_at}::timestamptz
          WHERE collection = ${collection} AND token_id = ${nft_id}::numeric
            AND price = ${price}::numeric AND updated_at = ${changed.updated_at}::timestamptz`);
      const open = await openBelow(collection, nft_id, price);
      if (open) {
        // Only one raise per interval may send the revocation: the first to move the collection's mark.
        const { rows: claimed } = await db.execute(sql`
          INSERT INTO lazy_voucher_revocations AS r (collection, revoked_at) VALUES (${collection}, now())
          ON CONFLICT (collection) DO UPDATE SET revoked_at = EXCLUDED.revoked_at
            WHERE r.revoked_at <= now() - make_interval(secs => ${REVOKE_INTERVAL_MS / 1000})
          RETURNING 1`);
        if (claimed.length === 0) {
          await putBack();
          const until = (await revokedUntil(collection)) ?? open;
          throw raiseHeld(open < until ? open : until, reply);
        }
        const outcome = await revokeVouchers(collection as `0x${string}`, request.log);
        if (!outcome.revoked) {
          await putBack();
          // No transaction left the signer: the next raise may try again at once.
          if (!outcome.sent)
            await db.execute(sql`DELETE FROM lazy_voucher_revocations WHERE collection = ${collection}`);
          throw new ApiError(503, "raise_failed", LAZY_RAISE_FAILED, { price: LAZY_RAISE_FAILED });
        }
        // Void now: every voucher signed with the nonce before the revocation (not those signed after it).
        await db.execute(sql`
          DELETE FROM lazy_vouchers WHERE collection = ${collection} AND nonce <= ${outcome.nonceBefore}`);
      }
      // Vouchers past their deadline are of no use to anyone.
      await db.execute(sql`DELETE FROM lazy_vouchers WHERE deadline <= now()`);
      // Browse shows the new price (and a listing renewed for its term) at once.
      await showLazyItem(db.$client, { collection, tokenId: nft_id });
      // Whoever hearted it hears of the new price, as of an on-chain or signed listing's.
      if (BigInt(changed.old_price) !== BigInt(price)) {
        const client = await db.$client.connect();
        try {
          const shown = `${formatEther(BigInt(price))} ETH`;
          const alerted = await notifyWatchers(client, {
            collection,
            tokenId: nft_id,
            kind: "watch_price",
            key: `lazy-price:${collection}:${nft_id}:${changed.updated_at}`,
            message: (item) => `The price of ${item}, which you favourited, is now ${shown}.`,
            except: [session.address],
            data: { price },
          });
          if (alerted.length > 0) app.mail.flush();
        } finally {
          client.release();
        }
      }
      return { data: { message: LAZY_EDIT_MESSAGES.updated, price } };
    },
  );

  app.post(
    "/view",
    {
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
      schema: {
        summary: "Counts a view of an item: one per viewer (wallet, or a hash of the visitor's IP) a day",
        body: itemRefSchema,
        response: { 200: itemViewResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const viewer = await viewerOf(app, request);
      const { collection, tokenId } = request.body;
      if (!(await itemVisible(db, viewer, collection, tokenId))) {
        throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      }
      // A visitor is known only by a hash of their address on the network: the IP itself is not stored.
      const who =
        viewer.address ?? `ip:${createHash("sha256").update(request.ip).digest("hex").slice(0, 32)}`;
      const { rows } = await db.execute<{ counted: boolean; views: number }>(sql`
        WITH seen AS (
          INSERT INTO item_views (collection, token_id, viewer, day)
          VALUES (${collection}, ${tokenId}::numeric, ${who}, (now() AT TIME ZONE 'utc')::date)
          ON CONFLICT DO NOTHING RETURNING 1
        ), counted AS (
          INSERT INTO item_stats (collection, token_id, views)
          SELECT ${collection}, ${tokenId}::numeric, 1 FROM seen
          ON CONFLICT (collection, token_id) DO UPDATE SET views = item_stats.views + 1
          RETURNING views
        )
        SELECT EXISTS (SELECT 1 FROM seen) AS counted,
          coalesce((SELECT views FROM counted),
                   (SELECT views FROM item_stats WHERE collection = ${collection} AND token_id = ${tokenId}::numeric),
                   0)::int AS views`);
      const row = rows[0] ?? { counted: false, views: 0 };
      return { data: { counted: row.counted, views: Number(row.views) } };
    },
  );

  app.post(
    "/favorite",
    {
      schema: {
        summary: "Favourites an item (the wanted state, or a toggle) for the signed-in user",
        body: itemFavoriteSchema,
        response: {
          200: itemFavoriteResponseSchema,
          400: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
        },
      },
    },
    async (request) => {
      const { session } = await requireActiveUser(app, request);
      const { collection, tokenId } = request.body;
      const viewer = { address: session.address, moderator: isAdmin(app, session.address) };
      if (!(await itemVisible(db, viewer, collection, tokenId))) {
        throw new ApiError(404, "not_found", ITEM_NOT_FOUND);
      }
      const result = await db.transaction(async (tx) => {
        // The stats row is the lock: two requests from one person at once count once.
        await tx.execute(sql`
          INSERT INTO item_stats (collection, token_id) VALUES (${collection}, ${tokenId}::numeric)
          ON CONFLICT DO NOTHING`);
        const {
          rows: [stats],
        } = await tx.execute<{ favorites: number }>(sql`
          SELECT favorites FROM item_stats
          WHERE collection = ${collection} AND token_id = ${tokenId}::numeric FOR UPDATE`);
        const mine = sql`collection = ${collection} AND token_id = ${tokenId}::numeric AND address = ${session.address}`;
        const { rows: existing } = await tx.execute(sql`SELECT 1 FROM item_favorites WHERE ${mine}`);
        const was = existing.length > 0;
        const want = request.body.favorite ?? !was;
        let delta = 0;
        if (want && !was) {
          await tx.execute(sql`
            INSERT INTO item_favorites (collection, token_id, address, since_block)
            VALUES (${collection}, ${tokenId}::numeric, ${session.address},
              COALESCE((SELECT max(indexed_block) FROM indexer_state), 0))`);
          delta = 1;
        } else if (!want && was) {
          await tx.execute(sql`DELETE FROM item_favorites WHERE ${mine}`);
          delta = -1;
        }
        if (delta !== 0) {
          await tx.execute(sql`
            UPDATE item_stats SET favorites = favorites + ${delta}
            WHERE collection = ${collection} AND token_id = ${tokenId}::numeric`);
        }
        const mailQueued = delta === 1 && (await notifyFavorite(tx, session.address, collection, tokenId));
        return { favorite: want, favorites: Number(stats?.favorites ?? 0) + delta, mailQueued };
      });
      if (result.mailQueued) app.mail.flush();
      return { data: { favorite: result.favorite, favorites: result.favorites } };
    },
  );
};

/**
 * Tells an item's owner (the creator of a lazy item) that someone favourited it: at most once a day per
 * person and item, so toggling cannot turn Easel into a mailer. True when a mail was queued.
 */
async function notifyFavorite(tx: DbOrTx, by: string, collection: string, tokenId: string): Promise<boolean> {
  const {
    rows: [item],
  } = await tx.execute<{ owner: string | null; name: string | null; collection_name: string | null }>(sql`
    SELECT coalesce(t.owner, l.creator) AS owner, m.name, c.name AS collection_name
    FROM (SELECT) one
    LEFT JOIN chain_tokens t ON t.collection = ${collection} AND t.token_id = ${tokenId}::numeric
    LEFT JOIN lazy_items l ON l.collection = ${collection} AND l.token_id = ${tokenId}::numeric
    LEFT JOIN item_metadata m ON m.cid = coalesce(t.cid, l.metadata_cid)
    LEFT JOIN chain_collections c ON c.address = ${collection}`);
  const owner = item?.owner;
  if (!owner || owner === by) return false;
  if (await notifiedToday(tx, owner, "favorite", { by, collection, tokenId })) return false;
  const { rows: names } = await tx.execute<{ name: string | null; username: string | null }>(
    sql`SELECT name, username FROM profiles WHERE address = ${by}`,
  );
  const who = displayName({ ...names[0], address: by });
  const { mailQueued } = await notify(tx, {
    address: owner,
    kind: "favorite",
    flag: "favorite",
    message: `${who} favourited your ${itemLabel(item?.name ?? tokenName(item?.collection_name, tokenId))}.`,
    data: { by, collection, tokenId },
  });
  return mailQueued;
}
