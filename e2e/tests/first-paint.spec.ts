import { cidToHex } from "@easel/common";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { parseAbi, parseEventLogs } from "viem";
import { makePng, newWalletPage, signIn } from "./accounts.ts";
import { send, verifyArtist } from "./chain.ts";

/** The bounding box of the first element `selector` matches, once it is visible. */
async function boxOf(page: Page, selector: string) {
  const element = page.locator(selector).first();
  await expect(element).toBeVisible();
  // The app may put a new element in the old one's place between two looks (the item's picture, once its
  // original is verified), so the box is read again until one element answers both.
  let box: Awaited<ReturnType<typeof element.boundingBox>> = null;
  await expect.poll(async () => (box = await element.boundingBox())).not.toBeNull();
  return box;
}

/** Whether the first image `selector` matches has loaded (asked again until it has, on a busy machine). */
const loaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

/**
 * Opens `path` as a new visitor on a phone-sized screen with the app's code held back until `release()`, so
 * what the server's frame alone shows can be looked at; `reads` collects every API request the page makes.
 */
async function visitWithAppHeld(browser: Browser, path: string) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const reads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) reads.push(url.pathname + url.search);
  });
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(path, { waitUntil: "commit" });
  return { page, reads, release, close: () => context.close() };
}

test("a profile's page arrives with its banner drawn where the page draws it, and its data: nothing moves or is asked again", async ({
  browser,
}) => {
  // An artist with a banner.
  const { page, context } = await newWalletPage(browser, 9);
  await signIn(page);
  const upload = await page.request.post("/api/profile/media_uploader", {
    multipart: {
      file: { name: "banner.png", mimeType: "image/png", buffer: await makePng(page, 1200, 500, "#1f618d") },
    },
  });
  expect(upload.status()).toBe(200);
  const { data } = (await upload.json()) as { data: { path: string } };
  const saved = await page.request.put("/api/profile", {
    data: { username: "lena_first", banner: data.path },
  });
  expect(saved.status()).toBe(200);
  await context.close();

  // A visitor on a phone-sized screen, whose app code is held back until the frame has been seen.
  const { page: visit, reads, release, close } = await visitWithAppHeld(browser, "/profile/lena_first");

  // Before any of the app's code has run: the header's frame and the banner, loaded.
  const banner = `main img[src="${data.path}"]`;
  const first = await boxOf(visit, banner);
  await expect(visit.getByRole("status", { name: "Loading" })).toBeVisible();
  await expect.poll(() => loaded(visit, banner)).toBe(true);

  // The app runs and draws the profile: the banner has not moved or changed size.
  release();
  await expect(visit.getByRole("heading", { level: 1, name: /lena_first/ })).toBeVisible();
  await expect(visit.getByTestId("banner")).toBeVisible();
  expect(await boxOf(visit, `[data-testid="banner"] img[src="${data.path}"]`)).toEqual(first);
  // Its data came with the page: the app did not ask for it.
  expect(reads.filter((read) => read.startsWith("/api/profile?"))).toEqual([]);
  await close();
});

