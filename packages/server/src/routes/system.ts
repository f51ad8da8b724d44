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
import { publicConfig } from "../config.ts";
import { chainAccounts } from "../db/chain-schema.ts";
import { profiles } from "../db/schema.ts";
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

export type HealthOptions = {
  /** How long the indexer's leader may make no progress before health says "degraded" (default 30 s). */
  leaderSilenceMs?: number;
  /** How long one read of the chain's id and head answers this process's health checks (default 2 s). */
  chainReadMs?: number;
};

type IndexerRow = {
  head_block: string;
  indexed_block: string;
  /** When the cursor last moved, in ms since the epoch. */
  updated_ms: number;
  /** Seconds since the leader's last heartbeat (PostgreSQL's clock for both ends); null with no leader yet. */
  heartbeat_age: number | null;
};

/**
 * Where the indexer stands against the chain's head (the newer of the API's last read and the indexer's):
 * stale when it is behind and not catching up.
 */
function indexerHealth(
  state: IndexerRow | null,
  chainHead: string | null,
  confirmations: number,
): Health["indexer"] {
  if (!state) return null;
  const indexed = BigInt(state.indexed_block);
  const recorded = BigInt(state.head_block);
  const head = chainHead !== null && BigInt(chainHead) > recorded ? BigInt(chainHead) : recorded;
  const behind = head > indexed ? head - indexed : 0n;
  const age = state.heartbeat_age;
  const updatedAt = new Date(state.updated_ms);
  return {
    headBlock: head.toString(),
    indexedBlock: indexed.toString(),
    lag: Number(behind),
    updatedAt: updatedAt.toISOString(),
    stale: behind > BigInt(confirmations) + STALE_BLOCKS && Date.now() - state.updated_ms > STALE_MS,
    leaderHeartbeatAge: age === null ? null : Math.round(age * 10) / 10,
  };
}

type ChainStatus = Health["chain"];

/**
 * The chain's id and head, read from the RPC at most once per `ttlMs` whatever the number of health checks
 * (each read spends paid RPC quota, and the health check is outside the rate limits): checks that arrive
 * during a read wait for it, later ones get its answer until it is `ttlMs` old.
 */
function chainReader(read: () => Promise<ChainStatus>, ttlMs: number): () => Promise<ChainStatus> {
  let last: { at: number; status: ChainStatus } | null = null;
  let pending: Promise<ChainStatus> | null = null;
  return () => {
    if (last && Date.now() - last.at < ttlMs) return Promise.resolve(last.status);
    pending ??= read().then((status) => {
      last = { at: Date.now(), status };
      pending = null;
      return status;
    });
    return pending;
  };
}

const message = (error: unknown) => (error instanceof Error ? error.message.split("\n")[0] : String(error));

export const systemRoutes: FastifyPluginAsyncZod<HealthOptions> = async (app, options) => {
  const { db, chain, config } = app.deps;
  const leaderSilenceMs = options.leaderSilenceMs ?? 30_000;
  const readChain = chainReader(
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

  app.get(
    "/health",
    {
      schema: {
        summary: "Database, chain and indexer status",
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      const [database, chainRead, state] = await Promise.all([
        withTimeout(
          db.execute<{ version: string }>(sql`SELECT current_setting('server_version') AS version`),
          HEALTH_TIMEOUT_MS,
        )
          .then((result) => ({ ok: true, version: result.rows[0]?.version ?? null }))
          .catch((error: unknown) => ({ ok: false, version: null, error: message(error) })),
        readChain(),
        withTimeout(
          db.execute<IndexerRow>(
            sql`SELECT s.head_block, s.indexed_block, (extract(epoch FROM s.updated_at) * 1000)::float8 AS updated_ms,
                       extract(epoch FROM now() - l.heartbeat_at)::float8 AS heartbeat_age
                FROM indexer_state s LEFT JOIN indexer_leader l ON l.id = 1
                WHERE s.chain_id = ${config.chainId}`,
          ),
          HEALTH_TIMEOUT_MS,
        )
          .then((result) => result.rows[0] ?? null)
          .catch(() => null),
      ]);
      const indexer = indexerHealth(state, chainRead.headBlock, config.indexerConfirmations);
      // The head shown is the newest known: the indexer may have read a later one than the cached read.
      const chainStatus =
        chainRead.ok && indexer ? { ...chainRead, headBlock: indexer.headBlock } : chainRead;
      // A dead indexer and a quiet chain look alike in the cursor: the leader's heartbeat tells them apart
      // (it is renewed only while the leader makes progress, which it does on a quiet chain too).
      const silent =
        state !== null && (state.heartbeat_age === null || state.heartbeat_age * 1000 > leaderSilenceMs);
      const body: Health = {
        status: database.ok && chainStatus.ok && !indexer?.stale && !silent ? "ok" : "degraded",
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
            indexer: body.indexer,
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
