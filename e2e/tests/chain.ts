import { expect, type Page } from "@playwright/test";
import { createPublicClient, createWalletClient, http, parseAbi, parseEther } from "viem";
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
  return receipt;
}

/** Gives each anvil account of `indexes` 100 ETH from account 1 (the tests' wallets start empty). */
export async function fund(...indexes: number[]) {
  const wallet = createWalletClient({
    account: mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }),
    transport: http(RPC_URL),
  });
  const client = createPublicClient({ transport: http(RPC_URL) });
  for (const index of indexes) {
    const hash = await wallet.sendTransaction({
      chain: null,
      to: accountAddress(index),
      value: parseEther("100"),
    });
    await client.waitForTransactionReceipt({ hash });
  }
}

/** The local chain's time: its latest block's timestamp, in unix seconds. */
export async function chainTime(): Promise<bigint> {
  return (await createPublicClient({ transport: http(RPC_URL) }).getBlock()).timestamp;
}

/** Moves the local chain's clock forward by `seconds` and mines a block at the new time. */
export async function moveTime(seconds: number) {
  for (const [method, params] of [
    ["evm_increaseTime", [seconds]],
    ["evm_mine", []],
  ] as const) {
    const response = await fetch(RPC_URL, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await response.json()) as { error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
  }
}

/**
 * A moderator (anvil account 0) verifies `artist` on the market from their wallet; resolves once the indexer has
 * it and the API says so, since minting and creating collections wait for it.
 */
export async function verifyArtist(page: Page, artist: string): Promise<void> {
  const config = (await (await page.request.get("/api/config")).json()) as {
    contracts: { market: `0x${string}` };
  };
  await send(0, {
    address: config.contracts.market,
    abi: parseAbi(["function setArtistVerified(address account, bool verified)"]),
    functionName: "setArtistVerified",
    args: [artist, true],
  });
  await expect
    .poll(async () => {
      const profile = await page.request.get(`/api/profile?userkey=${artist}`);
      return ((await profile.json()) as { data: { verifiedArtist?: boolean } }).data.verifiedArtist;
    })
    .toBe(true);
}
