import { type Health, healthSchema, publicConfigSchema } from "@easel/common";
import { eq, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { explorerUrl } from "../config.ts";
import { indexerState } from "../db/schema.ts";
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
      const [database, chainStatus, indexer] = await Promise.all([
        withTimeout(
          db.execute<{ version: string }>(sql`SELECT current_setting('server_version') AS version`),
          HEALTH_TIMEOUT_MS,
        )
          .then((result) => ({ ok: true, version: result.rows[0]?.version ?? null }))
          .catch((error: unknown) => ({ ok: false, version: null, error: message(error) })),
        withTimeout(Promise.all([chain.getChainId(), chain.getBlockNumber()]), HEALTH_TIMEOUT_MS)
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
          .then(([state]) =>
            state
              ? {
                  headBlock: state.headBlock.toString(),
                  indexedBlock: state.indexedBlock.toString(),
                  lag: Number(state.headBlock - state.indexedBlock),
                  updatedAt: state.updatedAt.toISOString(),
                }
              : null,
          )
          .catch(() => null),
      ]);
      const body: Health = {
        status: database.ok && chainStatus.ok ? "ok" : "degraded",
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
    async () => ({
      chainId: config.chainId,
      localChain: config.localChain,
      rpcUrl: config.browserRpcUrl,
      explorerUrl: explorerUrl(config.chainId),
      contracts: config.contracts,
      ens: config.ens,
    }),
  );
};
