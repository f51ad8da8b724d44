/**
 * Shapes the web app checks on its first load, written without zod so that load stays small. The zod
 * schemas in `api.ts` describe the same shapes to the server and its OpenAPI document; `wire.test.ts`
 * keeps the two in agreement.
 */

/** An Ethereum address (0x + 40 hex digits, any case): the one pattern every check uses. */
export const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** Every API error: HTTP status + this body. Messages are the spec's words. */
export interface ApiErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isStringRecord = (value: unknown): value is Record<string, string> =>
  isRecord(value) && Object.values(value).every((entry) => typeof entry === "string");

/** The error an API answer carries, or null when the body is not the API's error shape. */
export function readApiError(body: unknown): ApiErrorBody["error"] | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const { code, message, fields } = body.error;
  if (typeof code !== "string" || typeof message !== "string") return null;
  if (fields !== undefined && !isStringRecord(fields)) return null;
  return fields === undefined ? { code, message } : { code, message, fields };
}

/** Runtime configuration the web app reads at start: which chain, where contracts live. */
export interface PublicConfig {
  chainId: number;
  /** True on the local development chain: enables the Dev wallet connector. */
  localChain: boolean;
  /** An RPC URL the browser may use to read the chain (the local anvil in the embedded mode). */
  rpcUrl: string | null;
  /** Block explorer base URL for transaction links; null on the local chain. */
  explorerUrl: string | null;
  contracts: Record<string, string>;
  /** Whether ENS names can be checked on this chain (there is no ENS on the local chain). */
  ens: boolean;
  /** The origin media is loaded from (MEDIA_PUBLIC_URL), or null for the site's own `/ipfs/`. */
  mediaUrl: string | null;
  /** WalletConnect's project id (WALLETCONNECT_PROJECT_ID): set, the app offers WalletConnect; absent or null, not. */
  walletConnectProjectId?: string | null;
}

const isStringOrNull = (value: unknown): value is string | null =>
  value === null || typeof value === "string";

/** The server's public configuration, or null when the body is not one. */
export function readPublicConfig(body: unknown): PublicConfig | null {
  if (!isRecord(body)) return null;
  const { chainId, localChain, rpcUrl, explorerUrl, contracts, ens, mediaUrl, walletConnectProjectId } = body;
  if (typeof chainId !== "number" || !Number.isInteger(chainId) || chainId <= 0) return null;
  if (typeof localChain !== "boolean" || typeof ens !== "boolean") return null;
  if (!isStringOrNull(rpcUrl) || !isStringOrNull(explorerUrl) || !isStringOrNull(mediaUrl)) return null;
  if (walletConnectProjectId !== undefined && !isStringOrNull(walletConnectProjectId)) return null;
  if (
    !isStringRecord(contracts) ||
    !Object.values(contracts).every((address) => ADDRESS_PATTERN.test(address))
  )
    return null;
  const config: PublicConfig = { chainId, localChain, rpcUrl, explorerUrl, contracts, ens, mediaUrl };
  if (walletConnectProjectId !== undefined) config.walletConnectProjectId = walletConnectProjectId;
  return config;
}
