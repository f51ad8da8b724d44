import { expect, type Page, test } from "@playwright/test";
import { makePng, newWalletPage, signIn } from "./accounts.ts";
import { accountAddress, verifyArtist } from "./chain.ts";

const ARTIST = 9;

/** Mints one painting with properties from the mint page (the collection already chosen or made). */
async function mintWithProperties(page: Page, name: string, color: string, properties: [string, string][]) {
  await page.getByLabel("Upload file").setInputFiles({
    name: "art.png",
    mimeType: "image/png",
    buffer: await makePng(page, 320, 320, color),
  });
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Description").fill("Weather over the harbour.");
  for (const [index, [trait, value]] of properties.entries()) {
    await page.getByRole("button", { name: "Add property" }).click();
    await page.getByLabel(`Property ${index + 1} name`).fill(trait);
    await page.getByLabel(`Property ${index + 1} value`).fill(value);
  }
  await page.getByLabel(/I own the rights/).check();
  await page.getByLabel(/I agree/).check();
  await page.getByRole("button", { name: "Create NFT" }).click();
  const mint = page.getByRole("dialog", { name: "Mint your NFT" });
  // Done once the chain's token is indexed: the link to its page shows.
  await expect(mint.getByRole("link", { name: "View your NFT" })).toBeVisible({ timeout: 60_000 });
}

test("properties given at mint show on the item page with their rarity, and a trait filter narrows the collection", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const artist = accountAddress(ARTIST);
  const creator = await newWalletPage(browser, ARTIST);
  const { page } = creator;
  await signIn(page);
  await verifyArtist(page, artist);

  await page.goto("/mint");
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Painting" });
  await page.getByRole("button", { name: "Create new collection" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Collection" });
  await dialog.getByLabel("Name").fill("Weather Studies");
  await dialog.getByLabel("Symbol").fill("WTH");
  await dialog.getByLabel("Category").selectOption({ label: "Painting" });
  await dialog.getByLabel(/I agree/).check();
  await dialog.getByRole("button", { name: "Create Collection" }).click();
  await expect(dialog.getByText("Congratulations! Your smart contract was deployed")).toBeVisible({
    timeout: 60_000,
  });
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog).toBeHidden();
  const collection = await page.getByLabel("Collection", { exact: true }).inputValue();

  // A name used twice is refused in the form, in words, before anything is sent.
  await page.getByRole("button", { name: "Add property" }).click();
  await page.getByRole("button", { name: "Add property" }).click();
  await page.getByLabel("Property 1 name").fill("Mood");
  await page.getByLabel("Property 1 value").fill("Calm");
  await page.getByLabel("Property 2 name").fill("mood");
  await page.getByLabel("Property 2 value").fill("Stormy");
  await page.getByRole("button", { name: "Create NFT" }).click();
  await expect(
    page.getByText("Another property already has this name: give each property its own."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Remove property 2" }).click();
  await page.getByRole("button", { name: "Remove property 1" }).click();

  await mintWithProperties(page, "Still Harbour", "#2e86c1", [
    ["Mood", "Calm"],
    ["Light", "Dawn"],
  ]);
  await page.goto("/mint");
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Painting" });
  await page.getByLabel("Collection", { exact: true }).selectOption(collection);
  await mintWithProperties(page, "Gale Warning", "#566573", [["Mood", "Stormy"]]);

  // The collection page: both, then only the calm one once the filter is chosen.
  await page.goto("/collection/Weather%20Studies");
  const cards = page.getByRole("article");
  await expect(cards).toHaveCount(2, { timeout: 30_000 });
  await page.getByLabel("Property").selectOption("Mood");
  await expect(page.getByLabel("Value").locator("option")).toHaveText([
    "Choose a value",
    "Calm (1)",
    "Stormy (1)",
  ]);
  await page.getByLabel("Value").selectOption("Calm");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("Still Harbour");
  await expect(page).toHaveURL(/traitType=Mood&traitValue=Calm/);

  // The item page: each property with how many of the collection have it.
  await cards.first().getByRole("heading").getByRole("link", { name: "Still Harbour" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Still Harbour" })).toBeVisible();
  const properties = page.getByRole("list", { name: "Properties" });
  await expect(properties.getByRole("listitem")).toHaveText([
    "LightDawn50% have this",
    "MoodCalm50% have this",
  ]);
  // Each leads back to the collection filtered by it.
  await properties.getByRole("link", { name: /Light: Dawn/ }).click();
  await expect(page).toHaveURL(/\/collection\/Weather%20Studies\?traitType=Light&traitValue=Dawn$/);
  await expect(page.getByRole("article")).toHaveCount(1);
  await creator.context.close();
});
