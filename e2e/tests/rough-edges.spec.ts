/**
 * The spec's last rows and the rough edges (issue 49, section 5): the question before cancelling an auction,
 * /buyInAuction, toasts that keep clear of the header, and the layouts they touched at 360 and 390 px.
 */
import { expect, type Locator, type Page, test } from "@playwright/test";
import { createPublicClient, http, parseAbi, parseEventLogs, zeroAddress } from "viem";
import { newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, send, verifyArtist } from "./chain.ts";

const SELLER = 7;
const PHONES = [360, 390];
const client = createPublicClient({ transport: http(RPC_URL) });
const collectionAbi = parseAbi([
  "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
  "event Minted(uint256 indexed tokenId, address indexed creator, address indexed to, bytes cid, uint16 royaltyBps, (address account, uint8 share)[] collaborators)",
]);
const marketAbi = parseAbi([
  "function getAuction(address collection, uint256 tokenId) view returns ((address seller, uint40 start, uint40 end, uint8 kind, bool tokenBlocked, address bidder, uint96 amount))",
]);

type Contracts = { market: `0x${string}`; defaultCollection: `0x${string}` };

/** Waits until Easel's indexer has every block the chain has now. */
async function indexed(page: Page) {
  const head = await client.getBlockNumber();
  await expect
    .poll(async () => {
      const health = (await (await page.request.get("/api/health")).json()) as {
        indexer?: { indexedBlock: string };
      };
      return BigInt(health.indexer?.indexedBlock ?? 0) >= head;
    })
    .toBe(true);
}

/** Mints a token into the shared collection from the seller's account, once Easel has indexed it. */
async function mint(page: Page, collection: `0x${string}`, seed: string): Promise<bigint> {
  const fromBlock = (await client.getBlockNumber()) + 1n;
  await send(SELLER, {
    address: collection,
    abi: collectionAbi,
    functionName: "mintNFT",
    args: [1000, `0x01551220${seed.repeat(32)}`, []],
  });
  const logs = await client.getLogs({ address: collection, fromBlock });
  const minted = parseEventLogs({ abi: collectionAbi, logs, eventName: "Minted" });
  await indexed(page);
  return (minted.at(-1) as unknown as { args: { tokenId: bigint } }).args.tokenId;
}

/** Whether two boxes overlap. */
const overlap = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The toast saying `text` stands below the header: it covers neither the avatar nor the badge. */
async function expectToastClearOfHeader(page: Page, text: string) {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: text });
  await expect(toast).toBeVisible();
  // Wait for its entrance to end (it slides in from the top).
  await expect
    .poll(async () => (await toast.boundingBox())?.y ?? 0, { intervals: [200, 200, 400] })
    .toBeGreaterThan(0);
  await page.waitForTimeout(500);
  const box = await toast.boundingBox();
  const header = await page.locator("header").first().boundingBox();
  const avatar = await page.getByRole("button", { name: "Account menu" }).first().boundingBox();
  expect(box).not.toBeNull();
  expect(header).not.toBeNull();
  if (!box || !header) return;
  // Top right (the spec), under the header.
  expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
  expect(box.y).toBeLessThan((page.viewportSize()?.height ?? 0) / 2);
  expect(box.x + box.width).toBeGreaterThan((page.viewportSize()?.width ?? 0) / 2);
  if (avatar) expect(overlap(box, avatar)).toBe(false);
}

/** The seller asks to cancel, keeps it, then cancels for real; the chain agrees with each answer. */
async function cancelWithQuestion(page: Page, button: string, auctionSeller: () => Promise<string>) {
  await page.getByRole("button", { name: button }).click();
  const question = page.getByRole("alertdialog", { name: button });
  await expect(question.getByText("Are you going to cancel your auction?")).toBeVisible();
  await expect(question.getByRole("button", { name: "Keep it in market" })).toBeFocused();
  await question.getByRole("button", { name: "Keep it in market" }).click();
  await expect(question).toHaveCount(0);
  // Nothing was sent: the auction is still on the market.
  expect(await auctionSeller()).toBe(accountAddress(SELLER));
  await page.getByRole("button", { name: button }).click();
  await page.getByRole("alertdialog", { name: button }).getByRole("button", { name: "Yes" }).click();
  await expect(
    page
      .getByText("Your auction has been cancelled: the item is free to list or move again.", { exact: true })
      .first(),
  ).toBeVisible({ timeout: 60_000 });
  expect(await auctionSeller()).toBe(zeroAddress);
}

