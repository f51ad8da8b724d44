import { expect, type Page, test } from "@playwright/test";
import { createPublicClient, http, parseAbi, parseEther, parseEventLogs } from "viem";
import { newWalletPage, openAccountMenu, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, fund, send, verifyArtist } from "./chain.ts";

// Accounts of anvil's mnemonic that no other spec uses (funded below), since the suite shares one chain.
const ARTIST = 12;
const COLLECTOR = 13;
const ELSEWHERE = 14;
const BANNED_ARTIST = 15;
const FIRST_COLLECTOR = 16;
const SECOND_COLLECTOR = 17;
const marketAbi = parseAbi([
  "function setBanned(address account, bool banned)",
  "function setSellOrder(address collection, uint256 tokenId, uint256 price)",
  "function buyNow(address collection, uint256 tokenId) payable",
  "function heldOf(address account) view returns (uint256)",
]);
const collectionAbi = parseAbi([
  "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function transferFrom(address from, address to, uint256 tokenId)",
  "function transferCountOf(uint256 tokenId) view returns (uint256)",
  "function setApprovalForAll(address operator, bool approved)",
  "event Minted(uint256 indexed tokenId, address indexed creator, address indexed to, bytes cid, uint16 royaltyBps, (address account, uint8 share)[] collaborators)",
]);
const client = createPublicClient({ transport: http(RPC_URL) });
const balance = (address: `0x${string}`) => client.getBalance({ address });
const nonce = (address: `0x${string}`) => client.getTransactionCount({ address });

/** The market's and the shared collection's addresses. */
async function contracts(page: Page) {
  const config = (await (await page.request.get("/api/config")).json()) as {
    contracts: { market: `0x${string}`; defaultCollection: `0x${string}` };
  };
  return {
    market: config.contracts.market,
    collection: config.contracts.defaultCollection.toLowerCase() as `0x${string}`,
  };
}

/** Mints a token in the shared collection from an artist's account (minting has its own test). */
async function mint(collection: `0x${string}`, seed: string, minter = ARTIST): Promise<bigint> {
  const fromBlock = (await client.getBlockNumber()) + 1n;
  await send(minter, {
    address: collection,
    abi: collectionAbi,
    functionName: "mintNFT",
    args: [1000, `0x01551220${seed.repeat(32)}`, []],
  });
  const logs = await client.getLogs({ address: collection, fromBlock });
  const minted = parseEventLogs({ abi: collectionAbi, logs, eventName: "Minted" });
  return (minted.at(-1) as unknown as { args: { tokenId: bigint } }).args.tokenId;
}

const ownerOf = async (collection: `0x${string}`, tokenId: bigint) =>
  (
    (await client.readContract({
      address: collection,
      abi: collectionAbi,
      functionName: "ownerOf",
      args: [tokenId],
    })) as string
  ).toLowerCase();

const transferCount = (collection: `0x${string}`, tokenId: bigint) =>
  client.readContract({
    address: collection,
    abi: collectionAbi,
    functionName: "transferCountOf",
    args: [tokenId],
  });

/** Lists an item from Set Fixed Price the default way, by signature, to its success line. */
async function listBySignature(page: Page, itemUrl: string, price: string) {
  await page.goto(`/FixedPrice/set${itemUrl}`);
  await expect(page.getByRole("heading", { level: 1, name: "Set a Fixed Price" })).toBeVisible();
  await expect(page.getByRole("radio", { name: /List by signature/ })).toBeChecked();
  await page.getByLabel("Price", { exact: true }).fill(price);
  await page.getByRole("button", { name: "List Your NFT" }).click();
  await expect(page.getByText("Your NFT has been listed.").first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("list", { name: "Complete Your Listing" }).getByRole("listitem")).toHaveText([
    /Approve \(done\)/,
    /Confirm \(done\)/,
    /Finalize \(done\)/,
  ]);
}

/** The API's answer to a buyer's recheck of the token's signed listing. */
const fillStatus = async (page: Page, collection: string, tokenId: bigint) =>
  (await page.request.get(`/api/signed-listings/fill?collection=${collection}&tokenId=${tokenId}`)).status();

