import { expect, test } from "@playwright/test";
import { newWalletPage, openAccountMenu, signIn } from "./accounts.ts";

test("following another member changes both profiles' counts, and unfollowing restores them", async ({
  browser,
}) => {
  const artist = await newWalletPage(browser, 3);
  await signIn(artist.page);
  const fan = await newWalletPage(browser, 4);
  await signIn(fan.page);

  const artistAddress = artist.wallet.address.toLowerCase();
  await fan.page.goto(`/profile/${artistAddress}`);
  const followers = fan.page.getByTestId("followers-count");
  await expect(followers).toHaveText("0");
  await fan.page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(fan.page.getByRole("button", { name: "Following" })).toBeVisible();
  await expect(followers).toHaveText("1");

  // The fan's own profile counts one followed account; the artist sees one follower.
  await fan.page.goto("/profile");
  await expect(fan.page.getByTestId("following-count")).toHaveText("1");
  await artist.page.goto("/profile");
  await expect(artist.page.getByTestId("followers-count")).toHaveText("1");
  // The owner sees Edit, never Follow.
  await expect(artist.page.getByRole("link", { name: "Edit Profile" })).toBeVisible();
  await expect(artist.page.getByRole("button", { name: "Follow", exact: true })).toHaveCount(0);

  // The artist's notification is a link to the new follower's profile.
  const fanAddress = fan.wallet.address.toLowerCase();
  await openAccountMenu(artist.page, "Notification");
  const note = artist.page
    .getByRole("list", { name: "Notifications" })
    .getByRole("link", { name: /started following you\./ })
    .first();
  await expect(note).toHaveAttribute("href", `/profile/${fanAddress}`);
  await note.click();
  await expect(artist.page).toHaveURL(new RegExp(`/profile/${fanAddress}$`));
  await expect(artist.page.getByRole("heading", { level: 1 })).toBeVisible();

  await fan.page.goto(`/profile/${artistAddress}`);
  await fan.page.getByRole("button", { name: "Following" }).click();
  await expect(fan.page.getByRole("button", { name: "Follow", exact: true })).toBeVisible();
  await expect(fan.page.getByTestId("followers-count")).toHaveText("0");
});