test("/buyInAuction leads to the live auctions, on a desktop and on 360 and 390 px phones", async ({
  browser,
}) => {
  for (const width of [1280, ...PHONES]) {
    const context = await browser.newContext({ viewport: { width, height: width > 900 ? 800 : 780 } });
    const page = await context.newPage();
    await page.goto("/buyInAuction");
    await expect(page).toHaveURL(/\/ExploreNFTs\?status=liveAuction$/);
    await expect(page.getByRole("heading", { level: 1, name: "Marketplace" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Page not found" })).toHaveCount(0);
    if (width > 900) await expect(page.getByRole("radio", { name: "Live auction" })).toBeChecked();
    await context.close();
  }
});

test("cancelling a standard and a reserved auction asks 'Are you going to cancel your auction?' first; toasts keep clear of the header", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const seller = accountAddress(SELLER);
  const { page, context } = await newWalletPage(browser, SELLER);
  await signIn(page);
  const { market, defaultCollection } = (
    (await (await page.request.get("/api/config")).json()) as { contracts: Contracts }
  ).contracts;
  const collection = defaultCollection.toLowerCase() as `0x${string}`;
  await verifyArtist(page, seller);
  const auctionSeller = (tokenId: bigint) => async () =>
    (
      (await client.readContract({
        address: market,
        abi: marketAbi,
        functionName: "getAuction",
        args: [collection, tokenId],
      })) as { seller: string }
    ).seller.toLowerCase();

  // A standard auction, on a desktop.
  const standardId = await mint(page, collection, "a1");
  const standardUrl = `/${seller}/${standardId}`;
  await page.goto(standardUrl);
  await page.getByRole("link", { name: "Start an Auction" }).click();
  await page.getByRole("link", { name: /^Standard Auction/ }).click();
  await page.getByLabel("Starting price").fill("1");
  await page.getByRole("button", { name: "List Your NFT" }).click();
  await expect(page.getByText("Your auction has started.").first()).toBeVisible({ timeout: 60_000 });
  await expectToastClearOfHeader(page, "Your auction has started.");
  await page.goto(`/Auction/manage${standardUrl}`);
  await cancelWithQuestion(page, "Cancel auction", auctionSeller(standardId));
  await expectToastClearOfHeader(page, "Your auction has been cancelled");

  // A reserved auction, on a 390 px phone.
  await page.setViewportSize({ width: 390, height: 844 });
  const reserveId = await mint(page, collection, "b2");
  const reserveUrl = `/${seller}/${reserveId}`;
  await page.goto(reserveUrl);
  await page.getByRole("link", { name: "Start an Auction" }).click();
  await page.getByRole("link", { name: /^Reserved Auction/ }).click();
  await page.getByLabel("Reserve price").fill("0.5");
  await page.getByRole("button", { name: "Set Auction" }).click();
  await expect(page.getByText("Reserved auction was set.").first()).toBeVisible({ timeout: 60_000 });
  await page.goto(`/Auction/manageReserved${reserveUrl}`);
  const cancel = page.getByRole("button", { name: "Cancel Auction" });
  await expect(cancel).toBeInViewport();
  await cancelWithQuestion(page, "Cancel Auction", auctionSeller(reserveId));
  await expectToastClearOfHeader(page, "Your auction has been cancelled");
  await context.close();
});

/** Whether an element shows all of its text (neither cut short by an ellipsis nor clamped). */
const showsAll = (locator: Locator) =>
  locator.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);

test("on 360 and 390 px phones: 2-up cards show their creator's whole name, banners keep their shape; on a desktop the banner is at most 320 px", async ({
  browser,
}) => {
  const seller = accountAddress(SELLER);
  for (const width of PHONES) {
    const context = await browser.newContext({ viewport: { width, height: 800 }, hasTouch: true });
    const page = await context.newPage();
    await page.goto("/ExploreNFTs");
    const items = page.getByRole("region", { name: "Items" });
    const first = items.locator("article").first();
    await expect(first).toBeVisible();
    // Two cards a row.
    const boxes = await items
      .locator("article")
      .evaluateAll((cards) => cards.slice(0, 2).map((card) => card.getBoundingClientRect().top));
    expect(boxes).toHaveLength(2);
    expect(Math.abs((boxes[0] ?? 0) - (boxes[1] ?? 1))).toBeLessThan(2);
    const creators = items.getByTestId("card-creator");
    expect(await creators.count()).toBeGreaterThan(0);
    for (const creator of await creators.all()) expect(await showsAll(creator)).toBe(true);
    // Nothing wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

    await page.goto(`/profile/${seller}`);
    const banner = page.getByTestId("banner");
    await expect(banner).toBeVisible();
    const box = await banner.boundingBox();
    expect(box).not.toBeNull();
    if (box) expect(Math.abs(box.height - box.width / 2.4)).toBeLessThan(2);
    await context.close();
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`/profile/${seller}`);
  const box = await page.getByTestId("banner").boundingBox();
  expect(box).not.toBeNull();
  if (box) expect(box.height).toBeLessThanOrEqual(320);
  await context.close();
});
