/** Every key this app writes to localStorage or sessionStorage starts with this prefix. */
export const STORAGE_PREFIX = "easel.";

export const STORAGE_KEYS = {
  /** wagmi's persisted connection state (see createWagmiConfig). */
  wagmi: `${STORAGE_PREFIX}wagmi`,
  /** The Dev wallet's chosen anvil account index, present while it is connected. */
  devWalletAccount: `${STORAGE_PREFIX}devWallet.account`,
} as const;

function clearPrefixed(storage: Storage | undefined): void {
  if (!storage) return;
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(STORAGE_PREFIX)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}

/** Removes every localStorage and sessionStorage key the app uses (on disconnect). */
export function clearLocalState(): void {
  if (typeof window === "undefined") return;
  try {
    clearPrefixed(window.localStorage);
    clearPrefixed(window.sessionStorage);
  } catch {
    // Storage can be unavailable (privacy modes); nothing to clear then.
  }
}
