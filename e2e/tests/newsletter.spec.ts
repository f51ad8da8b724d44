import { expect, test } from "@playwright/test";
import { waitForMail } from "./accounts.ts";

test("a visitor subscribes to the newsletter and confirms with the link from the mail", async ({ page }) => {
  const email = `reader-${Date.now()}@example.com`;
  await page.goto("/aboutUs");
  const footer = page.getByRole("contentinfo");
  const field = footer.getByLabel("Get the latest Easel updates");

  await footer.getByRole("button", { name: "Subscribe" }).click();
  await expect(footer.getByText("Required")).toBeVisible();
  await field.fill("not-an-email");
  await footer.getByRole("button", { name: "Subscribe" }).click();
  await expect(footer.getByText("invalid email address")).toBeVisible();

  await field.fill(email);
  await footer.getByRole("button", { name: "Subscribe" }).click();
  await expect(
    page.getByText("Thanks for Subscribing. Please check your email to confirm your subscription."),
  ).toBeVisible();
  await expect(field).toHaveValue("");

  const confirmLink = /https?:\/\/\S+\/newsletter\/confirm\?\S+/;
  const mail = await waitForMail(email, confirmLink);
  const link = mail.match(confirmLink)?.[0];
  expect(link, "the mail carries a confirmation link").toBeTruthy();

  // Opening the link shows a page; only its button confirms (mail scanners open links too).
  await page.goto(link as string);
  await expect(page.getByRole("heading", { level: 1, name: "Confirm your subscription" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByText("Your subscription is confirmed.")).toBeVisible();

  // A tampered link is refused; a link cut short says so in words.
  const tampered = (link as string).replace(
    /sig=([^&\s]+)/,
    (_, sig: string) => `sig=${sig.startsWith("A") ? "B" : "A"}${sig.slice(1)}`,
  );
  expect(tampered).not.toBe(link);
  await page.goto(tampered);
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByText("This confirmation link is invalid or has expired.")).toBeVisible();
  await page.goto((link as string).split("&sig=")[0] as string);
  await expect(page.getByText(/This confirmation link is incomplete/)).toBeVisible();
});
