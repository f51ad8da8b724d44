import { createHmac, pbkdf2Sync } from "node:crypto";
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { ADDRESS_PATTERN, CHAIN_IDS, type PublicConfig } from "@easel/common";
import { HDKey } from "viem/accounts";
import { z } from "zod";
import { repoRoot } from "./paths.ts";

/** `.data/` at the repository root: where the embedded launcher keeps everything. */
const DEFAULT_DATA_DIR = join(repoRoot, ".data");
const emailAddress = z.string().regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "must list email addresses");

const address = z.string().regex(ADDRESS_PATTERN, "must be a 0x-prefixed 20-byte hex address");
const url = (protocols: string[]) =>
  z.string().refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol), {
    message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`,
  });

/** A comma-separated list of `item`s; empty parts are ignored. */
function commaList(item: z.ZodType<string, string>, empty?: string) {
  const text = empty === undefined ? z.string() : z.string().default(empty);
  return text
    .transform((value) =>
      value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));
}

/**
 * Every environment variable Easel reads, for every role (api, indexer, worker).
 * The embedded launcher fills the same variables itself, so both modes share one code path.
 */
export const envSchema = z.object({
  DATABASE_URL: url(["postgres:", "postgresql:"]),
  /**
   * The pipelined connections of the browse reads (db/pipelined.ts); by default this machine's cores + 1, at
   * most 10. With PostgreSQL on a machine of its own, its cores + 1.
   */
  DATABASE_READ_CONNECTIONS: z.coerce.number().int().min(1).max(100).optional(),
  /**
   * How long one statement of the API may run before the request is answered 503 (and a server that does not
   * answer at all is given up a second later); the indexer and the worker allow at least 60 s (roles.ts).
   */
  DATABASE_QUERY_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(5),
  /** How long a request may wait for the chain's RPC (each call, viem's retries included) before it answers 503. */
  RPC_TIMEOUT_SECONDS: z.coerce.number().min(1).max(600).default(5),
  RPC_URL: commaList(url(["http:", "https:", "ws:", "wss:"])).pipe(
    z.array(z.string()).min(1, "must list at least one RPC URL"),
  ),
  CHAIN_ID: z.coerce
    .number({ message: "must be a number" })
    .refine((id) => Object.values(CHAIN_IDS).includes(id as never), {
      message: "must be 1 (mainnet), 11155111 (Sepolia) or 31337 (local)",
    }),
  FACTORY_ADDRESS: address,
  MARKET_ADDRESS: address,
  DEFAULT_COLLECTION_ADDRESS: address,
  ETH_USD_FEED_ADDRESS: address,
  /** ENS's UniversalResolver; mainnet and Sepolia know theirs. Without it the local chain has no ENS. */
  ENS_UNIVERSAL_RESOLVER: address.optional(),
  DEPLOY_BLOCK: z
    .string()
    .regex(/^\d+$/, "must be a block number")
    .default("0")
    .transform((value) => BigInt(value)),
  SIGNER_PRIVATE_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex private key"),
  PUBLIC_URL: url(["http:", "https:"]),
  HOST: z.string().min(1).default("0.0.0.0"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Port of the Prometheus metrics endpoint (`/metrics`) of each role; off when unset. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Interface of the metrics endpoint: private by default, since it is not meant for the public. */
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  SMTP_URL: url(["smtp:", "smtps:"]).optional(),
  /** Folder for local data; media and mail folders default to `ipfs/` and `mail/` inside it. */
  DATA_DIR: z.string().min(1).optional(),
  MEDIA_DIR: z.string().min(1).optional(),
  MAIL_DIR: z.string().min(1).optional(),
  /** A Kubo RPC API (or a provider speaking it) that pins every uploaded file; off when unset. */
  IPFS_API_URL: url(["http:", "https:"]).optional(),
  /**
   * Where browsers load media from (the `/ipfs/` gateway on another, cookieless origin, e.g.
   * https://media.easelcontent.net); unset, from the site itself.
   */
  MEDIA_PUBLIC_URL: url(["http:", "https:"]).optional(),
  /** Sent as the Authorization header to IPFS_API_URL (e.g. "Basic …" or "Bearer …"). */
  IPFS_API_AUTH: z.string().min(1).optional(),
  /** WalletConnect's project id (cloud.reown.com): set, the web app offers WalletConnect; off when unset. */
  WALLETCONNECT_PROJECT_ID: z
    .string()
    .regex(/^[0-9a-fA-F]{32}$/, "must be a WalletConnect project id (32 hex digits)")
    .optional(),
  MAIL_FROM: z
    .string()
    .regex(
      /^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/,
      "must be an address like Easel <no-reply@easel.art>",
    )
    .optional(),
  OPERATOR_EMAILS: commaList(emailAddress, ""),
  EMAIL_LINK_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  ADMIN_ADDRESSES: commaList(address, ""),
  /**
   * Which proxies in front of the API to believe about the client's address (X-Forwarded-For): a hop count
   * ("1" for one load balancer) or a comma list of proxy addresses or CIDR ranges. Default: none, so a
   * client cannot pick its own address (and escape the per-IP limits) by sending the header itself.
   */
  TRUST_PROXY: z
    .string()
    .default("")
    .transform((value) => value.trim())
    .pipe(
      z.union([
        z.literal("").transform(() => false as const),
        // Every client may then name its own address: accepted (a proxy of its own may need it), with a warning.
        z.literal("true").transform(() => true as const),
        z
          .string()
          .regex(/^\d{1,2}$/)
          .transform(Number),
        z
          .string()
          .regex(
            /^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/,
            "must be a hop count or a comma list of proxy addresses",
          )
          .transform((value) => value.split(",").map((part) => part.trim())),
      ]),
    ),
  /** Seconds a request body may take to arrive (then 408, connection closed); uploads get UPLOAD_TIMEOUT_SECONDS. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  UPLOAD_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  INDEXER_CONFIRMATIONS: z.coerce.number().int().min(0).max(128).default(0),
  /** The built web app (packages/web/dist) for the API to serve beside /api; unset, the API serves only /api. */
  WEB_DIST: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** NODE_ENV: `production` refuses the local chain unless ALLOW_LOCAL_CHAIN_IN_PRODUCTION says otherwise. */
  NODE_ENV: z.string().optional(),
  /** `1` lets a production build (NODE_ENV=production) run on the local chain: benchmarks, a build's own test. */
  ALLOW_LOCAL_CHAIN_IN_PRODUCTION: z.enum(["0", "1"]).optional(),
});

export type Env = Record<string, string | undefined>;

/** The development mnemonic of anvil and Hardhat: its keys are published, so anyone can sign with them. */
const TEST_MNEMONIC = "test test test test test test test test test test test junk";
/**
 * How many of its accounts count as known. anvil and Hardhat make 10 and 20 by default, but both take more
 * (`--accounts`, `accounts.count`), and every one of them is as public as the first: 1,000 cover any test
 * setup. Deriving them costs a few milliseconds (`testChildKey`), spent only off the local chain, where the key is
 * checked.
 */
export const TEST_ACCOUNTS = 1_000;
let testKeys: Set<string> | null = null;

/** The public test mnemonic's account `index` (m/44'/60'/0'/0/index), as 0x-prefixed hex. */
export function testKeyAt(index: number): `0x${string}` {
  return `0x${testChildKey(index).toString(16).padStart(64, "0")}`;
}

let parent: { key: bigint; publicKey: Uint8Array; chainCode: Uint8Array } | null = null;

/**
 * BIP-32's non-hardened child of m/44'/60'/0'/0: HMAC-SHA512 of the parent's public key and the index, added
 * to the parent's key. Done by hand because HDKey also computes each child's public key (a point
 * multiplication): 1,000 children cost half a second at start on a busy machine, this a few milliseconds.
 */
function testChildKey(index: number): bigint {
  if (!parent) {
    // BIP-39's seed (PBKDF2 of the words), made once, then BIP-44's path down to the accounts' parent.
    const node = HDKey.fromMasterSeed(pbkdf2Sync(TEST_MNEMONIC, "mnemonic", 2048, 64, "sha512")).derive(
      "m/44'/60'/0'/0",
    );
    if (!node.privateKey || !node.publicKey || !node.chainCode)
      throw new Error("no test mnemonic parent key");
    parent = {
      key: BigInt(`0x${Buffer.from(node.privateKey).toString("hex")}`),
      publicKey: node.publicKey,
      chainCode: node.chainCode,
    };
  }
  const data = Buffer.alloc(37);
  data.set(parent.publicKey, 0);
  data.writeUInt32BE(index, 33);
  const I = createHmac("sha512", parent.chainCode).update(data).digest();
  return (BigInt(`0x${I.subarray(0, 32).toString("hex")}`) + parent.key) % CURVE_ORDER;
}

/** Whether a private key is one of the public test mnemonic's accounts (the first TEST_ACCOUNTS). */
export function isTestKey(privateKey: string): boolean {
  testKeys ??= new Set(
    Array.from({ length: TEST_ACCOUNTS }, (_, i) => testChildKey(i).toString(16).padStart(64, "0")),
  );
  return testKeys.has(privateKey.slice(2).toLowerCase());
}

/** secp256k1's group order: a private key is a number in [1, n). */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
/**
 * Keys this close to either end of [1, n) are found by walking from the end: anyone can try the first 2^64
 * numbers (0x…01, 0x…02, a date, a counter), and n − k has the same public point as k, negated.
 */
const WEAK_KEY_BOUND = 2n ** 64n;

/** Why a private key is no key at all (outside [1, n)), or null. */
function invalidKey(privateKey: string): string | null {
  const k = BigInt(privateKey);
  return k === 0n || k >= CURVE_ORDER
    ? "is not a secp256k1 private key (it must be between 1 and the curve order)"
    : null;
}

/** Whether a private key is one anyone can find by counting: a small number, or one just below the curve order. */
export function isWeakKey(privateKey: string): boolean {
  const k = BigInt(privateKey);
  return k < WEAK_KEY_BOUND || k > CURVE_ORDER - WEAK_KEY_BOUND;
}

/**
 * Whether two hosts are the same site, for cookies: the same host, or one a subdomain of the other
 * (media.easel.art and easel.art). Without a public-suffix list, two siblings (media.easel.art and
 * www.easel.art) are not recognised as one site: the rule catches the usual mistake, not every one.
 */
export function sameSite(a: string, b: string): boolean {
  const x = a.toLowerCase().replace(/\.$/, "");
  const y = b.toLowerCase().replace(/\.$/, "");
  return x === y || x.endsWith(`.${y}`) || y.endsWith(`.${x}`);
}

/** Variables set to the empty string (`METRICS_PORT=` in an env file) count as unset. */
function withoutEmpty(env: Env): Env {
  return Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
}

export type Config = {
  databaseUrl: string;
  /** `$repeated`'s pipelined connections; undefined for the default (db/pipelined.ts). */
  databaseReadConnections: number | undefined;
  /** DATABASE_QUERY_TIMEOUT_SECONDS, in ms. */
  databaseQueryTimeoutMs: number;
  rpcUrls: string[];
  /** RPC_TIMEOUT_SECONDS, in ms: the longest one read of the chain may take, retries included. */
  rpcTimeoutMs: number;
  chainId: number;
  contracts: {
    factory: `0x${string}`;
    market: `0x${string}`;
    defaultCollection: `0x${string}`;
    ethUsdFeed: `0x${string}`;
  };
  deployBlock: bigint;
  signerPrivateKey: `0x${string}`;
  publicUrl: URL;
  /** Hosts (host:port) a sign-in message may name as its domain. */
  siweDomains: string[];
  host: string;
  port: number;
  /** Where the metrics endpoint listens, or null when METRICS_PORT is unset. */
  metrics: { host: string; port: number } | null;
  smtpUrl: string | undefined;
  /** Where IPFS blocks of uploaded media are stored (a filesystem blockstore). */
  mediaDir: string;
  /** The media origin browsers load `/ipfs/…` from (no trailing slash), or null for the site's own. */
  mediaPublicUrl: string | null;
  /** Every stored file is also pinned here (Kubo RPC API), when set. */
  ipfsApi: { url: URL; auth: string | undefined } | null;
  /** Without SMTP_URL, mail is written here as .eml files (and logged) instead of being sent. */
  mailDir: string;
  mailFrom: string;
  /** Who receives contact-form messages. */
  operatorEmails: string[];
  /** Key of the HMAC that signs links in emails (newsletter confirmation). */
  emailLinkSecret: string;
  adminAddresses: `0x${string}`[];
  indexerConfirmations: number;
  /** How long a request body (an upload's) may take to arrive (timeouts.ts). */
  timeouts: { requestMs: number; uploadMs: number };
  /**
   * Fastify's `trustProxy`: false (trust no proxy), a hop count, or proxy addresses / CIDR ranges; true
   * (every client may name its own address) is accepted with a warning.
   */
  trustProxy: boolean | number | string[];
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  /** True on the local development chain (embedded mode). */
  localChain: boolean;
  /** Whether ENS names can be checked (forward and reverse) through the RPC. */
  ens: boolean;
  /** The UniversalResolver to ask; undefined uses the chain's own (mainnet, Sepolia). */
  ensUniversalResolver: `0x${string}` | undefined;
  /** RPC URL handed to browsers; only on the local chain, where the browser's Dev wallet needs one. */
  browserRpcUrl: string | null;
  /** WALLETCONNECT_PROJECT_ID: the web app offers WalletConnect (and the CSP allows its relay) when set. */
  walletConnectProjectId: string | null;
  /** Folder with the built web app, or null to serve the API alone. */
  webDist: string | null;
  /** Settings that work but are risky (logged at start, one line each). */
  warnings: string[];
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

const EXPLORERS: Record<number, string> = {
  [CHAIN_IDS.mainnet]: "https://etherscan.io",
  [CHAIN_IDS.sepolia]: "https://sepolia.etherscan.io",
};

export function explorerUrl(chainId: number): string | null {
  return EXPLORERS[chainId] ?? null;
}

/** What the web app needs to know at start (`GET /api/config`, and inline in every page it is served). */
export function publicConfig(config: Config): PublicConfig {
  return {
    chainId: config.chainId,
    localChain: config.localChain,
    rpcUrl: config.browserRpcUrl,
    explorerUrl: explorerUrl(config.chainId),
    contracts: config.contracts,
    ens: config.ens,
    mediaUrl: config.mediaPublicUrl,
    walletConnectProjectId: config.walletConnectProjectId,
  };
}

/**
 * Reads and validates the configuration from environment variables.
 * @throws ConfigError with one line naming every missing or malformed variable.
 */
export function loadConfig(env: Env, options: { webDist?: string | null } = {}): Config {
  const parsed = envSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      const missing = env[name] === undefined || env[name]?.trim() === "";
      return missing ? `${name} is missing` : `${name} ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration: ${[...new Set(problems)].join("; ")}`);
  }
  const e = parsed.data;
  const publicUrl = new URL(e.PUBLIC_URL);
  const localChain = e.CHAIN_ID === CHAIN_IDS.local;
  // Outside the local chain several API replicas may run: a folder that only one of them sees would lose
  // uploads and mail, so production names them (a shared volume) or sends mail through SMTP.
  const shared: string[] = [];
  if (!localChain && !e.MEDIA_DIR)
    shared.push(
      "MEDIA_DIR is missing: in production media must live in a folder every API replica reads (a shared volume)",
    );
  // Outside the local chain, no development shortcut: plain http loses HSTS and the Secure __Host- cookie, a
  // key of the public test mnemonic is anyone's, and email links sign with a secret of their own.
  if (!localChain && publicUrl.protocol !== "https:")
    shared.push("PUBLIC_URL must start with https:// outside the local chain");
  const invalid = invalidKey(e.SIGNER_PRIVATE_KEY);
  if (invalid) shared.push(`SIGNER_PRIVATE_KEY ${invalid}`);
  else if (!localChain && isWeakKey(e.SIGNER_PRIVATE_KEY))
    shared.push(
      "SIGNER_PRIVATE_KEY is a weak key (a small number, or one just below the curve order): anyone can find it; use a random key outside the local chain",
    );
  else if (!localChain && isTestKey(e.SIGNER_PRIVATE_KEY))
    shared.push(
      "SIGNER_PRIVATE_KEY is a public test key (of the 'test test … junk' mnemonic): use a key of your own outside the local chain",
    );
  if (!localChain && !e.EMAIL_LINK_SECRET)
    shared.push(
      "EMAIL_LINK_SECRET is missing: outside the local chain email links sign with a secret of their own",
    );
  const bareKey = (value: string) => value.trim().toLowerCase().replace(/^0x/, "");
  if (!localChain && e.EMAIL_LINK_SECRET && bareKey(e.EMAIL_LINK_SECRET) === bareKey(e.SIGNER_PRIVATE_KEY))
    shared.push(
      "EMAIL_LINK_SECRET must not be the signer key: a leak of either would give away both; use a secret of its own",
    );
  const mediaUrl = e.MEDIA_PUBLIC_URL ? new URL(e.MEDIA_PUBLIC_URL) : null;
  if (!localChain && mediaUrl && mediaUrl.protocol !== "https:")
    shared.push("MEDIA_PUBLIC_URL must start with https:// outside the local chain");
  if (!localChain && mediaUrl && sameSite(mediaUrl.hostname, publicUrl.hostname))
    shared.push(
      `MEDIA_PUBLIC_URL must be on another site than PUBLIC_URL (${mediaUrl.hostname} and ${publicUrl.hostname} share cookies): give media a domain of its own, or unset it`,
    );
  if (localChain && e.NODE_ENV === "production" && e.ALLOW_LOCAL_CHAIN_IN_PRODUCTION !== "1")
    shared.push(
      "CHAIN_ID 31337 (the local chain) with NODE_ENV=production: its development shortcuts are not for production; set CHAIN_ID to 1 or 11155111, or ALLOW_LOCAL_CHAIN_IN_PRODUCTION=1 to run a production build on a local chain",
    );
  if (!localChain && !e.SMTP_URL && !e.MAIL_DIR)
    shared.push(
      "SMTP_URL is missing: in production mail goes through SMTP (or set MAIL_DIR to a shared folder)",
    );
  const webDist = options.webDist ?? (e.WEB_DIST ? resolve(e.WEB_DIST) : null);
  if (e.WEB_DIST && webDist && !existsSync(join(webDist, "index.html")))
    shared.push(`WEB_DIST has no index.html: build the web app first (npm run build)`);
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT)
    shared.push("METRICS_PORT must differ from PORT: metrics are never served on the public port");
  if (shared.length > 0) throw new ConfigError(`Invalid configuration: ${shared.join("; ")}`);
  const warnings: string[] = [];
  if (e.METRICS_PORT !== undefined && ["0.0.0.0", "::", "[::]"].includes(e.METRICS_HOST))
    warnings.push(
      `METRICS_HOST=${e.METRICS_HOST} serves the unauthenticated metrics on every interface: bind a private address unless a firewall keeps the port off the public network`,
    );
  const trustsEveryone =
    e.TRUST_PROXY === true ||
    (Array.isArray(e.TRUST_PROXY) && e.TRUST_PROXY.some((range) => /^(0\.0\.0\.0|::)\/0$/.test(range)));
  if (trustsEveryone)
    warnings.push(
      "TRUST_PROXY trusts every address: any client can pick its own address in X-Forwarded-For and escape the per-IP limits; name the proxies (a hop count or their addresses)",
    );
  const siweDomains = [publicUrl.host];
  // Locally, localhost and 127.0.0.1 are the same machine; accept both spellings.
  if (localChain && publicUrl.hostname === "127.0.0.1") siweDomains.push(`localhost:${publicUrl.port}`);
  if (localChain && publicUrl.hostname === "localhost") siweDomains.push(`127.0.0.1:${publicUrl.port}`);
  const lower = (a: string) => a.toLowerCase() as `0x${string}`;
  // Media and mail live in the data folder unless MEDIA_DIR / MAIL_DIR say otherwise; the embedded
  // launcher passes its own folder (the browser tests use e2e/.data).
  const dataDir = resolve(e.DATA_DIR ?? DEFAULT_DATA_DIR);
  const inData = (value: string | undefined, fallback: string) =>
    value ? (isAbsolute(value) ? value : resolve(value)) : join(dataDir, fallback);
  return {
    databaseUrl: e.DATABASE_URL,
    databaseReadConnections: e.DATABASE_READ_CONNECTIONS,
    databaseQueryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_SECONDS * 1000,
    rpcUrls: e.RPC_URL,
    rpcTimeoutMs: e.RPC_TIMEOUT_SECONDS * 1000,
    chainId: e.CHAIN_ID,
    contracts: {
      factory: lower(e.FACTORY_ADDRESS),
      market: lower(e.MARKET_ADDRESS),
      defaultCollection: lower(e.DEFAULT_COLLECTION_ADDRESS),
      ethUsdFeed: lower(e.ETH_USD_FEED_ADDRESS),
    },
    deployBlock: e.DEPLOY_BLOCK,
    signerPrivateKey: e.SIGNER_PRIVATE_KEY as `0x${string}`,
    publicUrl,
    siweDomains,
    host: e.HOST,
    port: e.PORT,
    metrics: e.METRICS_PORT === undefined ? null : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    smtpUrl: e.SMTP_URL,
    mediaDir: inData(e.MEDIA_DIR, "ipfs"),
    mediaPublicUrl: e.MEDIA_PUBLIC_URL ? e.MEDIA_PUBLIC_URL.replace(/\/+$/, "") : null,
    ipfsApi: e.IPFS_API_URL ? { url: new URL(e.IPFS_API_URL), auth: e.IPFS_API_AUTH } : null,
    mailDir: inData(e.MAIL_DIR, "mail"),
    mailFrom: e.MAIL_FROM ?? `Easel <no-reply@${publicUrl.hostname}>`,
    operatorEmails: e.OPERATOR_EMAILS.map((email) => email.toLowerCase()),
    // On the local chain only (production requires its own secret, above), one is derived from the signer key,
    // so development needs no extra variable.
    emailLinkSecret:
      e.EMAIL_LINK_SECRET ??
      createHmac("sha256", e.SIGNER_PRIVATE_KEY).update("easel email links").digest("hex"),
    adminAddresses: e.ADMIN_ADDRESSES.map(lower),
    indexerConfirmations: e.INDEXER_CONFIRMATIONS,
    timeouts: { requestMs: e.REQUEST_TIMEOUT_SECONDS * 1000, uploadMs: e.UPLOAD_TIMEOUT_SECONDS * 1000 },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    localChain,
    ens: !localChain || e.ENS_UNIVERSAL_RESOLVER !== undefined,
    ensUniversalResolver: e.ENS_UNIVERSAL_RESOLVER ? lower(e.ENS_UNIVERSAL_RESOLVER) : undefined,
    browserRpcUrl: localChain ? (e.RPC_URL[0] ?? null) : null,
    walletConnectProjectId: e.WALLETCONNECT_PROJECT_ID ?? null,
    webDist,
    warnings,
  };
}
