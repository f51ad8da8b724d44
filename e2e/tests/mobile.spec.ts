import { cidToHex } from "@easel/common";
import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { createPublicClient, http, parseAbi, parseEther } from "viem";
import { makePng, newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { send, verifyArtist } from "./chain.ts";

const ARTIST = 4;
const PHONES = [360, 390];

type World = { item: string; collection: { address: string; name: string }; artist: string };

/**
 * A verified artist mints "Rain on Glass" into the default collection and lists it at 0.1 ETH. The suite's other
 * files mint there too, so its token id is whatever the collection gives it.
 */
async function mintListedItem(browser: Browser): Promise<World> {
  const { page, wallet, context } = await newWalletPage(browser, ARTIST);
  await signIn(page);
  const config = (await (await page.request.get("/api/config")).json()) as {
    contracts: { market: `0x${string}`; defaultCollection: `0x${string}` };
  };
  const { market, defaultCollection } = config.contracts;
  const artist = wallet.address.toLowerCase();
  let tokenId = 0n;
  const nft = async () => page.request.get(`/api/nft?creator=${artist}&tokenId=${tokenId}`);
  type Nft = { data?: { nft: { status: string }; nftCollection: { name: string } } };
  const world = async (): Promise<World> => {
    const { data } = (await (await nft()).json()) as Nft;
    await context.close();
    return {
      item: `/${artist}/${tokenId}`,
      collection: { address: defaultCollection.toLowerCase(), name: data?.nftCollection.name ?? "" },
      artist,
    };
  };
  await verifyArtist(page, wallet.address);
  const categories = (await (await page.request.get("/api/category-web2")).json()) as {
    data: { category_web2: { _id: number }[] };
  };
  const upload = await page.request.post("/api/mint", {
    multipart: {
      file: { name: "rain.png", mimeType: "image/png", buffer: await makePng(page, 800, 800, "#2e86c1") },
      name: "Rain on Glass",
      description: "Drops on a window at night.",
      royalty: "5",
      category_web2_id: String(categories.data.category_web2[0]?._id),
      collection: defaultCollection,
    },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const cid = ((await upload.json()) as { data: { newNft: { uri_cid: string } } }).data.newNft.uri_cid;
  const collectionAbi = parseAbi([
    "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
    "function setApprovalForAll(address operator, bool approved)",
  ]);
  const mint = {
    address: defaultCollection,
    abi: collectionAbi,
    functionName: "mintNFT",
    args: [500, cidToHex(cid), []],
  } as const;
  ({ result: tokenId } = await createPublicClient({ transport: http(RPC_URL) }).simulateContract({
    ...mint,
    account: wallet.address,
  }));
  await send(ARTIST, mint);
  await send(ARTIST, {
    address: defaultCollection,
    abi: collectionAbi,
    functionName: "setApprovalForAll",
    args: [market, true],
  });
  await send(ARTIST, {
    address: market,
    abi: parseAbi(["function setSellOrder(address collection, uint256 tokenId, uint256 price)"]),
    functionName: "setSellOrder",
    args: [defaultCollection, tokenId, parseEther("0.1")],
  });

  await expect
    .poll(async () => ((await (await nft()).json()) as Nft).data?.nft.status, { timeout: 30_000 })
    .toBe("fix");
  return world();
}

/** The page is no wider than the screen, and its main action is on screen whole once scrolled to. */
async function fitsThePhone(page: Page, mainAction: Locator, width: number, path: string) {
  // The app's page (its layout's main is #main), not the server's first paint it replaces.
  await expect(page.locator("main#main"), path).toBeVisible();
  await expect(mainAction, `${path} at ${width} px`).toBeVisible();
  await mainAction.scrollIntoViewIfNeeded();
  await expect(mainAction, `${path} at ${width} px: main action on screen`).toBeInViewport({ ratio: 1 });
  // A phone (isMobile) widens its layout viewport to fit wider content and zooms out, so innerWidth alone
  // would grow with the page: both must stay at the screen's width.
  const sizes = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(sizes.innerWidth, `${path} at ${width} px: zoomed out to ${sizes.innerWidth} px`).toBe(width);
  expect(sizes.scrollWidth, `${path} at ${width} px is ${sizes.scrollWidth} px wide`).toBeLessThanOrEqual(
    width,
  );
}

let world: World;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  world = await mintListedItem(browser);
});

test("every main page fits a 360 and a 390 px phone, its main action on screen", async ({ browser }) => {
  test.setTimeout(180_000);
  const visitor = await browser.newContext({ hasTouch: true, isMobile: true });
  const page = await visitor.newPage();
  const { page: artistPage, context: artistContext } = await newWalletPage(browser, ARTIST);
  await signIn(artistPage);
  const publicPages: [string, (page: Page) => Locator][] = [
    ["/", (p) => p.getByRole("link", { name: "Browse The Market" })],
    ["/ExploreNFTs", (p) => p.getByRole("button", { name: /^Filters/ })],
    ["/ExploreCollection", (p) => p.getByRole("button", { name: /^Filters/ })],
    [
      `/collection/${world.collection.address}`,
      (p) => p.getByRole("link", { name: "Rain on Glass" }).first(),
    ],
    [world.item, (p) => p.getByRole("button", { name: "Connect Wallet to buy, bid or offer" })],
    [`/profile/${world.artist}`, (p) => p.getByRole("button", { name: "Follow" })],
  ];
  const signedInPages: [string, (page: Page) => Locator][] = [
    ["/mint", (p) => p.getByRole("button", { name: /^Create (lazy )?NFT$/ })],
    [`/profile/edit/${world.artist}`, (p) => p.getByRole("button", { name: "Save changes" })],
  ];
  for (const width of PHONES) {
    await page.setViewportSize({ width, height: 780 });
    for (const [path, action] of publicPages) {
      await page.goto(path);
      await fitsThePhone(page, action(page), width, path);
    }
    await artistPage.setViewportSize({ width, height: 780 });
    for (const [path, action] of signedInPages) {
      await artistPage.goto(path);
      await fitsThePhone(artistPage, action(artistPage), width, path);
    }
  }

  // The collection page's tabs scroll inside their strip: the last one is reachable and on screen.
  await page.goto(`/collection/${world.collection.address}`);
  const tabs = page.getByRole("tablist", { name: "Items" }).getByRole("tab");
  const last = tabs.last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport({ ratio: 1 });
  await last.click();
  await expect(last).toHaveAttribute("aria-selected", "true");
  await artistContext.close();
  await visitor.close();
});

test("the marketplace on a phone: two cards a row, filters in a sheet with their count, collection and creator picked by name", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 780 }, hasTouch: true });
  const page = await context.newPage();
  await page.goto("/ExploreNFTs");
  // The app's page, not the frame the server drew it in: a press on the frame's Filters opens nothing.
  await expect(page.locator("main#main")).toBeVisible();
  // No filter panel above the art: the first card is on the first screen, beside a second.
  const cards = page.getByRole("region", { name: "Items" }).getByRole("article");
  await expect(cards.first()).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Filters" })).toHaveCount(0);
  await expect(cards.first()).toBeInViewport();

  const filters = page.getByRole("button", { name: /^Filters/ });
  await expect(filters).toHaveText("Filters");
  await filters.click();
  const sheet = page.getByRole("dialog", { name: "Filters" });
  await expect(sheet).toBeVisible();
  // Focus is trapped in the sheet.
  for (let i = 0; i < 30; i++) await page.keyboard.press("Tab");
  expect(await sheet.evaluate((el) => el.contains(document.activeElement))).toBe(true);

  // A collection picked by its name: suggestions from the search, the URL keeps its address.
  const picker = sheet.getByRole("combobox", { name: "Collection" });
  await picker.fill(world.collection.name.slice(0, 5));
  const option = sheet.getByRole("option", { name: new RegExp(world.collection.name) });
  await expect(option).toBeVisible();
  await option.click();
  await expect(page).toHaveURL(new RegExp(`collection=${world.collection.address}`, "i"));
  await expect(picker).toHaveValue(world.collection.name);
  // A creator's address pasted still works; a partial one says what is wrong and filters nothing.
  const creator = sheet.getByRole("combobox", { name: "Creator" });
  await creator.fill("0x1234");
  await expect(sheet.getByText("Enter a 0x address of 40 hex digits.")).toBeVisible();
  await expect(page).not.toHaveURL(/creator=/);
  await creator.fill(world.artist);
  await expect(page).toHaveURL(new RegExp(`creator=${world.artist}`, "i"));
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expect(filters).toHaveText(/Filters\s*2/);
  await expect(cards.first()).toContainText("Rain on Glass");

  // Reloaded from the URL, the picker shows the collection's name again.
  await page.reload();
  await filters.click();
  await expect(sheet.getByRole("combobox", { name: "Collection" })).toHaveValue(world.collection.name);
  await sheet.getByRole("button", { name: "Clear all" }).click();
  await expect(page).not.toHaveURL(/collection=|creator=/);
  await sheet.getByRole("button", { name: "Show results" }).click();
  await expect(filters).toHaveText("Filters");

  await context.close();
});

