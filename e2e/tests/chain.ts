import { expect } from "@playwright/test";
import { createPublicClient, createWalletClient, http } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { RPC_URL } from "./accounts.ts";

const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/** The address of anvil account `index` (lowercase). */
export const accountAddress = (index: number) =>
  mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index }).address.toLowerCase() as `0x${string}`;

/** Sends a contract call from anvil account `index` (outside the browser) and waits for it. */
export async function send(
  index: number,
  call: {
    address: `0x${string}`;
    abi: readonly unknown[];
    functionName: string;
    args: readonly unknown[];
    /** Wei sent with the call. */
    value?: bigint;
  },
) {
  const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
  const wallet = createWalletClient({ account, transport: http(RPC_URL) });
  const client = createPublicClient({ transport: http(RPC_URL) });
  const hash = await wallet.writeContract({ ...call, account, chain: null } as never);
  const receipt = await client.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe("success");
}
