import { expect, test } from "@playwright/test";
import { newWalletPage, openAccountMenu, signIn } from "./accounts.ts";

test("a member applies as an artist, a moderator approves on chain, and the artist shows as verified", async ({
  browser,
}) => {
  const applicant = await newWalletPage(browser, 7);
  await signIn(applicant.page);
  const page = applicant.page;
  const address = applicant.wallet.address.toLowerCase();

  await page.goto("/applyToJoin");
  await expect(page.getByText("You have not applied yet.")).toBeVisible();
  await page.getByRole("button", { name: "Edit" }).click();

  // The spec's messages for an empty form.
  await page.getByRole("button", { name: "Submit application" }).click();
  await expect(page.getByText("ProfileURL Is Required")).toBeVisible();
  await expect(page.getByText("Name Is Required")).toBeVisible();
  await expect(page.getByText("Enter your number")).toBeVisible();
  await expect(page.getByText("Select your role").last()).toBeVisible();
  await expect(page.getByText("It Is Required!")).toHaveCount(2);

  await page.getByLabel("Profile URL").fill("https://www.instagram.com/grace.studio");
  await page.getByLabel("Name").fill("Grace Studio");
  await page.getByLabel("Email").fill("grace@example.com");
  await page.getByLabel("Phone").fill("+44 20 7946 0000");
  await page.getByLabel("Role").selectOption("artist");
  await page.getByLabel("Tell us about your work").fill("Generative ink drawings.");
  await page.getByLabel("I own the rights").check();
  await page.getByLabel("I accept the").check();
  await page.getByRole("button", { name: "Submit application" }).click();
  await expect(page.getByText("Thank you! we will be in touch soon.")).toBeVisible();
  await page.getByRole("button", { name: "See my application" }).click();
  await expect(page.getByTestId("application-status")).toHaveText("pending");

  await page.goto(`/profile/${address}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText("Verified artist")).toHaveCount(0);

  // The moderator approves: their own wallet sends the market's setArtistVerified, then the API records it.
  const admin = await newWalletPage(browser, 0);
  await signIn(admin.page);
  await openAccountMenu(admin.page, "Moderation");
  await admin.page.getByRole("tab", { name: "Artist applications" }).click();
  const card = admin.page.getByRole("article", { name: "Application from Grace Studio" });
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(admin.page.getByText("Grace Studio is now a verified artist.")).toBeVisible({
    timeout: 30_000,
  });
  expect(admin.wallet.calls.map((call) => call.method)).toContain("eth_sendTransaction");
  await expect(card).toBeHidden();

  // Everyone now sees the artist as verified (read from the market contract), and the applicant sees approval.
  await page.goto(`/profile/${address}`);
  await expect(page.getByText("Verified artist")).toBeVisible();
  await page.goto("/applyToJoin");
  await expect(page.getByTestId("application-status")).toHaveText("approved");
});
