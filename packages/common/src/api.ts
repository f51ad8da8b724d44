import { z } from "zod";
import { ADDRESS_PATTERN, type ApiErrorBody, type PublicConfig } from "./wire.ts";

/** An Ethereum address in any case; use `normalizeAddress` before storing. */
export const addressSchema = z.string().regex(ADDRESS_PATTERN, "Invalid address");
/** An Ethereum address, lowercased (how the database stores them). */
export const lowercaseAddressSchema = addressSchema.transform((address) => address.toLowerCase());
export const hexSchema = z.string().regex(/^0x[0-9a-fA-F]*$/, "Invalid hex string");

/** Every API error: HTTP status + this body. Messages are the spec's words. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
}) satisfies z.ZodType<ApiErrorBody>;

/** Runtime configuration the web app reads at start: which chain, where contracts live. */
export const publicConfigSchema = z.object({
  chainId: z.number().int().positive(),
  /** True on the local development chain: enables the Dev wallet connector. */
  localChain: z.boolean(),
  /** An RPC URL the browser may use to read the chain (the local anvil in the embedded mode). */
  rpcUrl: z.string().nullable(),
  /** Block explorer base URL for transaction links; null on the local chain. */
  explorerUrl: z.string().nullable(),
  contracts: z.record(z.string(), addressSchema),
  /** Whether ENS names can be checked on this chain (there is no ENS on the local chain). */
  ens: z.boolean(),
  /** The origin media is loaded from (MEDIA_PUBLIC_URL), or null for the site's own `/ipfs/`. */
  mediaUrl: z.string().nullable(),
  /** WalletConnect's project id (WALLETCONNECT_PROJECT_ID): set, the app offers WalletConnect; absent or null, not. */
  walletConnectProjectId: z.string().nullable().optional(),
}) satisfies z.ZodType<PublicConfig>;

/** `GET /api/dev/accounts` (local chain only): who each of the Dev wallet's test accounts is. */
export const devAccountsResponseSchema = z.object({
  data: z.object({
    accounts: z.array(
      z.object({
        address: addressSchema,
        /** The profile's name, when it has one. */
        name: z.string().nullable(),
        /** What the account can do here, e.g. 'Moderator', 'Artist — verified', 'Collector'. */
        role: z.string(),
      }),
    ),
  }),
});
export type DevAccountsResponse = z.infer<typeof devAccountsResponseSchema>;

export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  /** Node's version; like the database's version and error texts, shown to operators only. */
  node: z.string().optional(),
  database: z.object({ ok: z.boolean(), version: z.string().nullable(), error: z.string().optional() }),
  chain: z.object({
    ok: z.boolean(),
    chainId: z.number().nullable(),
    headBlock: z.string().nullable(),
    error: z.string().optional(),
  }),
  /**
   * The platform signer, which pays for voucher revocations (operators only): its address, its balance in wei
   * (null when the chain cannot answer) and whether that is under the warning threshold (the status stays "ok").
   */
  signer: z.object({ address: z.string(), balanceWei: z.string().nullable(), low: z.boolean() }).optional(),
  /** Where the indexer stands; null before its first pass. */
  indexer: z
    .object({
      /** The chain's head: the newer of the API's last read (at most a few seconds old) and the indexer's. */
      headBlock: z.string(),
      indexedBlock: z.string(),
      /** Blocks the indexer is behind the head. */
      lag: z.number().int(),
      /** When the indexer last moved its cursor. */
      updatedAt: z.string(),
      /** Behind the head and not moving: indexing has stopped (the status is then "degraded"). */
      stale: z.boolean(),
      /**
       * Seconds since the indexer's leader last renewed its heartbeat, which it does while it makes progress
       * (on a quiet chain too); null when no leader ever ran. Over 30 s the status is "degraded".
       */
      leaderHeartbeatAge: z.number().nullable(),
    })
    .nullable(),
});
export type Health = z.infer<typeof healthSchema>;

// --- Sign-In with Ethereum -------------------------------------------------------------------

export const nonceResponseSchema = z.object({ nonce: z.string(), statement: z.string() });
export type NonceResponse = z.infer<typeof nonceResponseSchema>;

export const verifyRequestSchema = z.object({
  message: z.string().min(1, "Message is required").max(4000),
  // Checked by the server itself, so that a malformed signature is a 401 like every other sign-in failure.
  signature: z.string().min(1, "Signature is required").max(20_000),
});
export type VerifyRequest = z.infer<typeof verifyRequestSchema>;

export const profileSummarySchema = z.object({
  address: addressSchema,
  username: z.string().nullable(),
  name: z.string().nullable(),
  avatar: z.string().nullable(),
  active: z.boolean(),
  /** What the account may do beyond the defaults (the spec's decoded permission). */
  permission: z.object({
    collection: z.object({
      /** The lazy collections moderators allow the account in all. */
      lazyCollection: z.number().int().nonnegative(),
      /** How many more it may create now: the allowance less those it owns and those whose voucher is out. */
      lazyCollectionsLeft: z.number().int().nonnegative(),
    }),
    /** A verified artist (the market's record on chain): may mint. */
    mint: z.boolean(),
  }),
});
export type ProfileSummary = z.infer<typeof profileSummarySchema>;

export const sessionResponseSchema = z.object({
  session: z
    .object({
      address: addressSchema,
      chainId: z.number().int(),
      expiresAt: z.string(),
    })
    .nullable(),
  profile: profileSummarySchema.nullable(),
  numberOfNewNotif: z.number().int().nonnegative(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
