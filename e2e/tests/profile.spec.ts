import { expect, test } from "@playwright/test";
import { makePng, newWalletPage, openAccountMenu, signIn } from "./accounts.ts";

test("a member edits the profile with a cropped, uploaded avatar and sees it on the profile page", async ({
  browser,
}) => {
  const { page } = await newWalletPage(browser, 2);
  await signIn(page);
  await openAccountMenu(page, "Setting");
  await expect(page.getByRole("heading", { level: 1, name: "Edit Profile" })).toBeVisible();

  // The spec's validation message, from the shared schema.
  await page.getByLabel("Bio").fill("b".repeat(151));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("bio must be maximum 150 characters")).toBeVisible();

  await page.getByLabel("Display name").fill("Ada Painter");
  await page.getByLabel("Username").fill("ada_painter");
  await page.getByLabel("Bio").fill("Oil on canvas, then pixels.");
  await page.getByLabel("Website").fill("https://ada.example");

  // Avatar: choose a file, crop it (round, zoom 1 to 3 in steps of 0.1), upload with progress.
  await page.getByLabel("Avatar", { exact: true }).setInputFiles({
    name: "avatar.png",
    mimeType: "image/png",
    buffer: await makePng(page, 600, 400, "#b03a2e"),
  });
  const crop = page.getByRole("dialog", { name: "Crop your avatar" });
  await expect(crop).toBeVisible();
  const zoom = crop.getByLabel("Zoom");
  await expect(zoom).toHaveAttribute("min", "1");
  await expect(zoom).toHaveAttribute("max", "3");
  await expect(zoom).toHaveAttribute("step", "0.1");
  await zoom.fill("1.5");
  await expect(crop.getByText("1.5×")).toBeVisible();
  await crop.getByRole("button", { name: "Apply" }).click();
  await expect(crop).toBeHidden();
  await expect(page.getByText("Uploaded 100%")).toBeVisible();

  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Profile updated successfully.")).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);

  await expect(page.getByRole("heading", { level: 1, name: /Ada Painter/ })).toBeVisible();
  await expect(page.getByText("@ada_painter")).toBeVisible();
  await expect(page.getByText("Oil on canvas, then pixels.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Website" })).toHaveAttribute("href", "https://ada.example");

  // The avatar is the uploaded image, served by our IPFS gateway, square after the crop.
  const avatar = page.locator('main img[src^="/ipfs/"]').first();
  await expect(avatar).toBeVisible();
  const size = await avatar.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
  expect(size[0]).toBeGreaterThan(0);
  expect(size[0]).toBe(size[1]);

  // Anyone can open it by username.
  await page.goto("/profile/ada_painter");
  await expect(page.getByRole("heading", { level: 1, name: /Ada Painter/ })).toBeVisible();
  await expect(page.getByRole("tab", { name: /Collected 0/ })).toBeVisible();
  await page.getByRole("tab", { name: /Collected/ }).click();
  await expect(
    page.getByText("You don't have any NFTs yet. Get started by collecting your first artworks"),
  ).toBeVisible();
});