test("an item's page arrives with its artwork drawn where the page draws it, and its data, which it never reads again", async ({
  browser,
}) => {
  // A verified artist mints a picture into the default collection.
  const { page, wallet, context } = await newWalletPage(browser, 9);
  await signIn(page);
  const config = (await (await page.request.get("/api/config")).json()) as {
    contracts: { market: `0x${string}`; defaultCollection: `0x${string}` };
  };
  await verifyArtist(page, wallet.address);
  const categories = (await (await page.request.get("/api/category-web2")).json()) as {
    data: { category_web2: { _id: number }[] };
  };
  const upload = await page.request.post("/api/mint", {
    multipart: {
      file: { name: "tide.png", mimeType: "image/png", buffer: await makePng(page, 900, 600, "#7d3c98") },
      name: "Tide Line",
      description: "A violet field with a white square in it.",
      royalty: "5",
      category_web2_id: String(categories.data.category_web2[0]?._id),
      collection: config.contracts.defaultCollection,
    },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const { data } = (await upload.json()) as { data: { newNft: { uri_cid: string } } };
  const cid = data.newNft.uri_cid;
  const receipt = await send(9, {
    address: config.contracts.defaultCollection,
    abi: parseAbi([
      "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
    ]),
    functionName: "mintNFT",
    args: [500, cidToHex(cid), []],
  });
  // The default collection numbers every artist's works in one sequence: the id is the mint's Transfer's.
  const [transfer] = parseEventLogs({
    abi: parseAbi(["event Transfer(address indexed from, address indexed to, uint256 indexed id)"]),
    logs: receipt.logs,
    eventName: "Transfer",
  });
  const tokenId = transfer?.args.id;
  expect(tokenId).toBeDefined();
  // The indexer has it once its page answers.
  const path = `/${wallet.address.toLowerCase()}/${tokenId}`;
  await expect
    .poll(async () =>
      (
        await page.request.get(`/api/nft?creator=${wallet.address.toLowerCase()}&tokenId=${tokenId}`)
      ).status(),
    )
    .toBe(200);
  await context.close();

  const { page: visit, reads, release, close } = await visitWithAppHeld(browser, path);
  const artwork = 'main img[alt="Tide Line"]';
  const first = await boxOf(visit, artwork);
  await expect.poll(() => loaded(visit, artwork)).toBe(true);
  // The phone-sized screen took the phone's copy of the preview (640 px wide), not the 900 px one (the
  // picture's own width, under the preview's 1200).
  const { nft } = (
    (await (
      await visit.request.get(`/api/nft?creator=${wallet.address.toLowerCase()}&tokenId=${tokenId}`)
    ).json()) as { data: { nft: { media: { stills: { cid: string; width: number }[] } } } }
  ).data;
  expect(nft.media.stills.map((still) => still.width)).toEqual([640, 900]);
  const shown = () =>
    visit
      .locator(artwork)
      .first()
      .evaluate((img: HTMLImageElement) => img.currentSrc);
  expect(new URL(await shown()).pathname).toBe(`/ipfs/${nft.media.stills[0]?.cid}`);

  release();
  await expect(visit.getByRole("heading", { level: 1, name: "Tide Line" })).toBeVisible();
  await expect(visit.getByRole("button", { name: "View full screen" })).toBeVisible();
  // Once the app's picture has loaded (before, its box follows the width and height attributes, a fraction of a
  // pixel off the phone copy's rounded size).
  await expect.poll(() => loaded(visit, artwork)).toBe(true);
  expect(await boxOf(visit, artwork)).toEqual(first);
  // Its data came with the page, and its live stream opened where the chain was when the page was read: the
  // page never reads the item again (by the time the artwork is verified, the stream has long said so).
  await expect(visit.getByText("Verified", { exact: true })).toBeVisible({ timeout: 30_000 });
  expect(reads.some((read) => read.startsWith("/api/events?"))).toBe(true);
  expect(reads.filter((read) => read.startsWith("/api/nft?"))).toEqual([]);
  await close();
});

test("the home page arrives with its hero drawn where the page draws it: nothing moves when the app takes over", async ({
  browser,
}) => {
  const { page: visit, reads, release, close } = await visitWithAppHeld(browser, "/");
  const heading = 'main h1:has-text("Digital art, collected on Ethereum.")';
  const lead = 'main p:has-text("Easel is a marketplace for artists")';
  // Before any of the app's code has run: the hero, and the page still loading below it.
  const firstHeading = await boxOf(visit, heading);
  const firstLead = await boxOf(visit, lead);
  await expect(visit.getByRole("status", { name: "Loading" })).toBeVisible();
  await expect(visit.getByRole("link", { name: "Browse The Market" })).toHaveAttribute(
    "href",
    "/ExploreNFTs",
  );

  release();
  await expect(visit.getByRole("heading", { level: 2, name: "Featured collections" })).toBeVisible();
  await expect(visit.getByRole("status", { name: "Loading" })).toHaveCount(0);
  // The app drew the same hero at the same place, once.
  await expect(visit.locator(lead)).toHaveCount(1);
  expect(await boxOf(visit, heading)).toEqual(firstHeading);
  expect(await boxOf(visit, lead)).toEqual(firstLead);
  // Its data came with the page: the app did not ask for it.
  expect(reads.filter((read) => read.startsWith("/api/home"))).toEqual([]);
  await close();
});

test("the marketplace arrives with its first card drawn where the page draws it: its picture does not move", async ({
  browser,
}) => {
  // The newest item (the item test above mints one), as the page's first answer lists it.
  const context = await browser.newContext();
  const newest = (
    (await (await context.request.get("/api/explore?sort=recentlyCreated")).json()) as {
      data: { nfts: { name: string; image_cid: string }[] };
    }
  ).data.nfts[0];
  await context.close();
  expect(newest, "the marketplace has an item").toBeTruthy();

  const { page: visit, reads, release, close } = await visitWithAppHeld(browser, "/ExploreNFTs");
  const picture = `article img[src="/ipfs/${newest?.image_cid}"]`;
  const first = await boxOf(visit, `main ${picture}`);
  await expect.poll(() => loaded(visit, `main ${picture}`)).toBe(true);
  await expect(visit.getByRole("heading", { level: 1, name: "Marketplace" })).toBeVisible();
  await expect(visit.getByRole("heading", { level: 3, name: newest?.name })).toBeVisible();

  release();
  // The app's own page (its main is the layout's, #main) draws the same card picture at the same place.
  await expect(visit.locator("main#main article").first()).toBeVisible();
  await expect(visit.getByRole("status", { name: "Loading" })).toHaveCount(0);
  expect(await boxOf(visit, `main#main ${picture}`)).toEqual(first);
  // Its data came with the page: the app did not ask for it.
  expect(reads.filter((read) => read.startsWith("/api/explore?"))).toEqual([]);
  await close();
});

test("a first visit reads in Inter's fallback and fetches Inter only once the page has loaded; the next page reads in Inter", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const visit = await context.newPage();
  const heading = visit.locator('main h1:has-text("Digital art, collected on Ethereum.")').first();
  // The app swaps the server's hero for its own: a detached element has no computed style, so the heading is
  // read again until the one in the page answers.
  const typeface = () =>
    expect.poll(() =>
      heading.evaluate((element) => (element.isConnected ? getComputedStyle(element).fontFamily : "")),
    );
  await visit.goto("/");
  await expect(visit.getByRole("heading", { level: 2, name: "Featured collections" })).toBeVisible();
  await expect(visit.locator("html")).toHaveClass(/\binter-later\b/);
  await typeface().toMatch(/^"Inter Fallback"/);
  // Inter is fetched for later, after the page's load, and remembered.
  await expect
    .poll(async () => (await context.cookies()).find((cookie) => cookie.name === "easel_inter")?.value)
    .toBe("1");
  const { fontStart, loaded } = await visit.evaluate(() => {
    const font = performance.getEntriesByType("resource").find((entry) => entry.name.endsWith(".woff2"));
    const page = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return { fontStart: font?.startTime ?? -1, loaded: page.loadEventEnd };
  });
  expect(fontStart).toBeGreaterThanOrEqual(loaded);
  // This visit's text kept its typeface.
  await typeface().toMatch(/^"Inter Fallback"/);

  await visit.reload();
  await expect(heading).toBeVisible();
  await expect(visit.locator("html")).not.toHaveClass(/\binter-later\b/);
  await typeface().toMatch(/^"Inter Variable"/);
  await expect.poll(() => visit.evaluate(() => document.fonts.check('1em "Inter Variable"'))).toBe(true);
  await context.close();
});
