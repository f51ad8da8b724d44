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
/** Set by the web app once the browser has Inter, the app's typeface, in its cache (server: web/webFont.ts). */
export const INTER_COOKIE = "easel_inter";

/** Seconds before a signed-in session is cleared after the wallet changes account or network. */
export const ACCOUNT_CHANGE_COUNTDOWN_S = 5;
/** The same countdown right after connecting, when wallets often emit a burst of change events. */
export const ACCOUNT_CHANGE_COUNTDOWN_AFTER_CONNECT_S = 8;

/** Toasts: top-right, 3000 ms, dark (spec, browsing section 8). */
export const TOAST_DURATION_MS = 3000;

/** Search input debounce (spec, browsing section 9). */
export const SEARCH_DEBOUNCE_MS = 1000;

/** anvil's (and Hardhat's) well-known test mnemonic. Public knowledge: never hold real funds with it. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/**
 * The ten accounts anvil funds from {@link ANVIL_MNEMONIC} (m/44'/60'/0'/0/i), listed so nothing has to derive
 * ten keys to show them. The web's `devWallet.test.ts` checks them against the derivation.
 */
export const ANVIL_ADDRESSES = [
  "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
  "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  "0x976EA74026E726554dB657fA54763abd0C3a0aa9",
  "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955",
  "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f",
  "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
] as const satisfies readonly `0x${string}`[];
