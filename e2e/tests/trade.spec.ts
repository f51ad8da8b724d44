import { expect, type Page, test } from "@playwright/test";
import { createPublicClient, http, parseAbi, parseEther, parseEventLogs } from "viem";
import { newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, chainTime, moveTime, send } from "./chain.ts";

const SELLER = 5;
const DAY = 86_400n;
const BUYER = 6;
const marketAbi = parseAbi([
  "function setArtistVerified(address account, bool verified)",
  "function getOffer(address collection, uint256 tokenId) view returns ((address buyer, uint256 amount, uint256 expiresAt))",
  "function getSellOrder(address collection, uint256 tokenId) view returns (address seller, uint256 price, uint256 expiresAt)",
  "function setSellOrder(address collection, uint256 tokenId, uint256 price)",
  "function makeOffer(address collection, uint256 tokenId, uint256 amount, uint256 expiresAt) payable",
  "function isBanned(address account) view returns (bool)",
]);
const collectionAbi = parseAbi([
  "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function transferFrom(address from, address to, uint256 tokenId)",
  "function setApprovalForAll(address operator, bool approved)",
  "event Minted(uint256 indexed tokenId, address indexed creator, address indexed to, bytes cid, uint16 royaltyBps, (address account, uint8 share)[] collaborators)",
]);
const lockAbi = parseAbi(["function setMarketLocked(bool locked)"]);
const client = createPublicClient({ transport: http(RPC_URL) });
const balance = (address: `0x${string}`) => client.getBalance({ address });
const ownerOf = async (collection: `0x${string}`, tokenId: bigint) =>
  (
    (await client.readContract({
      address: collection,
      abi: collectionAbi,
      functionName: "ownerOf",
      args: [tokenId],
    })) as string
  ).toLowerCase();

/** Whether the market contract bans an account. */
const isBanned = (market: `0x${string}`, account: `0x${string}`) =>
  client.readContract({ address: market, abi: marketAbi, functionName: "isBanned", args: [account] });

/** The market's live offer on a token (amount 0 when there is none). */
const offerOf = async (market: `0x${string}`, collection: `0x${string}`, tokenId: bigint) =>
  (await client.readContract({
    address: market,
    abi: marketAbi,
    functionName: "getOffer",
    args: [collection, tokenId],
  })) as { buyer: string; amount: bigint; expiresAt: bigint };

/** The market's addresses, with the seller verified as an artist so they can mint in the shared collection. */
async function verifiedSeller(page: Page) {
  const config = await page.evaluate(
    async () =>
      (
        (await (await fetch("/api/config")).json()) as {
          contracts: { market: `0x${string}`; defaultCollection: `0x${string}` };
        }
      ).contracts,
  );
  await send(0, {
    address: config.market,
    abi: marketAbi,
    functionName: "setArtistVerified",
    args: [accountAddress(SELLER), true],
  });
  return { config, collection: config.defaultCollection.toLowerCase() as `0x${string}` };
}

/** Runs a page's wallet flow to its success line. */
async function expectSuccess(page: Page, text: string | RegExp) {
  await expect(page.getByText(text).first()).toBeVisible({ timeout: 60_000 });
}

