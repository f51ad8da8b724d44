import { expect, test } from "@playwright/test";
import { E2E } from "../playwright.config.ts";
import { newWalletPage, openAccountMenu, signIn } from "./accounts.ts";
import { injectWallet } from "./wallet.ts";

test("a collector connects an injected wallet, signs in, stays signed in after reload, and disconnects", async ({
  page,
}) => {
  const wallet = await injectWallet(page, { rpcUrl: `http://127.0.0.1:${E2E.chainPort}` });
  await page.goto("/");

  await page.getByRole("button", { name: "Connect Wallet" }).first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Connect Your Wallet")).toBeVisible();
  await dialog.getByRole("button", { name: "MetaMask" }).click();

  await expect(dialog.getByText("Sign The Message in your Wallet")).toBeVisible();
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Create" }).first()).toBeVisible();

  const methods = wallet.calls.map((call) => call.method);
  expect(methods).toContain("eth_requestAccounts");
  expect(methods).toContain("wallet_switchEthereumChain");
  expect(methods).toContain("personal_sign");

  const session = await page.request.get("/api/auth/session").then((r) => r.json());
  expect(session.session.address).toBe(wallet.address.toLowerCase());

  await page.reload();
  await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Disconnect" }).click();
  await expect(page.getByRole("button", { name: "Connect Wallet" }).first()).toBeVisible();
  const after = await page.request.get("/api/auth/session").then((r) => r.json());
  expect(after.session).toBeNull();
});

test("unknown paths show the not-found page with a way home", async ({ page }) => {
  await page.goto("/no/such/page/here");
  await expect(page.getByRole("link", { name: "Back to Homepage" })).toBeVisible();
});

test("'Sign out everywhere' ends the wallet's sessions on its other devices too", async ({ browser }) => {
  const laptop = await newWalletPage(browser, 1);
  const phone = await newWalletPage(browser, 1);
  await signIn(laptop.page);
  await signIn(phone.page);

  await openAccountMenu(laptop.page, "Sign out everywhere");
  await expect(laptop.page.getByRole("button", { name: "Connect Wallet" }).first()).toBeVisible();

  const phoneSession = await phone.page.request.get("/api/auth/session").then((r) => r.json());
  expect(phoneSession.session).toBeNull();
  await phone.page.reload();
  await expect(phone.page.getByRole("button", { name: "Connect Wallet" }).first()).toBeVisible();
});
