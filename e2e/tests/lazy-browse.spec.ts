import { expect, type Page, test } from "@playwright/test";
import { createPublicClient, http } from "viem";
import { makePng, newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, fund, verifyArtist } from "./chain.ts";

const ARTIST = 18;
const BUYER = 19;
const _client = createPublicClient({ transport: http(RPC_URL) });

/** A new lazy collection from the mint page's "Create new collection", selected on return. */
async function createLazyCollection(page: Page, name: string, symbol: string) {
  await page.getByRole("button", { name: "Create new collection" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Collection" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Symbol").fill(symbol);
  await dialog.getByLabel("Lazy").check();
  await dialog.getByLabel("Maximum supply").fill("10");
  await dialog.getByLabel("Category").selectOption({ label: "Photography" });
  await dialog.getByLabel(/I agree/).check();
  await dialog.getByRole("button", { name: "Create Collection" }).click();
  await expect(dialog.getByText("Congratulations! Your smart contract was deployed")).toBeVisible({
    timeout: 60_000,
  });
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog).toBeHidden();
}

test("an unsold lazy item is found on the marketplace, its collection, the artist's profile and in search, shown as minted at purchase, and bought from there", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  await fund(ARTIST, BUYER);
  const artist = accountAddress(ARTIST);

  const creator = await newWalletPage(browser, ARTIST);
  const { page } = creator;
  await signIn(page);

  // Signed in (a profile to grant to), a moderator verifies the artist and allows one lazy collection.
  const admin = await newWalletPage(browser, 0);
  await signIn(admin.page);
  await verifyArtist(admin.page, artist);
  const granted = await admin.page.evaluate(async (address) => {
    const response = await fetch(`/api/admin/users/${address}/permission`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ lazyCollections: 1 }),
    });
    return response.status;
  }, artist);
  expect(granted).toBe(200);
  await admin.context.close();

  // The artist lists a work minted at purchase: nothing of it is on chain yet.
  await page.goto("/mint");
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Photography" });
  await createLazyCollection(page, "Tide Works", "TIDE");
  await page.getByLabel("Upload file").setInputFiles({
    name: "tide.png",
    mimeType: "image/png",
    buffer: await makePng(page, 400, 400, "#117a65"),
  });
  await page.getByLabel("Name").fill("Tide Pool at Noon");
  await page.getByLabel("Description").fill("Low water, high sun.");
  await page.getByLabel("List price (ETH)").fill("0.25");
  await page.getByLabel(/I own the rights/).check();
  await page.getByLabel(/I agree/).check();
  await page.getByRole("button", { name: "Create lazy NFT" }).click();
  const created = page.getByRole("dialog", { name: "Create a lazy NFT" });
  await expect(
    created.getByText("Congratulations! Your NFT has been uploaded and ready to be minted"),
  ).toBeVisible({
    timeout: 60_000,
  });
  await creator.context.close();

  // A collector finds it on the marketplace's Lazy minted list, with its price, and through search with typos.
  const buyer = await newWalletPage(browser, BUYER);
  const shop = buyer.page;
  await signIn(shop);
  await shop.goto("/ExploreNFTs?status=lazy&sort=priceLowToHigh");
  const card = shop.getByRole("article").filter({ hasText: "Tide Pool at Noon" });
  await expect(card).toHaveCount(1);
  await expect(card.getByText("Minted at purchase")).toBeVisible();
  await expect(card.getByText("0.25 ETH")).toBeVisible();
  const search = shop.getByRole("combobox", { name: "Search" }).first();
  await search.fill("tdie pol");
  await expect(shop.getByRole("option", { name: /Tide Pool at Noon/ }).first()).toBeVisible({
    timeout: 15_000,
  });
  await search.fill("");
  // Its collection's page shows it among the artworks and counts it; so does the artist's Created tab.
  await shop.goto("/collection/Tide%20Works");
  await expect(shop.getByRole("article").filter({ hasText: "Tide Pool at Noon" })).toHaveCount(1);
  await shop.goto(`/profile/${artist}`);
  await shop.getByRole("tab", { name: /Created/ }).click();
  await expect(shop.getByRole("article").filter({ hasText: "Tide Pool at Noon" })).toHaveCount(1);
  await shop.goto("/ExploreNFTs?status=lazy&sort=priceLowToHigh");

  // Bought from the card: the buyer's mint makes it the chain's token.
  await card.getByRole("heading").getByRole("link", { name: "Tide Pool at Noon" }).click();
  await expect(shop.getByRole("heading", { level: 1, name: "Tide Pool at Noon" })).toBeVisible();
  await shop.getByRole("link", { name: "Mint and Buy" }).click();
  await shop.getByRole("button", { name: "Mint" }).click();
  await expect(shop.getByText("Congratulations! Now you are owner of this NFT")).toBeVisible({
    timeout: 60_000,
  });

  // Listed once, now minted and no longer for sale.
  await expect
    .poll(
      async () => {
        await shop.goto("/ExploreNFTs?status=lazy&sort=recentlyCreated");
        const found = shop.getByRole("article").filter({ hasText: "Tide Pool at Noon" });
        await expect(found).toHaveCount(1);
        return found.getByText("Minted at purchase").count();
      },
      { timeout: 30_000 },
    )
    .toBe(0);
  await shop.goto("/ExploreNFTs?status=buyNow");
  await expect(shop.getByRole("article").filter({ hasText: "Tide Pool at Noon" })).toHaveCount(0);
  await buyer.context.close();
});
