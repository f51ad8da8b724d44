import {
  ANVIL_ADDRESSES,
  devAccountsResponseSchema,
  type Health,
  healthSchema,
  publicConfigSchema,
} from "@easel/common";
import { eq, inArray, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { privateKeyToAccount } from "viem/accounts";
import { publicConfig } from "../config.ts";
import { chainAccounts } from "../db/chain-schema.ts";
import { indexerState, profiles } from "../db/schema.ts";
import { EASEL_VERSION } from "../version.ts";
import { currentSession } from "./auth.ts";
import { isAdmin } from "./guards.ts";

const HEALTH_TIMEOUT_MS = 3000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref(),
    ),
  ]);
}

/** The indexer counts as stale when it is this far behind the chain and its cursor has not moved for this long. */
const STALE_BLOCKS = 3n;
const STALE_MS = 30_000;

/**
 * Where the indexer stands against the chain's head as this API sees it now (not the head the indexer
 * last recorded, which stops moving when the indexer does): stale when it is behind and not catching up.
 */
function indexerHealth(
  state: { headBlock: bigint; indexedBlock: bigint; updatedAt: Date } | null,
  chainHead: string | null,
  confirmations: number,
): Health["indexer"] {
  if (!state) return null;
  const head = chainHead === null ? state.headBlock : BigInt(chainHead);
  const behind = head > state.indexedBlock ? head - state.indexedBlock : 0n;
  return {
    headBlock: head.toString(),
    indexedBlock: state.indexedBlock.toString(),
    lag: Number(behind),
    updatedAt: state.updatedAt.toISOString(),
    stale: behind > BigInt(confirmations) + STALE_BLOCKS && Date.now() - state.updatedAt.getTime() > STALE_MS,
  };
}

const message = (error: unknown) => (error instanceof Error ? error.message.split("\n")[0] : String(error));

export const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, chain, config } = app.deps;

  app.get(
    "/health",
    {
      schema: {
        summary: "Database, chain and indexer status",
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      const [database, chainStatus, state] = await Promise.all([
        withTimeout(
          db.execute<{ version: string }>(sql`SELECT current_setting('server_version') AS version`),
          HEALTH_TIMEOUT_MS,
        )
          .then((result) => ({ ok: true, version: result.rows[0]?.version ?? null }))
          .catch((error: unknown) => ({ ok: false, version: null, error: message(error) })),
        withTimeout(
          Promise.all([chain.getChainId(), chain.getBlockNumber({ cacheTime: 0 })]),
          HEALTH_TIMEOUT_MS,
        )
          .then(([chainId, head]) => ({
            ok: chainId === config.chainId,
            chainId,
            headBlock: head.toString(),
            ...(chainId === config.chainId ? {} : { error: `expected chain ${config.chainId}` }),
          }))
          .catch((error: unknown) => ({ ok: false, chainId: null, headBlock: null, error: message(error) })),
        withTimeout(
          db.select().from(indexerState).where(eq(indexerState.chainId, config.chainId)),
          HEALTH_TIMEOUT_MS,
        )
          .then(([state]) => state ?? null)
          .catch(() => null),
      ]);
      const indexer = indexerHealth(state, chainStatus.headBlock, config.indexerConfirmations);
      const body: Health = {
        status: database.ok && chainStatus.ok && !indexer?.stale ? "ok" : "degraded",
        version: EASEL_VERSION,
        node: process.version,
        database,
        chain: chainStatus,
        indexer,
      };
      // Versions and error texts help an attacker more than a visitor: operators (admins) see them.
      const session = await currentSession(app, request).catch(() => null);
      const shown: Health = isAdmin(app, session?.address)
        ? body
        : {
            status: body.status,
            version: body.version,
            database: { ok: database.ok, version: null },
            chain: { ok: chainStatus.ok, chainId: chainStatus.chainId, headBlock: chainStatus.headBlock },
            indexer,
          };
      return reply.status(body.status === "ok" ? 200 : 503).send(shown);
    },
  );

  app.get(
    "/config",
    {
      schema: {
        summary: "The chain and contracts this Easel runs on",
        response: { 200: publicConfigSchema },
      },
    },
    async () => publicConfig(config),
  );

  // The Dev wallet's picker says who each test account is, so a newcomer can mint, trade and moderate.
  if (config.localChain) {
    const signer = privateKeyToAccount(config.signerPrivateKey).address.toLowerCase();
    app.get(
      "/dev/accounts",
      {
        schema: {
          summary: "Local chain only: the Dev wallet's test accounts, with their names and roles here",
          response: { 200: devAccountsResponseSchema },
        },
      },
      async (_request, reply) => {
        reply.header("cache-control", "no-store");
        const addresses = ANVIL_ADDRESSES.map((address) => address.toLowerCase());
        const [names, chainRoles] = await Promise.all([
          db
            .select({ address: profiles.address, name: profiles.name })
            .from(profiles)
            .where(inArray(profiles.address, addresses)),
          db.select().from(chainAccounts).where(inArray(chainAccounts.address, addresses)),
        ]);
        const nameOf = new Map(names.map((row) => [row.address, row.name]));
        const rolesOf = new Map(chainRoles.map((row) => [row.address, row]));
        return {
          data: {
            accounts: ANVIL_ADDRESSES.map((address) => {
              const key = address.toLowerCase();
              const chainRole = rolesOf.get(key);
              const roles = [
                isAdmin(app, key) && "Moderator",
                key === signer && "Voucher signer",
                chainRole?.banned && "Banned",
                chainRole?.verifiedArtist && "Artist — verified",
              ].filter(Boolean);
              return { address, name: nameOf.get(key) || null, role: roles.join(", ") || "Collector" };
            }),
          },
        };
      },
    );
  }
};
