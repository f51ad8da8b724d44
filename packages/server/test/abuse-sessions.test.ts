/**
 * Attacks on sessions and on the platform signer's ETH, each refused (the review's items 7 and 8), against the
 * real API, PostgreSQL and anvil:
 * - a contract wallet's session outliving a change of the wallet's owner;
 * - lazy price raises each making the platform signer send `revokeVouchers()`, and a raise that the seller is
 *   told took effect while vouchers at the lower price still mint.
 */
import { type Health, type LazyMintVoucherResponse, SESSION_COOKIE, SIWE_STATEMENT } from "@easel/common";
import { easelCollectionAbi } from "@easel/contracts/abis";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { type Abi, createPublicClient, createTestClient, createWalletClient, http, parseEther } from "viem";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { sessions } from "../src/db/schema.ts";
import {
  admin,
  alice,
  artist,
  createScratchDatabase,
  driver,
  indexerFor,
  signer,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { registry } from "../src/metrics.ts";
import { PRICE_EDITS_PER_MINUTE } from "../src/routes/items.ts";
import {
  type AccountsApi,
  expectError,
  newWallet,
  startAccountsApi,
  type TestUser,
} from "./accounts-helpers.ts";

// ---------------------------------------------------------------- item 7: contract wallets

/** An ERC-1271 wallet whose owner can hand it to another key, as a Safe's signers or a passkey can change. */
const ROTATING_WALLET_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract RotatingWallet {
    address public owner;
    constructor(address owner_) { owner = owner_; }
    function setOwner(address next) external { require(msg.sender == owner, "not owner"); owner = next; }
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}`;

let compiled: { abi: Abi; bytecode: `0x${string}` } | null = null;
async function compileWallet() {
  if (compiled) return compiled;
  const solc = (await import("solc")).default as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "RotatingWallet.sol": { content: ROTATING_WALLET_SOURCE } },
        settings: { evmVersion: "prague", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const contract = output.contracts["RotatingWallet.sol"]?.RotatingWallet;
  if (!contract) throw new Error("RotatingWallet did not compile");
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  return compiled;
}

describe("a contract wallet's session ends when its owner changes", () => {
  let local: AccountsApi;
  const transport = http(inject("rpcUrl"));
  const client = createPublicClient({ transport });
  const testClient = createTestClient({ mode: "anvil", transport });

  beforeAll(async () => {
    local = await startAccountsApi();
  }, 60_000);
  afterAll(() => local?.close());

  /** A fresh wallet owned by a fresh funded key (the shared anvil's accounts are busy in other files). */
  async function deployWallet() {
    const { abi, bytecode } = await compileWallet();
    const owner = newWallet();
    await testClient.setBalance({ address: owner.address, value: parseEther("1") });
    const hash = await createWalletClient({ account: owner, transport }).deployContract({
      abi,
      bytecode,
      args: [owner.address],
      chain: null,
    });
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error("the wallet was not deployed");
    const address = receipt.contractAddress;
    const handTo = async (from: typeof owner, next: `0x${string}`) => {
      const tx = await createWalletClient({ account: from, transport }).writeContract({
        address,
        abi,
        functionName: "setOwner",
        args: [next],
        chain: null,
      });
      await client.waitForTransactionReceipt({ hash: tx });
    };
    return { address, owner, handTo };
  }

  /** Signs the contract wallet in through the real SIWE flow, `key` signing for it as the wallet's app does. */
  async function signInAs(wallet: `0x${string}`, key: ReturnType<typeof newWallet>): Promise<TestUser> {
    const { nonce } = (await fetch(`${local.url}/api/auth/nonce`).then((r) => r.json())) as { nonce: string };
    const message = createSiweMessage({
      domain: "127.0.0.1:3000",
      uri: "http://127.0.0.1:3000",
      address: wallet,
      chainId: 31337,
      version: "1",
      statement: SIWE_STATEMENT,
      issuedAt: new Date(),
      nonce,
    });
    const response = await fetch(`${local.url}/api/auth/verify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message, signature: await key.signMessage({ message }) }),
    });
    expect(response.status).toBe(200);
    const token = response.headers.get("set-cookie")?.match(new RegExp(`${SESSION_COOKIE}=([^;]+)`))?.[1];
    return { wallet: key, address: wallet.toLowerCase(), cookie: `${SESSION_COOKIE}=${token}` };
  }

  const write = (user: TestUser) =>
    local.call("PUT", "/api/profile", { user, body: { bio: `Written at ${Date.now()}` } });
  const sessionOf = async (user: TestUser) =>
    (await local.call<{ session: { address: string } | null }>("GET", "/api/auth/session", { user })).body
      .session;
  const sessionRows = (address: string) =>
    local.db.select().from(sessions).where(eq(sessions.address, address.toLowerCase()));

  it("signs the old owner out at their next write, and lets the new owner sign in and write", async () => {
    const { address, owner, handTo } = await deployWallet();
    const oldOwner = await signInAs(address, owner);
    expect((await write(oldOwner)).status).toBe(200);

    const next = newWallet();
    await handTo(owner, next.address);
    // The signature was the wallet's when it signed in; it is not any more, so the session is over.
    expectError(await write(oldOwner), 401);
    expect(await sessionOf(oldOwner)).toBeNull();
    expect(await sessionRows(address)).toHaveLength(0);

    const newOwner = await signInAs(address, next);
    expect((await write(newOwner)).status).toBe(200);
  });

  it("asks the wallet again on reads once the last check is 15 minutes old", async () => {
    const { address, owner, handTo } = await deployWallet();
    const oldOwner = await signInAs(address, owner);
    await handTo(owner, newWallet().address);
    // Reads within 15 minutes of the last check trust it (no chain call per page view).
    expect((await sessionOf(oldOwner))?.address).toBe(address.toLowerCase());
    await local.db.execute(
      sql`UPDATE sessions SET wallet_checked_at = now() - interval '16 minutes' WHERE address = ${address.toLowerCase()}`,
    );
    const read = await local.call<{ session: unknown }>("GET", "/api/auth/session", { user: oldOwner });
    expect(read.body.session).toBeNull();
    expect(read.headers.get("set-cookie")).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
    expect(await sessionRows(address)).toHaveLength(0);
  });

  it("ends every session the wallet refuses, and none it still accepts", async () => {
    const { address, owner, handTo } = await deployWallet();
    const laptop = await signInAs(address, owner);
    const phone = await signInAs(address, owner);
    const next = newWallet();
    await handTo(owner, next.address);
    const newOwner = await signInAs(address, next);
    expect(await sessionRows(address)).toHaveLength(3);

    expectError(await write(laptop), 401);
    // The phone's session was signed by the old owner too: it ended with the laptop's.
    const left = await sessionRows(address);
    expect(left).toHaveLength(1);
    expect(await sessionOf(phone)).toBeNull();
    expect((await write(newOwner)).status).toBe(200);
  });

  it("refuses a contract wallet's write while the chain cannot say (503), and keeps its session for later", async () => {
    const { address, owner } = await deployWallet();
    const user = await signInAs(address, owner);
    // The same database behind an API whose RPC is gone: the cookie is good there, the wallet cannot be asked.
    const cut = await startAccountsApi({ RPC_URL: "http://127.0.0.1:9" });
    try {
      const refused = await cut.call("PUT", "/api/profile", {
        user,
        body: { bio: "while the chain is away" },
      });
      expectError(refused, 503, { code: "unavailable" });
      // A read trusts the last check until it is 15 minutes old, and a failed check ends nothing.
      const read = await cut.call<{ session: unknown }>("GET", "/api/auth/session", { user });
      expect(read.body.session).not.toBeNull();
      expect(await sessionRows(address)).toHaveLength(1);
    } finally {
      await cut.close();
    }
    expect((await write(user)).status).toBe(200);
  });

  it("keeps what a key's (EOA) session needs to nothing: it is never asked of the chain", async () => {
    const user = await local.signIn();
    const [row] = await sessionRows(user.address);
    expect(row).toMatchObject({ walletSignature: null, walletMessageHash: null, walletCheckedAt: null });
    expect((await write(user)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- item 8: the platform signer's ETH

describe("lazy price raises cannot drain the platform signer", () => {
  let t: TestChain;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let api: AccountsApi;
  let creator: TestUser;
  let buyer: TestUser;
  let night: `0x${string}`;
  let env: Record<string, string>;
  let photography: number;

  /** Lists a lazy item through the real upload; its id. */
  async function listItem(name: string, price: string): Promise<string> {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#345678" } })
      .png()
      .toBuffer();
    const form = new FormData();
    const fields = {
      category_web2_id: String(photography),
      collection: night.toLowerCase(),
      name,
      royalty: "5",
      description: "A bus at night",
      price: parseEther(price).toString(),
    };
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "bus.png");
    const listed = await fetch(`${api.url}/api/mint/lazymint`, {
      method: "POST",
      headers: { cookie: creator.cookie },
      body: form,
    });
    const text = await listed.text();
    expect(listed.status, text).toBe(200);
    return (JSON.parse(text) as { data: { newNft: { _id: string } } }).data.newNft._id;
  }

  beforeAll(async () => {
    t = await startTestChain();
    scratch = await createScratchDatabase(inject("databaseUrl"), "abuse_signer");
    const d = driver(t);
    await d.market(admin, "setArtistVerified", [artist.address, true]);
    night = await d.createLazyCollection(artist, "Night Shift", "NGT", 4, "photography");
    env = t.env(scratch.url);
    const config = loadConfig(env);
    await indexerFor(scratch.db, config)();
    api = await startAccountsApi(env);
    creator = await api.signIn(artist as never);
    buyer = await api.signIn(alice as never);
    const { body } = await api.call<{ data: { category_web2: { _id: number; title: string }[] } }>(
      "GET",
      "/api/category-web2",
    );
    photography = body.data.category_web2.find((c) => c.title === "Photography")?._id ?? 0;
    const registered = await api.call("POST", "/api/collection", {
      user: creator,
      body: {
        contract_address: night,
        name: "Night Shift",
        symbol: "NGT",
        collectionType: "lazy",
        category_web2_id: photography,
      },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await scratch?.drop();
    await t?.stop();
  });

  const ask = (tokenId: string) =>
    api.call<LazyMintVoucherResponse>("POST", "/api/nft/buy-lazy-mint", {
      user: buyer,
      body: { collection: night.toLowerCase(), nft_id: tokenId },
    });
  const setPrice = (tokenId: string, wei: bigint, via = api, user = creator) =>
    via.call("PUT", "/api/nft/edit", {
      user,
      body: { collection: night.toLowerCase(), nft_id: tokenId, price: wei.toString() },
    });
  const priceOf = async (tokenId: string) => {
    const { rows } = await scratch.db.execute<{ price: string }>(
      sql`SELECT price::text FROM lazy_items WHERE collection = ${night.toLowerCase()} AND token_id = ${tokenId}`,
    );
    return BigInt(rows[0]?.price ?? "0");
  };
  const signerTransactions = () => t.publicClient.getTransactionCount({ address: signer.address });
  const voucherNonce = async () =>
    (
      await t.publicClient.readContract({
        address: night,
        abi: easelCollectionAbi,
        functionName: "collectionInfo",
      })
    )[3];
  /** Whether `voucher` still mints (a simulation: nothing is sent). */
  const mints = async (voucher: LazyMintVoucherResponse["data"]["voucher"]) =>
    t.publicClient
      .simulateContract({
        account: alice,
        address: night,
        abi: easelCollectionAbi,
        functionName: "lazyMint",
        args: [
          {
            ...voucher,
            tokenId: BigInt(voucher.tokenId),
            price: BigInt(voucher.price),
            deadline: BigInt(voucher.deadline),
            cid: voucher.cid as `0x${string}`,
            signature: voucher.signature as `0x${string}`,
            collaborators: voucher.collaborators as { account: `0x${string}`; share: number }[],
          },
        ],
        value: BigInt(voucher.price),
      })
      .then(
        () => true,
        () => false,
      );

  it("sends at most one revocation for 8 raises in a row over open vouchers, and never lets a lower voucher mint after a raise it accepted", async () => {
    const item = await listItem("Night Bus", "0.25");
    const sentBefore = await signerTransactions();
    const nonceBefore = await voucherNonce();
    let price = parseEther("0.25");
    const answers: number[] = [];
    for (let raise = 1; raise <= 8; raise++) {
      // A buyer holds a voucher at the current price before every raise (asking is free and unlimited enough).
      const voucher = await ask(item);
      expect(voucher.status, JSON.stringify(voucher.body)).toBe(200);
      const next = price + parseEther("0.01");
      const result = await setPrice(item, next);
      answers.push(result.status);
      if (result.status === 200) {
        price = next;
        // Told the raise holds: the voucher at the lower price no longer mints.
        expect(await mints(voucher.body.data.voucher)).toBe(false);
      } else {
        expectError(result, 409, { code: "raise_held", field: "price", message: /raise it again from/ });
        expect(Number(result.headers.get("retry-after"))).toBeGreaterThan(0);
        // Not told it holds: the price is unchanged, and the buyer's voucher at it still mints.
        expect(await priceOf(item)).toBe(price);
        expect(await mints(voucher.body.data.voucher)).toBe(true);
      }
    }
    expect(answers[0]).toBe(200);
    expect(answers.slice(1)).toEqual([409, 409, 409, 409, 409, 409, 409]);
    expect((await signerTransactions()) - sentBefore).toBe(1);
    expect(await voucherNonce()).toBe(nonceBefore + 1n);

    // Without a voucher under it a raise needs no revocation, within the interval too; nor does a lowering.
    const fresh = await listItem("Night Tram", "0.25");
    expect((await setPrice(fresh, parseEther("0.3"))).status).toBe(200);
    expect((await setPrice(item, price - parseEther("0.05"))).status).toBe(200);
    price -= parseEther("0.05");
    expect((await signerTransactions()) - sentBefore).toBe(1);

    // Holding vouchers cannot freeze the price: once the interval is over the next raise revokes again.
    const held = await ask(item);
    await scratch.db.execute(
      sql`UPDATE lazy_voucher_revocations SET revoked_at = now() - interval '6 minutes' WHERE collection = ${night.toLowerCase()}`,
    );
    expect((await setPrice(item, price + parseEther("0.1"))).status).toBe(200);
    expect(await mints(held.body.data.voucher)).toBe(false);
    expect((await signerTransactions()) - sentBefore).toBe(2);
  });

  it("refuses a raise it cannot make hold (the signer without ETH): the price stays, so the seller is never told otherwise", async () => {
    const item = await listItem("Night Ferry", "0.25");
    const voucher = await ask(item);
    expect(voucher.status).toBe(200);
    await scratch.db.execute(sql`DELETE FROM lazy_voucher_revocations`);
    const balance = await t.publicClient.getBalance({ address: signer.address });
    await t.test.setBalance({ address: signer.address, value: 0n });
    try {
      expectError(await setPrice(item, parseEther("0.5")), 503, { code: "raise_failed", field: "price" });
      expect(await priceOf(item)).toBe(parseEther("0.25"));
      expect(await mints(voucher.body.data.voucher)).toBe(true);
    } finally {
      await t.test.setBalance({ address: signer.address, value: balance });
    }
    // With ETH again, the raise is made at once (no transaction left the signer: no interval to wait).
    expect((await setPrice(item, parseEther("0.5"))).status).toBe(200);
    expect(await mints(voucher.body.data.voucher)).toBe(false);
  });

  it("limits price edits per wallet: a fresh cookie does not reset it, and another wallet keeps its own", async () => {
    // Its own API: the tests above spent part of this minute's allowance.
    const own = await startAccountsApi(env);
    try {
      const seller = await own.signIn(artist as never);
      const again = await own.signIn(artist as never);
      const other = await own.signIn(alice as never);
      const statuses: number[] = [];
      for (let i = 0; i < PRICE_EDITS_PER_MINUTE; i++)
        statuses.push((await setPrice("1", parseEther("0.3"), own, i % 2 ? seller : again)).status);
      expect(statuses.filter((status) => status === 429)).toHaveLength(0);
      expectError(await setPrice("1", parseEther("0.3"), own, seller), 429);
      expectError(await setPrice("1", parseEther("0.3"), own, again), 429);
      // Not the creator: refused for that, not for the seller's limit.
      expectError(await setPrice("1", parseEther("0.3"), own, other), 403);
    } finally {
      await own.close();
    }
  });

  it("reports the signer's balance on metrics and on health (operators), with a low-balance warning", async () => {
    const balance = await t.publicClient.getBalance({ address: signer.address });
    await t.test.setBalance({ address: signer.address, value: parseEther("0.01") });
    // A fresh API reads the balance afresh (each reads it at most every few seconds).
    const own = await startAccountsApi(env);
    let closed = false;
    try {
      const health = await own.call<Health>("GET", "/api/health", { user: await own.admin() });
      expect(health.body.signer).toEqual({
        address: signer.address.toLowerCase(),
        balanceWei: parseEther("0.01").toString(),
        low: true,
      });
      // Strangers are told nothing of it.
      expect((await own.call<Health>("GET", "/api/health")).body.signer).toBeUndefined();
      const metrics = await registry.metrics();
      expect(metrics).toMatch(
        new RegExp(`easel_signer_balance_eth\\{address="${signer.address.toLowerCase()}"\\} 0\\.01\\b`),
      );
      // Closed, the API stops being read for the gauge (its chain client is gone).
      await own.close();
      closed = true;
      expect(await registry.metrics()).not.toMatch(/easel_signer_balance_eth\{/);
    } finally {
      if (!closed) await own.close();
      await t.test.setBalance({ address: signer.address, value: balance });
    }
  });
});
