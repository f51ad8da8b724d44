import { ANVIL_ADDRESSES } from "@easel/common";
import { STORAGE_KEYS } from "../lib/storage.ts";

export { ANVIL_ADDRESSES, ANVIL_MNEMONIC } from "@easel/common";

export const DEV_WALLET_ID = "easelDevWallet";

/** Chooses which anvil account (0-9) the Dev wallet connects with next. */
export function selectDevAccount(index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= ANVIL_ADDRESSES.length) {
    throw new RangeError(`Dev wallet account must be 0-${ANVIL_ADDRESSES.length - 1}`);
  }
  window.localStorage.setItem(STORAGE_KEYS.devWalletAccount, String(index));
}

export function storedAccountIndex(): number | null {
  const raw = window.localStorage.getItem(STORAGE_KEYS.devWalletAccount);
  if (raw === null) return null;
  const index = Number(raw);
  return Number.isInteger(index) && index >= 0 && index < ANVIL_ADDRESSES.length ? index : null;
}
