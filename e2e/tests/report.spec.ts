import { expect, test } from "@playwright/test";
import { newWalletPage, openAccountMenu, signIn } from "./accounts.ts";

test("a member reports a profile in two steps and a moderator finds it in the queue", async ({ browser }) => {
  const reported = await newWalletPage(browser, 5);
  await signIn(reported.page);
  const reporter = await newWalletPage(browser, 6);
  await signIn(reporter.page);
  const page = reporter.page;

  await page.goto(`/profile/${reported.wallet.address.toLowerCase()}`);
  await page.getByRole("button", { name: "More" }).click();
  await page.getByRole("menuitem", { name: "Report" }).click();
  const dialog = page.getByRole("dialog", { name: "Report an Issue" });

  // Step 1: Continue looks disabled until a reason is picked; pressing it anyway warns.
  await expect(dialog.getByRole("button", { name: "Continue" })).toHaveAttribute("aria-disabled", "true");
  await dialog.getByRole("button", { name: "Continue" }).click({ force: true });
  await expect(page.getByText("Please, select a reason.").first()).toBeVisible();
  await dialog.getByLabel("Counterfeit Artwork").check();
  await dialog.getByRole("button", { name: "Continue" }).click();

  // Step 2: the spec's messages, then a valid report.
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog.getByText("Email is required.")).toBeVisible();
  await expect(dialog.getByText("Description is required")).toBeVisible();
  await dialog.getByLabel("Email").fill("collector@example.com");
  await dialog.getByLabel("Issue description").fill("too short");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(dialog.getByText("description must be at least 10 characters.")).toBeVisible();
  await dialog.getByLabel("Issue description").fill("This account sells copies of another artist's series.");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(
    dialog.getByText(
      "Your report has been registered. We will follow and check it and take the necessary action.",
    ),
  ).toBeVisible();

  // The moderator (anvil account 0, the e2e stack's admin) sees it in the reports queue.
  const admin = await newWalletPage(browser, 0);
  await signIn(admin.page);
  await openAccountMenu(admin.page, "Moderation");
  const row = admin.page.getByRole("row", { name: /This account sells copies/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText("Counterfeit Artwork");
  await row.getByRole("button", { name: "Resolve" }).click();
  await expect(row).toBeHidden();
});
