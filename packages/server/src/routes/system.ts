import {
  ANVIL_ADDRESSES,
  devAccountsResponseSchema,
  type Health,
  healthSchema,
  publicConfigSchema,
} from "@easel/common";
import { inArray, sql } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";
import { SIGNER_LOW_BALANCE_WEI, signerBalanceReader } from "../chain/signerBalance.ts";
import { publicConfig } from "../config.ts";
import { chainAccounts } from "../db/chain-schema.ts";
import { profiles } from "../db/schema.ts";
import { indexerHealth, indexerStatusReader, readIndexerRow } from "../indexer/status.ts";
import { watchIndexer, watchSignerBalance } from "../metrics.ts";
import { sharedFor } from "../sharedFor.ts";
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

export type HealthOptions = {
  /** How long the indexer's leader may make no progress before health says "degraded" (default 30 s). */
  leaderSilenceMs?: number;
  /** How long one read of the chain's id and head answers this process's health checks (default 2 s). */
  chainReadMs?: number;
  /** How long one computation of the health answer serves every anonymous check (default 1 s; tests: 0). */
  healthCacheMs?: number;
};

/** How long one health computation (two database reads) answers the checks that follow it. */
const HEALTH_CACHE_MS = 1_000;
/** How long one readiness read of the database answers the readiness checks that follow it. */
const READY_CACHE_MS = 1_000;
/** How long the readiness check waits for the database: less than a load balancer's usual 2 s probe timeout. */
const READY_TIMEOUT_MS = 1_500;

const readySchema = z.object({
  status: z.enum(["ready", "not_ready"]),
  /** Why not: `closing` (this process is stopping) or `database` (it cannot reach its database). */
  reason: z.enum(["closing", "database"]).optional(),
});

type ChainStatus = Health["chain"];

const message = (error: unknown) => (error instanceof Error ? error.message.split("\n")[0] : String(error));

export const systemRoutes: FastifyPluginAsyncZod<HealthOptions> = async (app, options) => {
  const { db, chain, config } = app.deps;
  // The platform signer pays for voucher revocations: its balance is on health (operators) and on metrics.
  const signerAddress = privateKeyToAccount(config.signerPrivateKey).address;
  const readSignerBalance = signerBalanceReader(chain, signerAddress);
  const unwatchSignerBalance = watchSignerBalance(signerAddress, readSignerBalance);
  app.addHook("onClose", async () => unwatchSignerBalance());
  const leaderSilenceMs = options.leaderSilenceMs ?? 30_000;
  // The chain's id and head, read from the RPC at most once per chainReadMs whatever the number of health checks
  // and scrapes (each read spends paid RPC quota, and the health check is outside the rate limits).
  const readChain = sharedFor<ChainStatus>(
    () =>
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
    options.chainReadMs ?? 2_000,
  );
  // The metrics export the indexer's lag and last progress from this same computation and chain read.
  const unwatchIndexer = watchIndexer(indexerStatusReader(db, config, readChain));
  app.addHook("onClose", async () => unwatchIndexer());

  /** Everything the health check reads (the database twice, the chain's cached read, the signer's balance). */
  const computeHealth = async (): Promise<Health> => {
    const signerRead = withTimeout(readSignerBalance(), HEALTH_TIMEOUT_MS).catch(() => null);
    const [database, chainRead, state] = await Promise.all([
      withTimeout(
        db.execute<{ version: string }>(sql`SELECT current_setting('server_version') AS version`),
        HEALTH_TIMEOUT_MS,
      )
        .then((result) => ({ ok: true, version: result.rows[0]?.version ?? null }))
        .catch((error: unknown) => ({ ok: false, version: null, error: message(error) })),
      readChain(),
      withTimeout(readIndexerRow(db, config.chainId), HEALTH_TIMEOUT_MS).catch(() => null),
    ]);
    const indexer = indexerHealth(state, chainRead.headBlock, config.indexerConfirmations);
    // The head shown is the newest known: the indexer may have read a later one than the cached read.
    const chainStatus = chainRead.ok && indexer ? { ...chainRead, headBlock: indexer.headBlock } : chainRead;
    // A dead indexer and a quiet chain look alike in the cursor: the leader's heartbeat tells them apart
    // (it is renewed only while the leader makes progress, which it does on a quiet chain too).
    const silent =
      state !== null && (state.heartbeat_age === null || state.heartbeat_age * 1000 > leaderSilenceMs);
    const signerWei = await signerRead;
    return {
      status: database.ok && chainStatus.ok && !indexer?.stale && !silent ? "ok" : "degraded",
      version: EASEL_VERSION,
      node: process.version,
      database,
      chain: chainStatus,
      indexer,
      signer: {
        address: signerAddress.toLowerCase(),
        balanceWei: signerWei === null ? null : signerWei.toString(),
        low: signerWei !== null && signerWei < SIGNER_LOW_BALANCE_WEI,
      },
    };
  };
  // Anonymous checks (load balancers, uptime probes, a flood) share one computation a second: checks that arrive
  // during one wait for it, later ones get its answer until it is HEALTH_CACHE_MS old. Health is outside the
  // rate limits, and each computation costs two database reads.
  const readHealth = sharedFor(computeHealth, options.healthCacheMs ?? HEALTH_CACHE_MS);

  app.get(
    "/health",
    {
      schema: {
        summary: "Database, chain and indexer status",
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      const body = await readHealth();
      const { database, chain: chainStatus } = body;
      // Versions and error texts help an attacker more than a visitor: operators (admins) see them.
      const session = await currentSession(app, request).catch(() => null);
      const shown: Health = isAdmin(app, session?.address)
        ? body
        : {
            status: body.status,
            version: body.version,
            database: { ok: database.ok, version: null },
            chain: { ok: chainStatus.ok, chainId: chainStatus.chainId, headBlock: chainStatus.headBlock },
            indexer: body.indexer,
          };
      return reply.status(body.status === "ok" ? 200 : 503).send(shown);
    },
  );

  // Readiness: whether this process can answer requests now, for a load balancer choosing among replicas. It
  // checks only what this replica itself needs (its database connection, that it is not stopping), never
  // the chain or the indexer, which every replica shares: an RPC outage must not take every replica out.
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  const readDatabase = sharedFor(
    () =>
      withTimeout(db.$client.query("SELECT 1"), READY_TIMEOUT_MS).then(
        () => true,
        () => false,
      ),
    options.healthCacheMs ?? READY_CACHE_MS,
  );
  app.get(
    "/ready",
    {
      schema: {
        summary: "Whether this API process can serve requests (for load balancers): 200 ready, 503 not",
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      if (closing)
        return reply
          .status(503)
          .header("connection", "close")
          .send({ status: "not_ready", reason: "closing" });
      const reachable = await readDatabase();
      if (closing)
        return reply
          .status(503)
          .header("connection", "close")
          .send({ status: "not_ready", reason: "closing" });
      return reachable
        ? reply.status(200).send({ status: "ready" })
        : reply.status(503).send({ status: "not_ready", reason: "database" });
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
