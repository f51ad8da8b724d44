import { expect, type Page, test } from "@playwright/test";
import { createPublicClient, http, parseAbi, parseEther } from "viem";
import { makePng, newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, send } from "./chain.ts";

const marketAbi = parseAbi(["function setArtistVerified(address account, bool verified)"]);
const client = createPublicClient({ transport: http(RPC_URL) });
const balance = (address: `0x${string}`) => client.getBalance({ address });
const ownerOf = async (collection: `0x${string}`, tokenId: bigint) =>
  (
    (await client.readContract({
      address: collection,
      abi: parseAbi(["function ownerOf(uint256 tokenId) view returns (address)"]),
      functionName: "ownerOf",
      args: [tokenId],
    })) as string
  ).toLowerCase();
const ARTIST = 3;
const FRIEND = 4;

/** Creates a collection from the mint page's "Create new collection" and comes back with it selected. */
async function createCollection(
  page: Page,
  options: { name: string; symbol: string; type: "Standard" | "Lazy"; category: string },
) {
  await page.getByRole("button", { name: "Create new collection" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Collection" });
  await dialog.getByLabel("Name").fill(options.name);
  await dialog.getByLabel("Symbol").fill(options.symbol);
  await dialog.getByLabel(options.type).check();
  if (options.type === "Lazy") await dialog.getByLabel("Maximum supply").fill("10");
  await dialog.getByLabel("Category").selectOption({ label: options.category });
  await dialog.getByLabel(/I agree/).check();
  await dialog.getByRole("button", { name: "Create Collection" }).click();
  await expect(dialog.getByText("Congratulations! Your smart contract was deployed")).toBeVisible({
    timeout: 60_000,
  });
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel("Collection", { exact: true })).toHaveValue(/^0x[0-9a-f]{40}$/);
}

test("a verified artist mints a standard item with a 2-way split and a lazy item; transfer and burn go through the wallet; the lazy item is repriced and bought with a voucher; a standard user is refused", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const artist = accountAddress(ARTIST);
  const friend = accountAddress(FRIEND);

  const creator = await newWalletPage(browser, ARTIST);
  const { page } = creator;
  await signIn(page);

  // The market verifies the artist on chain; a moderator allows one lazy collection.
  const admin = await newWalletPage(browser, 0);
  await signIn(admin.page);
  const market = await admin.page.evaluate(
    async () =>
      ((await (await fetch("/api/config")).json()) as { contracts: { market: `0x${string}` } }).contracts
        .market,
  );
  await send(0, { address: market, abi: marketAbi, functionName: "setArtistVerified", args: [artist, true] });
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

  // A standard user is told why the mint page is closed, and where to apply.
  const standard = await newWalletPage(browser, FRIEND);
  await signIn(standard.page);
  await standard.page.goto("/mint");
  await expect(
    standard.page.getByText("Only verified artists can mint. Apply to join to become one."),
  ).toBeVisible();
  await expect(standard.page.getByRole("link", { name: "Apply to join" })).toHaveAttribute(
    "href",
    "/applyToJoin",
  );
  await expect(standard.page.getByLabel("Upload file")).toHaveCount(0);

  // Standard mint with a 70/30 split, in a new collection made from the mint page.
  await page.goto("/mint");
  // Disabled until a type is chosen: trying anyway says why.
  await page.getByLabel("Upload file").click({ force: true });
  await expect(page.getByText("At first, please select a type.").first()).toBeVisible();
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Painting" });
  await createCollection(page, {
    name: "Harbour Prints",
    symbol: "HPR",
    type: "Standard",
    category: "Painting",
  });
  await page.getByLabel("Upload file").setInputFiles({
    name: "dawn.png",
    mimeType: "image/png",
    buffer: await makePng(page, 640, 480, "#c0392b"),
  });
  await page.getByLabel("Name").fill("Harbour at Dawn");
  await page.getByRole("button", { name: "10%" }).click();
  await page.getByLabel("Description").fill("Oil on canvas, painted at **first light**.");
  await page.getByLabel("Tags").fill("sea");
  await page.getByLabel("Tags").press("Enter");
  await page.getByRole("switch").check();
  const split = page.getByRole("dialog", { name: "Split earnings" });
  await split.getByLabel("Add a collaborator").fill(friend.slice(0, 12));
  await split.getByRole("button", { name: new RegExp(friend.slice(-4)) }).click();
  // Adding a collaborator shares the earnings evenly; each share stays editable.
  await expect(split.getByLabel("Share of You in percent")).toHaveValue("50");
  await expect(split.getByText("Total: 100%")).toBeVisible();
  await split.getByLabel("Share of You in percent").fill("70");
  await split
    .getByLabel(/^Share of .* in percent$/)
    .nth(1)
    .fill("30");
  await expect(split.getByText("Total: 100%")).toBeVisible();
  await split.getByRole("button", { name: "Split" }).click();
  await expect(page.getByRole("list", { name: "Split" })).toContainText("70%");
  await page.getByLabel(/I own the rights/).check();
  await page.getByLabel(/I agree/).check();
  await page.getByRole("button", { name: "Create NFT" }).click();
  const mint = page.getByRole("dialog", { name: "Mint your NFT" });
  await expect(mint.getByText("Your NFT has been Minted!")).toBeVisible({ timeout: 60_000 });
  await expect(mint.getByText("Uploading your artwork: done")).toBeVisible();
  // Escape does not close it.
  await page.keyboard.press("Escape");
  await expect(mint).toBeVisible();
  await mint.getByRole("link", { name: "View your NFT" }).click();
  await expect(page).toHaveURL(new RegExp(`/${artist}/Harbour%20Prints/1$`));

  // The item page shows what the chain says.
  await expect(page.getByRole("heading", { level: 1, name: "Harbour at Dawn" })).toBeVisible();
  await expect(page.locator("strong", { hasText: "first light" })).toBeVisible();
  const collaborators = page.getByRole("list", { name: "Collaborators" });
  await expect(collaborators).toContainText("70%");
  await expect(collaborators).toContainText("30%");
  await expect(
    page.getByText("Royalty", { exact: true }).locator("xpath=following-sibling::dd[1]"),
  ).toHaveText("10%");
  await expect(page.getByRole("img", { name: "Harbour at Dawn" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Set a Fixed Price" })).toBeVisible();
  await expect(page.getByRole("table", { name: /activity/ })).toContainText("Minted");

  // Transfer to the friend through the wallet.
  await page.getByRole("button", { name: "More" }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["Transfer", "Report", "Burn"]);
  await page.getByRole("menuitem", { name: "Transfer" }).click();
  const transfer = page.getByRole("dialog", { name: "Transfer" });
  await transfer.getByLabel("Recipient address").fill(friend);
  await transfer.getByRole("button", { name: "Transfer" }).click();
  await expect(transfer.getByText("Your NFT has been transferred.")).toBeVisible({ timeout: 60_000 });
  await transfer.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("link", { name: /Owner/ })).toHaveAttribute("href", new RegExp(friend));
  await page.getByRole("button", { name: "More" }).click();
  await expect(page.getByRole("menuitem")).toHaveText(["Report"]);
  await page.keyboard.press("Escape");

  // The friend, now the owner, burns it; its page is then not found.
  const itemUrl = page.url();
  await standard.page.goto(itemUrl);
  await standard.page.getByRole("button", { name: "More" }).click();
  await standard.page.getByRole("menuitem", { name: "Burn" }).click();
  const burn = standard.page.getByRole("dialog", { name: "Burn" });
  await burn.getByRole("button", { name: "Burn" }).click();
  await expect(standard.page).toHaveURL(/\/profile\//, { timeout: 60_000 });
  await standard.page.goto(itemUrl);
  await expect(standard.page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();

  // A lazy item in a new lazy collection: listed at 0.25 ETH until a buyer mints it.
  await page.goto("/mint");
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Photography" });
  await createCollection(page, { name: "Night Shift", symbol: "NGT", type: "Lazy", category: "Photography" });
  await page.getByLabel("Upload file").setInputFiles({
    name: "bus.png",
    mimeType: "image/png",
    buffer: await makePng(page, 400, 400, "#1b2631"),
  });
  await page.getByLabel("Name").fill("Night Bus");
  await page.getByLabel("Description").fill("The last bus home.");
  await page.getByLabel("List price (ETH)").fill("0.01");
  await page.getByLabel(/I own the rights/).check();
  await page.getByLabel(/I agree/).check();
  await page.getByRole("button", { name: "Create lazy NFT" }).click();
  await expect(page.getByText("Price must be at least 0.05 ETH")).toBeVisible();
  await page.getByLabel("List price (ETH)").fill("0.25");
  await page.getByRole("button", { name: "Create lazy NFT" }).click();
  const lazy = page.getByRole("dialog", { name: "Create a lazy NFT" });
  await expect(
    lazy.getByText("Congratulations! Your NFT has been uploaded and ready to be minted"),
  ).toBeVisible({
    timeout: 60_000,
  });
  const lazyPath = await lazy.getByRole("link", { name: "Visit Your NFT" }).getAttribute("href");
  expect(lazyPath).toBe(`/${artist}/Night%20Shift/1`);
  // Closing after success empties the form for the next artwork.
  await lazy.getByRole("button", { name: "Done" }).click();
  await expect(lazy).toBeHidden();
  await expect(page.getByLabel("Name")).toHaveValue("");
  await expect(page.getByLabel("Type", { exact: true })).toHaveValue("");
  await page.goto(lazyPath ?? "");
  const lazyCollection = (await page.evaluate(async (path) => {
    const [, creator, name, id] = path.split("/");
    const response = await fetch(`/api/nft?creator=${creator}&collection=${name}&tokenId=${id}`);
    return ((await response.json()) as { data: { nftCollection: { contract_address: string } } }).data
      .nftCollection.contract_address;
  }, lazyPath ?? "")) as `0x${string}`;
  await expect(page.getByRole("heading", { level: 1, name: "Night Bus" })).toBeVisible();
  await expect(page.getByText("0.25 ETH", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Edit Minting Price" })).toBeVisible();
  // Others see the mint and the spec's menu for lazy items.
  await standard.page.goto(page.url());
  await expect(standard.page.getByRole("link", { name: "Mint and Buy" })).toBeVisible();
  await standard.page.getByRole("button", { name: "More" }).click();
  await expect(standard.page.getByRole("menuitem")).toHaveText(["Transfer", "Report"]);
  await standard.page.keyboard.press("Escape");

  // The artist raises the price; the collector then mints and buys it with a voucher made for them.
  await page.getByRole("link", { name: "Edit Minting Price" }).click();
  await page.getByLabel("New price").fill("0.01");
  await page.getByRole("button", { name: "Update Price" }).click();
  await expect(page.getByText("Price must be at least 0.05 ETH")).toBeVisible();
  await page.getByLabel("New price").fill("0.3");
  await page.getByRole("button", { name: "Update Price" }).click();
  await expect(page.getByText("You successfully update the minting price.").first()).toBeVisible();
  const artistBefore = await balance(artist);
  await standard.page.goto(lazyPath ?? "");
  await expect(standard.page.getByText("0.3 ETH", { exact: true })).toBeVisible();
  await standard.page.getByRole("link", { name: "Mint and Buy" }).click();
  await expect(standard.page.getByRole("heading", { level: 1, name: "Lazy Mint and Buy" })).toBeVisible();
  await standard.page.getByRole("button", { name: "Mint" }).click();
  await expect(standard.page.getByText("Congratulations! Now you are owner of this NFT")).toBeVisible({
    timeout: 60_000,
  });
  await expect(standard.page.getByText("Minting...")).toBeVisible();
  // On chain: the collector owns token 1, and the artist was paid the price minus Easel's 10%.
  expect(await ownerOf(lazyCollection, 1n)).toBe(friend);
  expect((await balance(artist)) - artistBefore).toBe(parseEther("0.27"));
  await standard.page.getByRole("link", { name: "Visit Your NFT" }).click();
  await expect(standard.page.getByRole("link", { name: /Owner/ })).toHaveAttribute(
    "href",
    new RegExp(friend),
  );

  await creator.context.close();
  await standard.context.close();
});
