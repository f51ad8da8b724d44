import { createHash } from "node:crypto";
import {
  type ApiErrorBody,
  type Health,
  SESSION_COOKIE,
  type SessionResponse,
  SIWE_STATEMENT,
} from "@easel/common";
import { eq } from "drizzle-orm";
import { type Abi, createPublicClient, createTestClient, createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { authNonces, indexerState, profiles, sessions } from "../src/db/schema.ts";
import { startTestApi } from "./helpers.ts";

let api: Awaited<ReturnType<typeof startTestApi>>;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const newWallet = () => privateKeyToAccount(generatePrivateKey());

async function getNonce(): Promise<string> {
  const response = await fetch(`${api.url}/api/auth/nonce`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { nonce: string; statement: string };
  expect(body.statement).toBe(SIWE_STATEMENT);
  return body.nonce;
}

type MessageOverrides = Partial<Parameters<typeof createSiweMessage>[0]>;

async function signedMessage(wallet = newWallet(), overrides: MessageOverrides = {}) {
  const nonce = overrides.nonce ?? (await getNonce());
  const message = createSiweMessage({
    domain: "127.0.0.1:3000",
    uri: "http://127.0.0.1:3000",
    address: wallet.address,
    chainId: 31337,
    version: "1",
    statement: SIWE_STATEMENT,
    issuedAt: new Date(),
    ...overrides,
    nonce,
  });
  return { wallet, message, signature: await wallet.signMessage({ message }) };
}

function verify(body: unknown) {
  return fetch(`${api.url}/api/auth/verify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function expect401(response: Response, code: string, message: RegExp) {
  expect(response.status).toBe(401);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message).toMatch(message);
  expect(response.headers.get("set-cookie")).toBeNull();
}

const sessionCookie = (response: Response) => {
  const header = response.headers.get("set-cookie") ?? "";
  const token = header.match(new RegExp(`${SESSION_COOKIE}=([^;]+)`))?.[1];
  return { header, token };
};

describe("Sign-In with Ethereum", () => {
  it("signs in with a valid message, creates an active profile and a hashed session, and logs out", async () => {
    const { wallet, message, signature } = await signedMessage();
    const response = await verify({ message, signature });
    expect(response.status).toBe(200);
    const { header, token } = sessionCookie(response);
    expect(token).toBeTruthy();
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);

    const address = wallet.address.toLowerCase();
    const [profile] = await api.db.select().from(profiles).where(eq(profiles.address, address));
    expect(profile?.active).toBe(true);
    const stored = await api.db.select().from(sessions).where(eq(sessions.address, address));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.tokenHash).toBe(
      createHash("sha256")
        .update(token as string)
        .digest("hex"),
    );
    expect(stored[0]?.tokenHash).not.toContain(token as string);

    const cookie = `${SESSION_COOKIE}=${token}`;
    const session = (await fetch(`${api.url}/api/auth/session`, { headers: { cookie } }).then((r) =>
      r.json(),
    )) as SessionResponse;
    expect(session.session?.address).toBe(address);
    expect(session.profile).toMatchObject({ address, active: true });

    const logout = await fetch(`${api.url}/api/auth/logout`, { method: "POST", headers: { cookie } });
    expect(logout.status).toBe(200);
    const after = (await fetch(`${api.url}/api/auth/session`, { headers: { cookie } }).then((r) =>
      r.json(),
    )) as SessionResponse;
    expect(after.session).toBeNull();
  });

  it("signing in again keeps one profile", async () => {
    const wallet = newWallet();
    for (let i = 0; i < 2; i++) {
      const { message, signature } = await signedMessage(wallet);
      expect((await verify({ message, signature })).status).toBe(200);
    }
    const rows = await api.db
      .select()
      .from(profiles)
      .where(eq(profiles.address, wallet.address.toLowerCase()));
    expect(rows).toHaveLength(1);
  });

  it("refuses a nonce used twice", async () => {
    const { message, signature } = await signedMessage();
    expect((await verify({ message, signature })).status).toBe(200);
    await expect401(await verify({ message, signature }), "invalid_nonce", /expired or was already used/);
  });

  it("refuses a nonce the server never issued, and one that expired unused", async () => {
    const forged = await signedMessage(newWallet(), { nonce: "abcdefgh12345678" });
    await expect401(await verify(forged), "invalid_nonce", /expired or was already used/);

    const nonce = await getNonce();
    await api.db
      .update(authNonces)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authNonces.nonce, nonce));
    const stale = await signedMessage(newWallet(), { nonce });
    await expect401(await verify(stale), "invalid_nonce", /expired or was already used/);
  });

  it("refuses a message for another domain", async () => {
    const signed = await signedMessage(newWallet(), { domain: "evil.example", uri: "https://evil.example" });
    await expect401(await verify(signed), "wrong_domain", /another website \(evil\.example\)/);
  });

  it("refuses a message whose URI points elsewhere", async () => {
    const signed = await signedMessage(newWallet(), { uri: "https://evil.example/login" });
    await expect401(await verify(signed), "wrong_uri", /URI on another website/);
  });

  it("refuses a message whose URI has another scheme or carries user info on the right host", async () => {
    for (const uri of [
      "javascript://127.0.0.1:3000/%0aalert(1)",
      "ftp://127.0.0.1:3000",
      "http://victim@127.0.0.1:3000",
    ]) {
      const signed = await signedMessage(newWallet(), { uri });
      await expect401(await verify(signed), "wrong_uri", /URI on another website/);
    }
  });

  it("refuses a message for another chain", async () => {
    const signed = await signedMessage(newWallet(), { chainId: 1 });
    await expect401(await verify(signed), "wrong_chain", /chain 31337.*chain 1\b/);
  });

  it("refuses an expired message", async () => {
    const signed = await signedMessage(newWallet(), { expirationTime: new Date(Date.now() - 1000) });
    await expect401(await verify(signed), "expired", /has expired/);
    const old = await signedMessage(newWallet(), { issuedAt: new Date(Date.now() - 60 * 60 * 1000) });
    await expect401(await verify(old), "expired", /has expired/);
  });

  it("refuses a message that does not accept the Terms of Service", async () => {
    const signed = await signedMessage(newWallet(), { statement: "Let me in" });
    await expect401(await verify(signed), "wrong_statement", /Terms of Service/);
  });

  it("refuses the signature of another address", async () => {
    const { message } = await signedMessage(newWallet());
    const signature = await newWallet().signMessage({ message });
    await expect401(await verify({ message, signature }), "invalid_signature", /does not match/);
  });

  it("refuses malformed messages and signatures with a 401, never a 500", async () => {
    await expect401(await verify({ message: "hello", signature: "0x1234" }), "invalid_message", /malformed/);
    const { message } = await signedMessage();
    await expect401(await verify({ message, signature: "not-hex" }), "invalid_signature", /does not match/);
    await expect401(
      await verify({ message, signature: "0xdeadbeef" }),
      "invalid_signature",
      /does not match/,
    );
  });

  it("answers a request without a session with no session", async () => {
    const anonymous = (await fetch(`${api.url}/api/auth/session`).then((r) => r.json())) as SessionResponse;
    expect(anonymous).toEqual({ session: null, profile: null, numberOfNewNotif: 0 });
    const bogus = await fetch(`${api.url}/api/auth/session`, {
      headers: { cookie: `${SESSION_COOKIE}=nope` },
    });
    expect(((await bogus.json()) as SessionResponse).session).toBeNull();
  });
});

describe("health and docs", () => {
  it("reports the database and the chain", async () => {
    // The suites share one database, and those that index do it from chains of their own: a cursor one of
    // them left behind is not this chain's indexer, and would read as a stale one here.
    await api.db.delete(indexerState);
    const response = await fetch(`${api.url}/api/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Health;
    expect(body.status).toBe("ok");
    expect(body.database.ok).toBe(true);
    // Versions are for operators (see abuse.test.ts); a visitor sees the status only.
    expect(body.database.version).toBeNull();
    expect(body.chain).toMatchObject({ ok: true, chainId: 31337 });
    expect(BigInt(body.chain.headBlock ?? -1)).toBeGreaterThanOrEqual(0n);
  });

  it("reports a dead chain as degraded with 503", async () => {
    const broken = await startTestApi({ RPC_URL: "http://127.0.0.1:9" });
    try {
      const response = await fetch(`${broken.url}/api/health`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as Health;
      expect(body.status).toBe("degraded");
      expect(body.chain.ok).toBe(false);
      expect(body.database.ok).toBe(true);
    } finally {
      await broken.close();
    }
  });

  it("publishes an OpenAPI document generated from the schemas", async () => {
    type OpenApi = {
      openapi: string;
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>
      >;
    };
    const doc = (await fetch(`${api.url}/api/docs`).then((r) => r.json())) as OpenApi;
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/health",
        "/api/config",
        "/api/auth/nonce",
        "/api/auth/verify",
        "/api/auth/session",
        "/api/auth/logout",
      ]),
    );
    expect(
      doc.paths["/api/auth/verify"]?.post?.requestBody?.content["application/json"]?.schema.required,
    ).toEqual(expect.arrayContaining(["message", "signature"]));
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await fetch(`${api.url}/api/nope`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as ApiErrorBody).error.code).toBe("not_found");
  });
});

