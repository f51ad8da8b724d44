import type { Address } from "viem";
import { STORAGE_KEYS } from "../lib/storage.ts";

/** anvil's (and Hardhat's) well-known test mnemonic. Public knowledge: never hold real funds with it. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/**
 * The first ten accounts derived from {@link ANVIL_MNEMONIC} (m/44'/60'/0'/0/i), listed so the picker
 * shows them without deriving ten keys up front. `devAccounts.test.ts` checks them against the derivation.
 */
export const ANVIL_ADDRESSES: readonly Address[] = [
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
];

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
