/** Chain ids Easel runs on. The local chain is anvil's default. */
export const CHAIN_IDS = { mainnet: 1, sepolia: 11155111, local: 31337 } as const;

/** The SIWE statement: the welcome text a user signs to accept the Terms of Service. */
export const SIWE_STATEMENT =
  "Welcome to Easel! By signing this message you accept the Easel Terms of Service. Signing is free and sends no transaction.";

/** How long a sign-in nonce may be used, and how long a session lasts. */
export const NONCE_TTL_MS = 10 * 60 * 1000;
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The httpOnly cookie that carries the session token. */
export const SESSION_COOKIE = "easel_session";

/** Seconds before a signed-in session is cleared after the wallet changes account or network. */
export const ACCOUNT_CHANGE_COUNTDOWN_S = 5;
/** The same countdown right after connecting, when wallets often emit a burst of change events. */
export const ACCOUNT_CHANGE_COUNTDOWN_AFTER_CONNECT_S = 8;

/** Toasts: top-right, 3000 ms, dark (spec, browsing section 8). */
export const TOAST_DURATION_MS = 3000;

/** Search input debounce (spec, browsing section 9). */
export const SEARCH_DEBOUNCE_MS = 1000;
