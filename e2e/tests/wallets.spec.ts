import { expect, test } from "@playwright/test";
import { RPC_URL } from "./accounts.ts";
import { announceWallets } from "./wallet.ts";

/** A one-colour square as an SVG data URI: each wallet's own icon. */
const icon = (color: string) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="${color}"/></svg>`)}`;

test("lists every wallet that announces itself (EIP-6963) by its name and icon, and signs in with the second", async ({
  page,
}) => {
  const wallets = [
    { name: "Aurora Wallet", rdns: "test.easel.aurora", icon: icon("#e11d48"), accountIndex: 6 },
    { name: "Borealis Wallet", rdns: "test.easel.borealis", icon: icon("#2563eb"), accountIndex: 7 },
  ];
  const [aurora, borealis] = await announceWallets(page, { rpcUrl: RPC_URL, wallets });
  await page.goto("/");
  await page.getByRole("button", { name: "Connect Wallet" }).first().click();
  const dialog = page.getByRole("dialog");
  for (const wallet of wallets) {
    const button = dialog.getByRole("button", { name: wallet.name });
    await expect(button).toBeVisible();
    await expect(button.locator("img")).toHaveAttribute("src", wallet.icon);
  }
  // Neither sets window.ethereum: no fallback button, and no 'Install MetaMask' either.
  await expect(dialog.getByRole("button", { name: "MetaMask" })).toHaveCount(0);
  await expect(dialog.getByRole("link", { name: "Install MetaMask" })).toHaveCount(0);
  // The local chain keeps its Dev wallet.
  await expect(dialog.getByRole("button", { name: "Dev wallet" })).toBeVisible();

  await dialog.getByRole("button", { name: "Borealis Wallet" }).click();
  await expect(dialog.getByText("Sign The Message in your Wallet")).toBeVisible();
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("button", { name: "Account menu" })).toBeVisible();

  const session = (await (await page.request.get("/api/auth/session")).json()) as {
    session: { address: string } | null;
  };
  expect(session.session?.address.toLowerCase()).toBe(borealis?.address.toLowerCase());
  expect(borealis?.calls.some((call) => call.method === "personal_sign")).toBe(true);
  expect(
    aurora?.calls.some((call) => call.method === "personal_sign" || call.method === "eth_requestAccounts"),
  ).toBe(false);
});
