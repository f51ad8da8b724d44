import { expect, type Page, test } from "@playwright/test";
import { createPublicClient, http, parseAbi } from "viem";
import { newWalletPage, openAccountMenu, RPC_URL, signIn } from "./accounts.ts";

const client = createPublicClient({ transport: http(RPC_URL) });
const isBanned = (market: `0x${string}`, account: string) =>
  client.readContract({
    address: market,
    abi: parseAbi(["function isBanned(address account) view returns (bool)"]),
    functionName: "isBanned",
    args: [account as `0x${string}`],
  });
const marketOf = async (page: Page) =>
  ((await (await page.request.get("/api/config")).json()) as { contracts: { market: `0x${string}` } })
    .contracts.market;

test("a moderator bans a member, who is turned away from member pages and sees the notice, then unbans", async ({
  browser,
}) => {
  const member = await newWalletPage(browser, 8);
  await signIn(member.page);
  const address = member.wallet.address.toLowerCase();

  // Non-moderators have no moderation menu, and the page says so.
  await member.page.getByRole("button", { name: "Account menu" }).click();
  await expect(member.page.getByRole("menuitem", { name: "Moderation" })).toHaveCount(0);
  await member.page.keyboard.press("Escape");
  await member.page.goto("/admin");
  await expect(member.page.getByRole("heading", { level: 1, name: "Moderators only" })).toBeVisible();

  const admin = await newWalletPage(browser, 0);
  await signIn(admin.page);
  await openAccountMenu(admin.page, "Moderation");
  await admin.page.getByRole("tab", { name: "Users" }).click();
  await admin.page.getByLabel("Find users by address or username").fill(address);
  const row = admin.page.getByRole("row", { name: new RegExp(address) });
  await expect(row).toContainText("Active");
  await row.getByRole("button", { name: /^Ban / }).click();
  await expect(row).toContainText("Banned", { timeout: 30_000 });
  // Banned on the market contract too, by the moderator's own wallet.
  const market = await marketOf(admin.page);
  expect(await isBanned(market, address)).toBe(true);

  // The ban ended the member's session everywhere: they sign in again, as a banned member.
  await member.page.goto("/profile");
  await expect(member.page.getByRole("heading", { name: "Connect your wallet" })).toBeVisible();
  await signIn(member.page);

  // The banned member: guarded pages send them to the banned notice (the spec's 'you are not registered!' is
  // kept for a session without a profile), which the account menu also opens; it lists what they can cancel.
  const disabled = member.page.getByRole("heading", { level: 1, name: "Your account has been disabled" });
  await member.page.goto("/profile");
  await expect(member.page).toHaveURL(/\/banned$/);
  await expect(disabled).toBeVisible();
  await member.page.goto("/");
  await openAccountMenu(member.page, "Account suspended");
  await expect(disabled).toBeVisible();
  await member.page.getByRole("button", { name: "Cancel listing & offers" }).click();
  await expect(member.page.getByText("You have no live offers.")).toBeVisible();
  await expect(member.page.getByText("You have no active listings or auctions without bids.")).toBeVisible();

  await row.getByRole("button", { name: /^Unban / }).click();
  await expect(row).toContainText("Active", { timeout: 30_000 });
  expect(await isBanned(market, address)).toBe(false);
  await member.page.goto("/profile");
  await expect(member.page.getByRole("link", { name: "Edit Profile" })).toBeVisible();
});

test("a moderator blocks and unblocks a token on the market contract with their own wallet", async ({
  browser,
}) => {
  const admin = await newWalletPage(browser, 0);
  await signIn(admin.page);
  const config = await admin.page.request.get("/api/config").then((response) => response.json());
  const collection = config.contracts.defaultCollection as string;
  expect(collection).toMatch(/^0x[0-9a-fA-F]{40}$/);

  await openAccountMenu(admin.page, "Moderation");
  await admin.page.getByRole("tab", { name: "Blocks" }).click();
  await admin.page.getByLabel("Collection address").fill(collection);
  await admin.page.getByLabel(/Token id/).fill("42");
  await expect(admin.page.getByText("Token 42 is not blocked.")).toBeVisible();
  await admin.page.getByRole("button", { name: "Block", exact: true }).click();
  await expect(admin.page.getByText("Token 42 is blocked.")).toBeVisible({ timeout: 20_000 });
  await admin.page.getByRole("button", { name: "Unblock" }).click();
  await expect(admin.page.getByText("Token 42 is not blocked.")).toBeVisible({ timeout: 20_000 });
  expect(admin.wallet.calls.filter((call) => call.method === "eth_sendTransaction")).toHaveLength(2);
});
