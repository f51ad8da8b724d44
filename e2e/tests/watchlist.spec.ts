import { expect, type Page, test } from "@playwright/test";
import { createPublicClient, http, parseAbi, parseEther, parseEventLogs } from "viem";
import { newWalletPage, openAccountMenu, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, send } from "./chain.ts";

/** The artist lists from outside the browser; the watcher and the bidder are two wallets of their own. */
const ARTIST = 7;
const WATCHER = 3;
const BIDDER = 6;
const SECOND_BIDDER = 2;
const PHONES = [360, 390];

const marketAbi = parseAbi([
  "function setArtistVerified(address account, bool verified)",
  "function setStandardAuction(address collection, uint256 tokenId, uint256 price, uint256 start, uint256 duration)",
  "function placeBid(address collection, uint256 tokenId, uint256 amount) payable",
]);
const collectionAbi = parseAbi([
  "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
  "function setApprovalForAll(address operator, bool approved)",
  "event Minted(uint256 indexed tokenId, address indexed creator, address indexed to, bytes cid, uint16 royaltyBps, (address account, uint8 share)[] collaborators)",
]);
const client = createPublicClient({ transport: http(RPC_URL) });

/** Waits for the indexer to reach the chain's head. */
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

/** The page is no wider than the screen. */
async function fitsThePhone(page: Page, width: number, path: string) {
  const sizes = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(sizes.innerWidth, `${path} at ${width} px`).toBe(width);
  expect(sizes.scrollWidth, `${path} at ${width} px is ${sizes.scrollWidth} px wide`).toBeLessThanOrEqual(
    width,
  );
}

test("a watched item's alert arrives when someone bids, live, on the watchlist, the feed and the notifications", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const watcher = await newWalletPage(browser, WATCHER);
  await signIn(watcher.page);
  const w = watcher.page;
  const config = (await (await w.request.get("/api/config")).json()) as {
    contracts: { market: `0x${string}`; defaultCollection: `0x${string}` };
  };
  const { market, defaultCollection } = config.contracts;
  const artist = accountAddress(ARTIST);

  // The artist, verified, mints and starts a day's auction from 1 ETH.
  await send(0, { address: market, abi: marketAbi, functionName: "setArtistVerified", args: [artist, true] });
  const fromBlock = (await client.getBlockNumber()) + 1n;
  await send(ARTIST, {
    address: defaultCollection,
    abi: collectionAbi,
    functionName: "mintNFT",
    args: [1000, `0x01551220${"e7".repeat(32)}`, []],
  });
  const minted = parseEventLogs({
    abi: collectionAbi,
    logs: await client.getLogs({ address: defaultCollection, fromBlock }),
    eventName: "Minted",
  });
  const tokenId = (minted.at(-1) as unknown as { args: { tokenId: bigint } }).args.tokenId;
  await send(ARTIST, {
    address: defaultCollection,
    abi: collectionAbi,
    functionName: "setApprovalForAll",
    args: [market, true],
  });
  await send(ARTIST, {
    address: market,
    abi: marketAbi,
    functionName: "setStandardAuction",
    args: [defaultCollection, tokenId, parseEther("1"), 0n, 86_400n],
  });
  await indexed(w);

  // The watcher hearts it on its page, and finds it on their profile's Favourites tab.
  const itemUrl = `/${artist}/${tokenId}`;
  await w.goto(itemUrl);
  const heart = w.getByRole("button", { name: /^Favourite / }).first();
  await heart.click();
  await expect(heart).toHaveAttribute("aria-pressed", "true");
  await w.goto("/profile");
  await w.getByRole("tab", { name: /Favourites/ }).click();
  const watchlist = w.getByRole("list", { name: "Favourited items" });
  await expect(watchlist.getByTestId("watch-state").first()).toHaveText("At auction · no bid yet");

  // Someone else bids 1.5 ETH: the watcher's open page hears of it, with no reload.
  await send(BIDDER, {
    address: market,
    abi: marketAbi,
    functionName: "placeBid",
    args: [defaultCollection, tokenId, parseEther("1.5")],
    value: parseEther("1.5"),
  });
  await expect(watchlist.getByTestId("watch-state").first()).toHaveText("At auction · top bid 1.5 ETH", {
    timeout: 30_000,
  });
  await expect(w.getByRole("button", { name: "Account menu" })).toContainText(/[1-9]/);

  // The alert, linked to the item.
  await openAccountMenu(w, "Notification");
  const alert = w
    .getByRole("list", { name: "Notifications" })
    .getByRole("link", { name: /bid 1\.5 ETH on “.+”, which you favourited\./ })
    .first();
  await expect(alert).toHaveAttribute("href", itemUrl);

  // The market's feed, linked from the footer, shows the bid, newest first, and stays live.
  await w.getByRole("contentinfo").getByRole("link", { name: "Activity" }).click();
  await expect(w).toHaveURL(/\/activity$/);
  const feed = w.getByRole("list", { name: "Activity, newest first" });
  await expect(feed.getByTestId("feed-row").first()).toContainText("Bid");
  await expect(feed.getByTestId("feed-row").first()).toContainText("1.5 ETH");
  await send(SECOND_BIDDER, {
    address: market,
    abi: marketAbi,
    functionName: "placeBid",
    args: [defaultCollection, tokenId, parseEther("2")],
    value: parseEther("2"),
  });
  await expect(feed.getByTestId("feed-row").first()).toContainText("2 ETH", { timeout: 30_000 });
  // Filtered by kind, only bids.
  await w.getByLabel("Show").selectOption("bid");
  await expect(w).toHaveURL(/kind=bid/);
  // (The filtered page replaces the unfiltered one when it arrives: wait for it, then every row is a bid.)
  await expect(feed.getByTestId("feed-row").filter({ hasNotText: /^Bid/ })).toHaveCount(0);
  await expect(feed.getByTestId("feed-row").first()).toContainText("Bid");

  // On a phone, the feed and the Favourites tab fit the screen.
  for (const width of PHONES) {
    await w.setViewportSize({ width, height: 780 });
    await w.goto("/activity");
    await expect(feed.getByTestId("feed-row").first()).toBeVisible();
    await fitsThePhone(w, width, "/activity");
    await w.goto("/profile");
    await w.getByRole("tab", { name: /Favourites/ }).click();
    await expect(watchlist.getByTestId("watch-state").first()).toBeVisible();
    await fitsThePhone(w, width, "/profile (Favourites)");
  }
  await watcher.context.close();
});