test("two item cards share a row on a phone", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await page.goto("/ExploreNFTs");
  const grid = page.getByRole("region", { name: "Items" }).locator("> div").first();
  // The app's page, not the frame the server drew it in, which the app replaces.
  await expect(page.locator("main#main")).toBeVisible();
  await expect(grid.getByRole("article").first()).toBeVisible();
  const columns = () => grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
  await expect.poll(columns).toBe(2);
  await context.close();
});

test("the header search finds an artwork by its own name, with a typo", async ({ page }) => {
  await page.goto("/");
  const search = page.getByRole("combobox", { name: "Search" }).first();
  await search.fill("rain");
  await expect(
    page
      .getByRole("group", { name: "Items" })
      .getByRole("option", { name: /Rain on Glass/ })
      .first(),
  ).toBeVisible();
  await search.fill("rain on glasss");
  await expect(page.getByRole("option", { name: /Rain on Glass/ }).first()).toBeVisible();
  await search.press("ArrowDown");
  await search.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${world.item}$`));
});

test("explore collections reloads on a pull from the top of a touch screen", async ({ browser }) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 780 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  await page.goto("/ExploreCollection");
  await expect(page.getByRole("region", { name: "Collections" })).toHaveAttribute("aria-busy", "false");
  const cdp = await context.newCDPSession(page);
  const touch = (type: string, y?: number) =>
    cdp.send("Input.dispatchTouchEvent", {
      type,
      touchPoints: y === undefined ? [] : [{ x: 200, y }],
    } as never);
  const reloaded = page.waitForRequest((r) => r.url().includes("/api/explore/collections"));
  await touch("touchStart", 150);
  for (const y of [190, 240, 290, 340]) await touch("touchMove", y);
  await expect(page.getByText("Release to refresh")).toBeVisible();
  await touch("touchEnd");
  await reloaded;
  await expect(page.getByText("Release to refresh")).toBeHidden();
  // A short pull does nothing.
  let more = 0;
  page.on("request", (r) => {
    if (r.url().includes("/api/explore/collections")) more++;
  });
  await page.waitForTimeout(500);
  const before = more;
  await touch("touchStart", 150);
  await touch("touchMove", 180);
  await expect(page.getByText("Pull to refresh")).toBeVisible();
  await touch("touchEnd");
  await page.waitForTimeout(500);
  expect(more).toBe(before);
  await context.close();
});
