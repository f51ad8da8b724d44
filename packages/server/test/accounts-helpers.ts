import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ApiErrorBody, SESSION_COOKIE, SIWE_STATEMENT } from "@easel/common";
import { eq } from "drizzle-orm";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { expect } from "vitest";
import { profiles } from "../src/db/schema.ts";
import { startTestApi } from "./helpers.ts";

export const newWallet = () => privateKeyToAccount(generatePrivateKey());

export type TestUser = { wallet: PrivateKeyAccount; address: string; cookie: string };

/**
 * The real API with its own media and mail folders, one moderator (`admin`) and a helper to sign
 * wallets in through the real SIWE flow.
 */
export async function startAccountsApi(overrides: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "easel-accounts-"));
  const adminWallet = newWallet();
  const api = await startTestApi({
    MEDIA_DIR: join(dir, "ipfs"),
    MAIL_DIR: join(dir, "mail"),
    ADMIN_ADDRESSES: adminWallet.address,
    OPERATOR_EMAILS: "ops@easel.test",
    ...overrides,
  });

  async function signIn(wallet = newWallet()): Promise<TestUser> {
    const { nonce } = (await fetch(`${api.url}/api/auth/nonce`).then((r) => r.json())) as { nonce: string };
    const message = createSiweMessage({
      domain: "127.0.0.1:3000",
      uri: "http://127.0.0.1:3000",
      address: wallet.address,
      chainId: 31337,
      version: "1",
      statement: SIWE_STATEMENT,
      issuedAt: new Date(),
      nonce,
    });
    const signature = await wallet.signMessage({ message });
    const response = await fetch(`${api.url}/api/auth/verify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message, signature }),
    });
    expect(response.status).toBe(200);
    const token = response.headers.get("set-cookie")?.match(new RegExp(`${SESSION_COOKIE}=([^;]+)`))?.[1];
    expect(token).toBeTruthy();
    return { wallet, address: wallet.address.toLowerCase(), cookie: `${SESSION_COOKIE}=${token}` };
  }

  /** A JSON call; `user` signs it in. */
  async function call<T = unknown>(
    method: string,
    path: string,
    options: { user?: TestUser; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: T; headers: Headers }> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.user) headers.cookie = options.user.cookie;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: "manual",
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: response.status, body: body as T, headers: response.headers };
  }

  const mailDir = join(dir, "mail");

  /** The .eml files written so far, decoded (quoted-printable soft breaks and escapes undone). */
  function mails(): { file: string; raw: string; text: string }[] {
    let files: string[] = [];
    try {
      files = readdirSync(mailDir).filter((f) => f.endsWith(".eml"));
    } catch {
      return [];
    }
    return files.sort().map((file) => {
      const raw = readFileSync(join(mailDir, file), "utf8");
      const text = raw
        .replace(/=\r?\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      return { file, raw, text };
    });
  }

  /** Waits until a mail to `to` matching `pattern` has been written. */
  async function waitForMail(to: string, pattern: RegExp = /./, timeoutMs = 5000) {
    const started = Date.now();
    for (;;) {
      const found = mails().find((m) => m.text.includes(`To: ${to}`) && pattern.test(m.text));
      if (found) return found;
      if (Date.now() - started > timeoutMs) throw new Error(`no mail to ${to} matching ${pattern}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const admin = () => signIn(adminWallet);

  async function setActive(address: string, active: boolean) {
    await api.db.update(profiles).set({ active }).where(eq(profiles.address, address));
  }

  return {
    ...api,
    dir,
    signIn,
    admin,
    call,
    mails,
    waitForMail,
    setActive,
    async close() {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type AccountsApi = Awaited<ReturnType<typeof startAccountsApi>>;

/** Asserts an error answer with its status, and the message of `field` when given. */
export function expectError(
  result: { status: number; body: unknown },
  status: number,
  expected: { field?: string; message?: string | RegExp; code?: string } = {},
) {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  const { error } = result.body as ApiErrorBody;
  if (expected.code) expect(error.code).toBe(expected.code);
  if (expected.field) {
    expect(error.fields?.[expected.field], JSON.stringify(error)).toEqual(
      typeof expected.message === "string"
        ? expected.message
        : expect.stringMatching(expected.message ?? /./),
    );
  } else if (expected.message) {
    if (typeof expected.message === "string") expect(error.message).toBe(expected.message);
    else expect(error.message).toMatch(expected.message);
  }
}