test("list and buy, unlist, make, raise and accept an offer: the chain agrees with every screen", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const seller = accountAddress(SELLER);
  const buyer = accountAddress(BUYER);
  const sellerPage = await newWalletPage(browser, SELLER);
  const buyerPage = await newWalletPage(browser, BUYER);
  await signIn(sellerPage.page);
  await signIn(buyerPage.page);

  // A verified artist mints in the shared collection (outside the browser: minting has its own test).
  const { config, collection } = await verifiedSeller(sellerPage.page);
  const tokenId = await mintShared(sellerPage.page, collection, "ab");
  const itemUrl = `/${seller}/${tokenId}`;

  // The seller lists it at 0.5 ETH: approval first (missing), then the listing.
  const { page } = sellerPage;
  await page.goto(itemUrl);
  await page.getByRole("link", { name: "Set a Fixed Price" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Set a Fixed Price" })).toBeVisible();
  // On chain (signing is the default; signed-listing.spec.ts follows that path).
  await page.getByRole("radio", { name: /List on chain/ }).check();
  await page.getByRole("button", { name: "List Your NFT" }).click();
  await expect(page.getByText("Enter a value")).toBeVisible();
  await page.getByLabel("Price").fill("0");
  await page.getByRole("button", { name: "List Your NFT" }).click();
  await expect(page.getByText("Enter a valid price!")).toBeVisible();
  await page.getByLabel("Price").fill("0.5");
  await page.getByRole("button", { name: "List Your NFT" }).click();
  await expectSuccess(page, "Your NFT has been listed.");
  await expect(page.getByRole("heading", { name: "Complete Your Listing" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Complete Your Listing" }).getByRole("listitem")).toHaveText([
    /Approve/,
    /Confirm/,
    /Finalize/,
  ]);

  // The buyer buys it; the seller is paid the price minus Easel's 10% (a primary sale).
  const sellerBefore = await balance(seller);
  const buyerBefore = await balance(buyer);
  const b = buyerPage.page;
  await b.goto(itemUrl);
  await b.getByRole("link", { name: "Buy Now" }).click();
  await expect(b.getByRole("heading", { level: 1, name: "Buy Now" })).toBeVisible();
  await b.getByRole("button", { name: "Buy Now" }).click();
  await expectSuccess(b, /Now you are the owner of item/);
  expect(await ownerOf(collection, tokenId)).toBe(buyer);
  expect((await balance(seller)) - sellerBefore).toBe(parseEther("0.45"));
  expect(buyerBefore - (await balance(buyer))).toBeGreaterThan(parseEther("0.5"));
  await b.getByRole("link", { name: "Visit Your NFT" }).click();
  await expect(b.getByRole("link", { name: /Owner/ })).toHaveAttribute("href", new RegExp(buyer));

  // The buyer lists it again, then thinks better of it.
  await b.getByRole("link", { name: "Set a Fixed Price" }).click();
  await expect(b.getByRole("heading", { level: 1, name: "Set a Fixed Price" })).toBeVisible();
  await b.getByLabel("Price", { exact: true }).fill("2");
  await b.getByRole("radio", { name: /List on chain/ }).check();
  await b.getByRole("button", { name: "List Your NFT" }).click();
  await expectSuccess(b, "Your NFT has been listed.");
  await b.goto(itemUrl);
  await b.getByRole("link", { name: "Manage listing" }).click();
  await b.getByRole("button", { name: "Unlist" }).click();
  await expect(b.getByText("Are you going to unlist your item?")).toBeVisible();
  await b.getByRole("button", { name: "Keep it in market" }).click();
  await b.getByRole("button", { name: "Unlist" }).click();
  await b.getByRole("button", { name: "Yes" }).click();
  await expectSuccess(b, "Your NFT has been unlisted.");
  await b.goto(itemUrl);
  await expect(b.getByRole("link", { name: "Set a Fixed Price" })).toBeVisible();

  // The first artist offers 0.2 ETH, then raises to 0.3 sending only the difference.
  await page.goto(itemUrl);
  await page.getByRole("link", { name: "Make an Offer" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Make an Offer" })).toBeVisible();
  await page.getByLabel("Your offer").fill("0.2");
  await page.getByRole("button", { name: "Make Offer" }).click();
  await expectSuccess(page, "You Successfully Made an Offer");
  await page.goto(itemUrl);
  await page.getByRole("link", { name: "Manage Offer" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Manage Offer" })).toBeVisible();
  await page.getByLabel("Your new offer").fill("0.3");
  await expect(page.getByText("You send the difference: 0.1 ETH.")).toBeVisible();
  const beforeRaise = await balance(seller);
  await page.getByRole("button", { name: "Update Offer" }).click();
  await expectSuccess(page, "Your offer has been updated.");
  const raisedBy = beforeRaise - (await balance(seller));
  expect(raisedBy).toBeGreaterThanOrEqual(parseEther("0.1"));
  expect(raisedBy).toBeLessThan(parseEther("0.11"));
  const raised = await offerOf(config.market, collection, tokenId);
  expect(raised.amount).toBe(parseEther("0.3"));
  // The default expiry: 7 days from the chain's latest block at the raise.
  const weekAhead = (await chainTime()) + 7n * DAY;
  expect(raised.expiresAt).toBeGreaterThan(weekAhead - 120n);
  expect(raised.expiresAt).toBeLessThanOrEqual(weekAhead);

  // The owner accepts it: the item goes back to the artist.
  await b.goto(itemUrl);
  await b.getByRole("link", { name: "Accept Offer" }).click();
  await expect(b.getByRole("heading", { level: 1, name: "Accept Offer" })).toBeVisible();
  await expect(b.getByRole("main").getByText("0.3 ETH", { exact: true })).toBeVisible();
  await b.getByRole("button", { name: "Accept" }).click();
  await expectSuccess(b, "You accepted the Offer successfully!");
  expect(await ownerOf(collection, tokenId)).toBe(seller);

  // The former owner offers 0.1 ETH and cancels it: the market holds nothing and the 0.1 ETH comes back.
  await b.goto(itemUrl);
  await b.getByRole("link", { name: "Make an Offer" }).click();
  await b.getByLabel("Your offer").fill("0.1");
  await b.getByRole("button", { name: "Make Offer" }).click();
  await expectSuccess(b, "You Successfully Made an Offer");
  await b.goto(`/offer${itemUrl}`);
  await expect(b.getByRole("heading", { level: 1, name: "Manage Offer" })).toBeVisible();
  const beforeCancel = await balance(buyer);
  await b.getByRole("button", { name: "Cancel offer" }).click();
  await expectSuccess(b, "Your offer has been cancelled and refunded.");
  const refunded = (await balance(buyer)) - beforeCancel;
  expect(refunded).toBeGreaterThan(parseEther("0.099"));
  expect(refunded).toBeLessThanOrEqual(parseEther("0.1"));
  expect((await offerOf(config.market, collection, tokenId)).amount).toBe(0n);
  await b.goto(itemUrl);
  await expect(b.getByRole("link", { name: "Make an Offer" })).toBeVisible();

  // An offer on one's own item is refused before the wallet opens.
  await page.goto(`/offer${itemUrl}`);
  await expect(page.getByText("You own this item: offers are made by others.")).toBeVisible();

  // A refusal by the contract reads as words: with the market locked, a purchase is refused and nothing moves.
  await page.goto(`/FixedPrice/set${itemUrl}`);
  await page.getByLabel("Price", { exact: true }).fill("0.5");
  await page.getByRole("radio", { name: /List on chain/ }).check();
  await page.getByRole("button", { name: "List Your NFT" }).click();
  await expectSuccess(page, "Your NFT has been listed.");
  await send(0, { address: config.market, abi: lockAbi, functionName: "setMarketLocked", args: [true] });
  await b.goto(`/FixedPrice/buy${itemUrl}`);
  await b.getByRole("button", { name: "Buy Now" }).click();
  await expect(b.getByText("The market is locked: trading is paused for now.")).toBeVisible({
    timeout: 30_000,
  });
  await expect(b.getByRole("button", { name: "Buy Now" })).toBeVisible();
  await send(0, { address: config.market, abi: lockAbi, functionName: "setMarketLocked", args: [false] });
  expect(await ownerOf(collection, tokenId)).toBe(seller);

  await sellerPage.context.close();
  await buyerPage.context.close();
});

const auctionAbi = parseAbi([
  "function getAuction(address collection, uint256 tokenId) view returns ((address seller, uint40 start, uint40 end, uint8 kind, bool tokenBlocked, address bidder, uint96 amount))",
]);

/** The item page itself (a trading page's URL ends with the same path). */
const onlyPath = (path: string) => new RegExp(`^https?://[^/]+${path}$`);

/**
 * Mints a token in the shared collection, outside the browser, and returns once Easel has indexed it: an item
 * page opened before that answers 404 (a race the test, not a person, runs into).
 */
async function mintShared(page: Page, collection: `0x${string}`, seed: string): Promise<bigint> {
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

test("standard auction: a late bid extends it and a third party settles; reserve auction: a reserve-meeting bid starts it and the leader raises by the difference", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const THIRD = 2;
  const seller = accountAddress(SELLER);
  const buyer = accountAddress(BUYER);
  const third = accountAddress(THIRD);
  const sellerPage = await newWalletPage(browser, SELLER);
  const buyerPage = await newWalletPage(browser, BUYER);
  const thirdPage = await newWalletPage(browser, THIRD);
  for (const p of [sellerPage, buyerPage, thirdPage]) await signIn(p.page);
  const { config, collection } = await verifiedSeller(sellerPage.page);
  const auction = async (tokenId: bigint) =>
    (await client.readContract({
      address: config.market,
      abi: auctionAbi,
      functionName: "getAuction",
      args: [collection, tokenId],
    })) as { seller: string; amount: bigint; bidder: string; end: number };

  // Standard auction from 1 ETH.
  const standardId = await mintShared(sellerPage.page, collection, "cd");
  const standardUrl = `/${seller}/${standardId}`;
  const s = sellerPage.page;
  await s.goto(standardUrl);
  await s.getByRole("link", { name: "Start an Auction" }).click();
  await s.getByRole("link", { name: /^Standard Auction/ }).click();
  await s.getByLabel("Starting price").fill("0.5");
  await s.getByRole("button", { name: "List Your NFT" }).click();
  await expect(s.getByText("Price must be at least 1 ETH")).toBeVisible();
  await s.getByLabel("Starting price").fill("1");
  await s.getByRole("button", { name: "List Your NFT" }).click();
  await expectSuccess(s, "Your auction has started.");
  // Non-custodial: the token stays in the seller's wallet (locked by its collection) until the settlement.
  expect(await ownerOf(collection, standardId)).toBe(seller);

  // The buyer bids 1 ETH; the page returns to the item, which shows the bid.
  const b = buyerPage.page;
  await b.goto(standardUrl);
  await b.getByRole("link", { name: "Place a Bid" }).click();
  await expect(b.getByText("You must bid at least 1.000 ETH").first()).toBeVisible();
  await b.getByLabel("Your bid").fill("1");
  await b.getByRole("button", { name: "Place a Bid" }).click();
  await expect(b).toHaveURL(onlyPath(standardUrl), { timeout: 60_000 });
  await expect(b.getByText("Top bid")).toBeVisible();

  // Ten minutes before the end, a third account outbids: the end moves to 15 minutes after that bid.
  const before = await auction(standardId);
  const head = await client.getBlock();
  await moveTime(before.end - Number(head.timestamp) - 600);
  const buyerBalance = await balance(buyer);
  const t = thirdPage.page;
  await t.goto(standardUrl);
  await t.getByRole("link", { name: "Place a Bid" }).click();
  await expect(t.getByText("You must bid at least 1.100 ETH").first()).toBeVisible();
  await t.getByLabel("Your bid").fill("1.1");
  await t.getByRole("button", { name: "Place a Bid" }).click();
  await expect(t).toHaveURL(onlyPath(standardUrl), { timeout: 60_000 });
  const extended = await auction(standardId);
  expect(extended.bidder.toLowerCase()).toBe(third);
  expect(extended.end).toBeGreaterThan(before.end);
  // The outbid buyer got their 1 ETH back, and, online on the item page, is told at once; the page shows the
  // new top bid without a reload.
  expect((await balance(buyer)) - buyerBalance).toBe(parseEther("1"));
  await expect(b.getByText(/You were outbid on “/)).toBeVisible({ timeout: 10_000 });
  await expect(b.getByText("1.1 ETH", { exact: true }).first()).toBeVisible({ timeout: 10_000 });

  // After the end, the outbid buyer (neither seller nor winner) settles it.
  await moveTime(extended.end - Number((await client.getBlock()).timestamp) + 60);
  const sellerBalance = await balance(seller);
  await b.goto(`/Auction/settle${standardUrl}`);
  // The winner is named as everywhere (their profile's name, else ENS, else short address), the address its tooltip.
  await expect(b.getByTitle(third)).toBeVisible();
  await b.getByRole("button", { name: "Settle" }).click();
  await expectSuccess(b, /The auction is settled/);
  expect(await ownerOf(collection, standardId)).toBe(third);
  expect((await balance(seller)) - sellerBalance).toBe(parseEther("0.99"));

  // Reserve auction at 0.5 ETH: the buyer's 0.5 meets it and starts the clock; raising to 0.6 sends 0.1.
  const reserveId = await mintShared(sellerPage.page, collection, "ef");
  const reserveUrl = `/${seller}/${reserveId}`;
  await s.goto(reserveUrl);
  await s.getByRole("link", { name: "Start an Auction" }).click();
  await s.getByRole("link", { name: /^Reserved Auction/ }).click();
  await s.getByLabel("Reserve price").fill("0.5");
  await s.getByRole("button", { name: "Set Auction" }).click();
  await expectSuccess(s, "Reserved auction was set.");
  await b.goto(reserveUrl);
  await b.getByRole("link", { name: "Place a Bid" }).click();
  await expect(b.getByRole("heading", { level: 1, name: "Place a Bid in a Reserved Auction" })).toBeVisible();
  await b.getByLabel("Your bid").fill("0.5");
  await b.getByRole("button", { name: "Place a Bid" }).click();
  await expect(b).toHaveURL(onlyPath(reserveUrl), { timeout: 60_000 });
  const started = await auction(reserveId);
  expect(started.end).toBeGreaterThan(0);
  await b.getByRole("link", { name: "Place a Bid" }).click();
  await b.getByLabel("Your bid").fill("0.6");
  await expect(b.getByText("You lead: you send the difference, 0.1 ETH.")).toBeVisible();
  const beforeRaise = await balance(buyer);
  await b.getByRole("button", { name: "Place a Bid" }).click();
  await expect(b).toHaveURL(onlyPath(reserveUrl), { timeout: 60_000 });
  const raised = beforeRaise - (await balance(buyer));
  expect(raised).toBeGreaterThanOrEqual(parseEther("0.1"));
  expect(raised).toBeLessThan(parseEther("0.11"));
  expect((await auction(reserveId)).amount).toBe(parseEther("0.6"));

  for (const p of [sellerPage, buyerPage, thirdPage]) await p.context.close();
});

/** Waits until Easel's indexer has every block the chain has now (what the pages read is then current). */
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

test("a banned member takes back a listing and an offer from the banned page, and the market returns both", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const MEMBER = 8;
  const member = accountAddress(MEMBER);
  const memberPage = await newWalletPage(browser, MEMBER);
  const adminPage = await newWalletPage(browser, 0);
  await signIn(memberPage.page);
  await signIn(adminPage.page);

  // The member owns one work (listed at 0.4 ETH) and offers 0.2 ETH on another; set up outside the browser.
  const { config, collection } = await verifiedSeller(adminPage.page);
  const listedId = await mintShared(adminPage.page, collection, "a1");
  const offeredId = await mintShared(adminPage.page, collection, "b2");
  await send(SELLER, {
    address: collection,
    abi: collectionAbi,
    functionName: "transferFrom",
    args: [accountAddress(SELLER), member, listedId],
  });
  await send(MEMBER, {
    address: collection,
    abi: collectionAbi,
    functionName: "setApprovalForAll",
    args: [config.market, true],
  });
  await send(MEMBER, {
    address: config.market,
    abi: marketAbi,
    functionName: "setSellOrder",
    args: [collection, listedId, parseEther("0.4")],
  });
  await send(MEMBER, {
    address: config.market,
    abi: marketAbi,
    functionName: "makeOffer",
    args: [collection, offeredId, parseEther("0.2"), (await chainTime()) + 7n * DAY],
    value: parseEther("0.2"),
  });

  // A moderator bans the member: on the market contract (their wallet) and on Easel.
  const admin = adminPage.page;
  await admin.goto("/admin");
  await admin.getByRole("tab", { name: "Users" }).click();
  await admin.getByLabel("Find users by address or username").fill(member);
  const row = admin.getByRole("row", { name: new RegExp(member) });
  await row.getByRole("button", { name: /^Ban / }).click();
  await expect(row).toContainText("Banned", { timeout: 30_000 });
  expect(await isBanned(config.market, member)).toBe(true);
  await indexed(admin);

  // Signed out, the notice asks for the wallet rather than showing nothing.
  const m = memberPage.page;
  await m.goto("/banned");
  await expect(m.getByRole("heading", { level: 1, name: "Connect your wallet" })).toBeVisible();

  // The banned member signs in again; a trading page sends them to the notice, which finds both, each with
  // its own cancel button.
  await signIn(m);
  await m.goto(`/offer/${accountAddress(SELLER)}/${offeredId}`);
  await expect(m).toHaveURL(/\/banned$/);
  await expect(m.getByText("you are not registered!")).toHaveCount(0);
  await expect(m.getByRole("heading", { level: 1, name: "Your account has been disabled" })).toBeVisible();
  await expect(m.getByRole("heading", { name: "Your Offers" })).toHaveCount(0);
  await m.getByRole("button", { name: "Cancel listing & offers" }).click();
  const offers = m.getByRole("table", { name: "Your Offers" });
  const listings = m.getByRole("table", { name: "Your fixed-price listings" });
  await expect(offers.getByRole("row")).toHaveCount(2);
  await expect(listings.getByRole("row")).toHaveCount(2);

  const beforeCancel = await balance(member);
  await m.getByRole("button", { name: new RegExp(`^Cancel offer on .*#${offeredId}$`) }).click();
  await expect(m.getByText("Your offer is cancelled.")).toBeVisible({ timeout: 30_000 });
  await expect(m.getByText("You have no live offers.")).toBeVisible();
  expect((await offerOf(config.market, collection, offeredId)).amount).toBe(0n);
  const refunded = (await balance(member)) - beforeCancel;
  expect(refunded).toBeGreaterThan(parseEther("0.199"));
  expect(refunded).toBeLessThanOrEqual(parseEther("0.2"));

  await m.getByRole("button", { name: new RegExp(`^Cancel listing on .*#${listedId}$`) }).click();
  await expect(m.getByText("Your listing is cancelled.")).toBeVisible({ timeout: 30_000 });
  await expect(m.getByText("You have no active listings or auctions without bids.")).toBeVisible();
  const [seller] = await client.readContract({
    address: config.market,
    abi: marketAbi,
    functionName: "getSellOrder",
    args: [collection, listedId],
  });
  expect(seller).toBe("0x0000000000000000000000000000000000000000");
  expect(await ownerOf(collection, listedId)).toBe(member);

  // Lifted again, on both sides.
  await row.getByRole("button", { name: /^Unban / }).click();
  await expect(row).toContainText("Active", { timeout: 30_000 });
  expect(await isBanned(config.market, member)).toBe(false);
  await memberPage.context.close();
  await adminPage.context.close();
});

test("an offer made for the shortest time expires on the chain's clock: the owner cannot accept it and the offerer withdraws it", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const seller = accountAddress(SELLER);
  const buyer = accountAddress(BUYER);
  const sellerPage = await newWalletPage(browser, SELLER);
  const buyerPage = await newWalletPage(browser, BUYER);
  await signIn(sellerPage.page);
  await signIn(buyerPage.page);
  const { config, collection } = await verifiedSeller(sellerPage.page);
  const tokenId = await mintShared(sellerPage.page, collection, "9e");
  const itemUrl = `/${seller}/${tokenId}`;

  // The buyer offers 0.2 ETH for 1 day (7 days is the default), counted from the chain's latest block.
  const b = buyerPage.page;
  await b.goto(itemUrl);
  await b.getByRole("link", { name: "Make an Offer" }).click();
  await b.getByLabel("Your offer").fill("0.2");
  const expiry = b.getByRole("group", { name: "Offer expires in" });
  await expect(expiry.getByRole("radio", { name: "7 days" })).toBeChecked();
  await expiry.getByRole("radio", { name: "1 day" }).check();
  await b.getByRole("button", { name: "Make Offer" }).click();
  await expectSuccess(b, "You Successfully Made an Offer");
  const made = await offerOf(config.market, collection, tokenId);
  expect(made.amount).toBe(parseEther("0.2"));
  const dayAhead = (await chainTime()) + DAY;
  expect(made.expiresAt).toBeGreaterThan(dayAhead - 120n);
  expect(made.expiresAt).toBeLessThanOrEqual(dayAhead);

  // While it is live, the owner sees when it expires and may accept it.
  const s = sellerPage.page;
  await indexed(s);
  await s.goto(itemUrl);
  const offers = s.getByRole("list", { name: "Offer" });
  await expect(offers.getByText(/^Expires in (23h|1d 0h)/)).toBeVisible();
  await expect(s.getByRole("link", { name: "Accept Offer" })).toBeVisible();

  // A day later by the chain's clock: 'Expired', no Accept Offer, and the reason in words.
  await moveTime(Number(DAY) + 60);
  await indexed(s);
  await s.goto(itemUrl);
  await expect(offers.getByText("Expired", { exact: true })).toBeVisible();
  await expect(s.getByText(/^This offer has expired: it can no longer be accepted\./)).toBeVisible();
  await expect(s.getByRole("link", { name: "Accept Offer" })).toHaveCount(0);
  // The accept page, reached from elsewhere, refuses it the same way.
  await s.goto(`/acceptOffer${itemUrl}`);
  await expect(s.getByText(/^This offer expired on .*: it can no longer be accepted\./)).toBeVisible();
  await expect(s.getByRole("button", { name: "Accept" })).toHaveCount(0);

  // The offerer withdraws it (cancelOffer) and gets the 0.2 ETH back.
  await b.goto(itemUrl);
  await expect(b.getByRole("list", { name: "Offer" }).getByText("Expired", { exact: true })).toBeVisible();
  await b.getByRole("link", { name: "Manage Offer" }).click();
  await expect(b.getByRole("heading", { level: 1, name: "Manage Offer" })).toBeVisible();
  await expect(b.getByText(/^Your offer expired on /)).toBeVisible();
  await expect(b.getByRole("button", { name: "Cancel offer" })).toHaveCount(0);
  const beforeWithdraw = await balance(buyer);
  await b.getByRole("button", { name: "Withdraw" }).click();
  await expectSuccess(b, "Your expired offer has been withdrawn and refunded.");
  const refunded = (await balance(buyer)) - beforeWithdraw;
  expect(refunded).toBeGreaterThan(parseEther("0.199"));
  expect(refunded).toBeLessThanOrEqual(parseEther("0.2"));
  expect((await offerOf(config.market, collection, tokenId)).amount).toBe(0n);
  await b.goto(itemUrl);
  await expect(b.getByRole("link", { name: "Make an Offer" })).toBeVisible();

  await sellerPage.context.close();
  await buyerPage.context.close();
});
