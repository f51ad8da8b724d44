import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, expect, type Page } from "@playwright/test";
import { E2E } from "../playwright.config.ts";
import { injectWallet } from "./wallet.ts";

export const RPC_URL = `http://127.0.0.1:${E2E.chainPort}`;

/** Opens a page in a fresh browser context (own cookies) with anvil account `accountIndex` injected. */
export async function newWalletPage(browser: Browser, accountIndex: number) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const wallet = await injectWallet(page, { rpcUrl: RPC_URL, accountIndex });
  return { page, wallet, context };
}

/** Connects the injected wallet and signs the welcome message, from the home page. */
export async function signIn(page: Page) {
  await page.goto("/");
  await page.getByRole("button", { name: "Connect Wallet" }).first().click();
  const dialog = page.getByRole("dialog");
  // A wallet still connected from an ended session goes straight to the signature.
  const metamask = dialog.getByRole("button", { name: "MetaMask" });
  const signStep = dialog.getByText("Sign The Message in your Wallet");
  await expect(metamask.or(signStep)).toBeVisible();
  if (await metamask.isVisible()) await metamask.click();
  await expect(signStep).toBeVisible();
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
}

/** Opens an entry of the signed-in account menu. */
export async function openAccountMenu(page: Page, item: string) {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: item }).click();
}

/** A PNG drawn by the browser itself (real image bytes, which the server checks). */
export async function makePng(page: Page, width: number, height: number, color: string): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ([w, h, c]) => {
      const canvas = document.createElement("canvas");
      canvas.width = w as number;
      canvas.height = h as number;
      const context = canvas.getContext("2d") as CanvasRenderingContext2D;
      context.fillStyle = c as string;
      context.fillRect(0, 0, w as number, h as number);
      context.fillStyle = "#ffffff";
      context.fillRect((w as number) / 4, (h as number) / 4, (w as number) / 2, (h as number) / 2);
      return canvas.toDataURL("image/png");
    },
    [width, height, color] as const,
  );
  return Buffer.from(dataUrl.split(",")[1] ?? "", "base64");
}

/** Without SMTP, the e2e stack writes each mail as an .eml file under its data folder (e2e/.data/mail). */
const MAIL_DIRS = [join(E2E.dataDir, "mail")];

/**
 * The newest stored .eml addressed to `email` whose decoded text matches `pattern` (quoted-printable
 * decoded); waits for it to appear and to be completely written.
 */
export async function waitForMail(email: string, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  const safe = email.replace(/[^a-zA-Z0-9@._-]/g, "_");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const dir of MAIL_DIRS) {
      let files: string[] = [];
      try {
        files = readdirSync(dir);
      } catch {
        continue;
      }
      const match = files
        .filter((file) => file.includes(`-${safe}-`) && file.endsWith(".eml"))
        .sort()
        .pop();
      if (match) {
        const text = decodeQuotedPrintable(readFileSync(join(dir, match), "utf8"));
        if (pattern.test(text)) return text;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail to ${email} matching ${pattern} in ${MAIL_DIRS.join(" or ")}`);
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
