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

  const mail = await waitForMail(email);
  const link = mail.match(/https?:\/\/\S+\/api\/marketing\/confirm\?\S+/)?.[0];
  expect(link, "the mail carries a confirmation link").toBeTruthy();

  await page.goto(link as string);
  await expect(page.getByText("Your subscription is confirmed.")).toBeVisible();
  await expect(page).not.toHaveURL(/newsletter=/);

  // A tampered link is refused.
  await page.goto(
    (link as string).replace(/sig=([0-9a-f])/i, (_, c: string) => `sig=${c === "0" ? "1" : "0"}`),
  );
  await expect(page.getByText("This confirmation link is invalid or has expired.")).toBeVisible();
});