test("signed listings: listed without gas, bought, hidden, cancelled on chain, and a stale one never reaches the wallet", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  await fund(ARTIST, COLLECTOR, ELSEWHERE);
  const artist = accountAddress(ARTIST);
  const collector = accountAddress(COLLECTOR);
  const artistPage = await newWalletPage(browser, ARTIST);
  const collectorPage = await newWalletPage(browser, COLLECTOR);
  await signIn(artistPage.page);
  await signIn(collectorPage.page);
  const a = artistPage.page;
  const c = collectorPage.page;
  await verifyArtist(a, artist);
  const { collection } = await contracts(a);
  const [first, second, third, fourth] = [
    await mint(collection, "a1"),
    await mint(collection, "b2"),
    await mint(collection, "c3"),
    await mint(collection, "d4"),
  ] as [bigint, bigint, bigint, bigint];
  const url = (tokenId: bigint) => `/${artist}/${tokenId}`;

  // The first listing by signature costs one transaction: the collection's approval, once.
  let nonceBefore = await nonce(artist);
  await listBySignature(a, url(first), "0.5");
  expect(await nonce(artist)).toBe(nonceBefore + 1);

  // The second costs nothing at all: no transaction, not a wei.
  nonceBefore = await nonce(artist);
  const balanceBefore = await balance(artist);
  await listBySignature(a, url(second), "0.6");
  expect(await nonce(artist)).toBe(nonceBefore);
  expect(await balance(artist)).toBe(balanceBefore);

  // The marketplace's Buy now filter shows the signed listings like any other.
  await c.goto(`/ExploreNFTs?collection=${collection}&creator=${artist}&status=buyNow&sort=priceLowToHigh`);
  const items = c.getByRole("region", { name: "Items" });
  await expect(items.getByRole("article")).toHaveCount(2, { timeout: 20_000 });
  await expect(items.getByRole("article").first()).toContainText("0.5 ETH");
  await expect(items.getByRole("article").last()).toContainText("0.6 ETH");

  // A collector buys the first: the token is theirs on chain and the artist is paid 0.5 ETH minus Easel's 10%.
  await c.goto(url(first));
  await expect(c.getByText("Listed by signature")).toBeVisible();
  await c.getByRole("link", { name: "Buy Now" }).click();
  await expect(c.getByRole("heading", { level: 1, name: "Buy Now" })).toBeVisible();
  const artistBefore = await balance(artist);
  const collectorBefore = await balance(collector);
  await c.getByRole("button", { name: "Buy Now" }).click();
  await expect(c.getByText(/Now you are the owner of item/).first()).toBeVisible({ timeout: 60_000 });
  expect(await ownerOf(collection, first)).toBe(collector);
  expect((await balance(artist)) - artistBefore).toBe(parseEther("0.45"));
  expect(collectorBefore - (await balance(collector))).toBeGreaterThan(parseEther("0.5"));
  await expect.poll(() => fillStatus(c, collection, first)).toBe(404);

  // The artist hides the second: gone from Easel at once, still valid on chain until cancelled, and said so.
  await a.goto(`/FixedPrice/manage${url(second)}`);
  await expect(a.getByText(/Your signature stays valid on chain until you cancel it/)).toBeVisible();
  await a.getByRole("button", { name: "Hide listing" }).click();
  await expect(
    a.getByText("Your listing is hidden on Easel. It stays valid on chain until you cancel it.").first(),
  ).toBeVisible({ timeout: 30_000 });
  expect(await fillStatus(c, collection, second)).toBe(404);
  await c.goto(url(second));
  await expect(c.getByRole("link", { name: "Make an Offer" })).toBeVisible();
  await expect(c.getByRole("link", { name: "Buy Now" })).toHaveCount(0);
  await a.goto(`/FixedPrice/manage${url(second)}`);
  const hidden = a.getByRole("region", { name: "Hidden, but still valid on chain" });
  await expect(hidden).toContainText("0.6 ETH · Hidden on Easel, still valid on chain until you cancel it");

  // The third is cancelled on chain: the spec's question and success, and the token's transfer count moves.
  await listBySignature(a, url(third), "0.7");
  const countBefore = await transferCount(collection, third);
  await a.goto(`/FixedPrice/manage${url(third)}`);
  await a.getByRole("button", { name: "Cancel on chain" }).click();
  await expect(a.getByText("Are you going to unlist your item?")).toBeVisible();
  await a.getByRole("button", { name: "Yes" }).click();
  await expect(a.getByText("Your NFT has been unlisted.").first()).toBeVisible({ timeout: 60_000 });
  expect(await transferCount(collection, third)).toBe(countBefore + 1n);
  await expect.poll(() => fillStatus(c, collection, third)).toBe(404);

  // The fourth goes stale while a buyer looks at it (the token moves after signing; this page hears nothing
  // live): Buy Now answers with words, and the wallet is never asked.
  await listBySignature(a, url(fourth), "0.8");
  await c.route("**/api/events**", (route) => route.abort());
  await c.goto(`/FixedPrice/buy${url(fourth)}`);
  await expect(c.getByRole("button", { name: "Buy Now" })).toBeVisible();
  await send(ARTIST, {
    address: collection,
    abi: collectionAbi,
    functionName: "transferFrom",
    args: [artist, accountAddress(ELSEWHERE), fourth],
  });
  const sentBefore = collectorPage.wallet.calls.filter(
    (call) => call.method === "eth_sendTransaction",
  ).length;
  await c.getByRole("button", { name: "Buy Now" }).click();
  await expect(c.getByText("This listing is no longer available.").first()).toBeVisible({ timeout: 30_000 });
  expect(collectorPage.wallet.calls.filter((call) => call.method === "eth_sendTransaction").length).toBe(
    sentBefore,
  );
  expect(await ownerOf(collection, fourth)).toBe(accountAddress(ELSEWHERE));

  await artistPage.context.close();
  await collectorPage.context.close();
});