/**
 * A minimal ERC-1271 wallet, as Safe and passkey wallets are to the chain: it holds no key itself and says a
 * signature is its own when its owner's key made it (Safe checks its owners, a passkey wallet its P-256 key).
 */
const CONTRACT_WALLET_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;
contract OwnedWallet {
    address public immutable owner;
    constructor(address owner_) { owner = owner_; }
    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}`;

async function deployContractWallet(owner: `0x${string}`): Promise<`0x${string}`> {
  const solc = (await import("solc")).default as { compile(input: string): string };
  const output = JSON.parse(
    solc.compile(
      JSON.stringify({
        language: "Solidity",
        sources: { "OwnedWallet.sol": { content: CONTRACT_WALLET_SOURCE } },
        settings: { evmVersion: "prague", outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
      }),
    ),
  ) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  const compiled = output.contracts["OwnedWallet.sol"]?.OwnedWallet;
  if (!compiled) throw new Error("OwnedWallet did not compile");
  // A fresh funded deployer: the shared anvil's own accounts are used by other test files at the same time.
  const deployer = newWallet();
  const transport = http(inject("rpcUrl"));
  const client = createPublicClient({ transport });
  await createTestClient({ mode: "anvil", transport }).setBalance({
    address: deployer.address,
    value: 10n ** 18n,
  });
  const hash = await createWalletClient({ account: deployer, transport }).deployContract({
    abi: compiled.abi,
    bytecode: `0x${compiled.evm.bytecode.object}`,
    args: [owner],
    chain: null,
  });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("the wallet was not deployed");
  return receipt.contractAddress;
}

describe("Sign-In with Ethereum from a smart-contract wallet (ERC-1271)", () => {
  let owner: ReturnType<typeof newWallet>;
  let wallet: `0x${string}`;
  beforeAll(async () => {
    owner = newWallet();
    wallet = await deployContractWallet(owner.address);
  }, 60_000);

  /** The message names the contract wallet; its owner's key signs it, as the wallet's app does. */
  async function contractSigned(signer = owner) {
    const message = createSiweMessage({
      domain: "127.0.0.1:3000",
      uri: "http://127.0.0.1:3000",
      address: wallet,
      chainId: 31337,
      version: "1",
      statement: SIWE_STATEMENT,
      issuedAt: new Date(),
      nonce: await getNonce(),
    });
    return { message, signature: await signer.signMessage({ message }) };
  }

  it("signs in the contract wallet's address when the chain says the signature is the wallet's", async () => {
    const response = await verify(await contractSigned());
    expect(response.status).toBe(200);
    const { token } = sessionCookie(response);
    expect(token).toBeTruthy();
    const [session] = await api.db
      .select()
      .from(sessions)
      .where(
        eq(
          sessions.tokenHash,
          createHash("sha256")
            .update(token ?? "")
            .digest("hex"),
        ),
      );
    expect(session?.address).toBe(wallet.toLowerCase());
  });

  it("refuses a signature the wallet contract rejects: another key's, or the wallet's for another message", async () => {
    await expect401(
      await verify(await contractSigned(newWallet())),
      "invalid_signature",
      /does not match the wallet address/,
    );
    // The wallet's own signature of one message does not sign another (here, a later nonce).
    const signed = await contractSigned();
    const other = await contractSigned();
    await expect401(
      await verify({ message: other.message, signature: signed.signature }),
      "invalid_signature",
      /does not match the wallet address/,
    );
  });
});