test("held payments: a banned artist's royalty on a resale is held, a moderator releases it, and forfeits the next after asking", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  await fund(BANNED_ARTIST, FIRST_COLLECTOR, SECOND_COLLECTOR);
  const artist = accountAddress(BANNED_ARTIST);
  const admin = await newWalletPage(browser, 0);
  await signIn(admin.page);
  await verifyArtist(admin.page, artist);
  const { market, collection } = await contracts(admin.page);
  const heldOf = () =>
    client.readContract({ address: market, abi: marketAbi, functionName: "heldOf", args: [artist] });

  /** `from` lists the token at `price` and `to` buys it, outside the browser (trading has its own tests). */
  async function sell(from: number, to: number, tokenId: bigint, price: bigint) {
    await send(from, {
      address: collection,
      abi: collectionAbi,
      functionName: "setApprovalForAll",
      args: [market, true],
    });
    await send(from, {
      address: market,
      abi: marketAbi,
      functionName: "setSellOrder",
      args: [collection, tokenId, price],
    });
    await send(to, {
      address: market,
      abi: marketAbi,
      functionName: "buyNow",
      args: [collection, tokenId],
      value: price,
    });
  }

  // A primary sale, then the artist is banned: the 10% royalty of each resale is held for them.
  const tokenId = await mint(collection, "e5", BANNED_ARTIST);
  await sell(BANNED_ARTIST, FIRST_COLLECTOR, tokenId, parseEther("0.1"));
  await send(0, { address: market, abi: marketAbi, functionName: "setBanned", args: [artist, true] });
  await sell(FIRST_COLLECTOR, SECOND_COLLECTOR, tokenId, parseEther("0.2"));
  const held = await heldOf();
  expect(held).toBe(parseEther("0.02"));

  const page = admin.page;
  await openAccountMenu(page, "Moderation");
  await page.getByRole("tab", { name: "Held payments" }).click();
  const row = page
    .getByRole("table", { name: "Held payments" })
    .getByRole("row")
    .filter({ has: page.locator(`a[href="/profile/${artist}"]`) });
  await expect(row).toContainText("0.02 ETH", { timeout: 30_000 });
  const artistBefore = await balance(artist);
  await row.getByRole("button", { name: /^Release for/ }).click();
  await expect(page.getByText("The held payment was released to the account.")).toBeVisible({
    timeout: 30_000,
  });
  expect(await heldOf()).toBe(0n);
  expect((await balance(artist)) - artistBefore).toBe(held);
  await expect(row.getByRole("button", { name: /^Release for/ })).toBeDisabled({ timeout: 30_000 });

  // The next royalty is held again; Forfeit asks first, then sends it to Easel's fees, not to the artist.
  await sell(SECOND_COLLECTOR, FIRST_COLLECTOR, tokenId, parseEther("0.3"));
  expect(await heldOf()).toBe(parseEther("0.03"));
  await page.reload();
  await page.getByRole("tab", { name: "Held payments" }).click();
  await expect(row).toContainText("0.03 ETH", { timeout: 30_000 });
  await row.getByRole("button", { name: /^Forfeit for/ }).click();
  await expect(row.getByText(/cannot be paid to them afterwards/)).toBeVisible();
  await row.getByRole("button", { name: "Keep it held" }).click();
  expect(await heldOf()).toBe(parseEther("0.03"));
  const beforeForfeit = await balance(artist);
  await row.getByRole("button", { name: /^Forfeit for/ }).click();
  await row.getByRole("button", { name: "Yes, forfeit" }).click();
  await expect(page.getByText("The held payment was forfeited to Easel's fees.")).toBeVisible({
    timeout: 30_000,
  });
  expect(await heldOf()).toBe(0n);
  expect(await balance(artist)).toBe(beforeForfeit);
  await admin.context.close();
});
