import { expect, type Page, test } from "@playwright/test";
import { createPublicClient, type Hex, http, parseAbi, parseEther, parseEventLogs } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, fund, send, verifyArtist } from "./chain.ts";

// Accounts of anvil's mnemonic that no other spec uses (funded below), since the suite shares one chain.
const ARTIST = 40;
const SECOND_SELLER = 41;
const BUYER = 42;
const RIVAL = 43;
const MNEMONIC = "test test test test test test test test test test test junk";

const collectionAbi = parseAbi([
  "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function transferCountOf(uint256 tokenId) view returns (uint256)",
  "function setApprovalForAll(address operator, bool approved)",
  "event Minted(uint256 indexed tokenId, address indexed creator, address indexed to, bytes cid, uint16 royaltyBps, (address account, uint8 share)[] collaborators)",
]);
const easelMarketAbi = parseAbi([
  "function setSellOrder(address collection, uint256 tokenId, uint256 price)",
  "function buyNow(address collection, uint256 tokenId) payable",
  "function listingCounterOf(address seller) view returns (uint256)",
  "function feesAvailable() view returns (uint256)",
  "event Sale(address indexed collection, uint256 indexed tokenId, address indexed seller, address buyer, uint8 mechanism, uint256 price, uint256 fee, uint256 royalty, bool primary)",
  "event PurchaseSkipped(address indexed collection, uint256 indexed tokenId, address indexed buyer, uint256 price, bytes reason)",
]);
const easelFactoryAbi = parseAbi([
  "function createCollection(string name, string symbol, string category) returns (address)",
  "event CollectionCreated(address indexed collection, address indexed owner, uint8 indexed kind, string name, string symbol, string category, uint256 maxSupply)",
]);
/** The EIP-712 type of a signed listing (packages/contracts/src/orders.ts). */
const signedListingTypes = {
  SignedListing: [
    { name: "collection", type: "address" },
    { name: "tokenId", type: "uint256" },
    { name: "price", type: "uint256" },
    { name: "seller", type: "address" },
    { name: "transferCount", type: "uint256" },
    { name: "counter", type: "uint256" },
    { name: "expiresAt", type: "uint256" },
    { name: "maxFeeBps", type: "uint16" },
  ],
} as const;
const SIGNED_LISTING_DOMAIN = { name: "Easel Market", version: "1" } as const;
const client = createPublicClient({ transport: http(RPC_URL) });
const balance = (address: `0x${string}`) => client.getBalance({ address });

async function contracts(page: Page) {
  const config = (await (await page.request.get("/api/config")).json()) as {
    contracts: { market: `0x${string}`; factory: `0x${string}`; defaultCollection: `0x${string}` };
  };
  return {
    market: config.contracts.market,
    factory: config.contracts.factory,
    collection: config.contracts.defaultCollection.toLowerCase() as `0x${string}`,
  };
}

let seed = 0;
/** Mints the next token of `collection` from the artist's account. */
async function mint(collection: `0x${string}`): Promise<bigint> {
  seed += 1;
  const fromBlock = (await client.getBlockNumber()) + 1n;
  await send(ARTIST, {
    address: collection,
    abi: collectionAbi,
    functionName: "mintNFT",
    args: [1000, `0x01551220${(0xca000 + seed).toString(16).padStart(64, "0")}`, []],
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

/** Waits until the API shows the work listed at a fixed price (the indexer has it). */
async function untilListed(page: Page, itemPath: string) {
  await expect
    .poll(
      async () => {
        const [, creator, ...rest] = itemPath.split("/");
        const id = rest.at(-1);
        const collection = rest.length > 1 ? `&collection=${rest[0]}` : "";
        const res = await page.request.get(`/api/nft?creator=${creator}&tokenId=${id}${collection}`);
        if (!res.ok()) return null;
        const body = (await res.json()) as { data?: { nft?: { listing?: unknown } } };
        return body.data?.nft?.listing ? "listed" : null;
      },
      { timeout: 30_000 },
    )
    .toBe("listed");
}

/** Adds the work at `itemPath` to the cart from its page. */
async function addToCart(page: Page, itemPath: string) {
  await page.goto(itemPath);
  await page.getByRole("button", { name: "Add to cart", exact: true }).click();
  await expect(page.getByRole("button", { name: "Remove from cart", exact: true })).toBeVisible();
}

/** The sent transaction's hash as the outcome shows it (the local chain has no explorer). */
async function outcomeHash(page: Page): Promise<Hex> {
  const hash = await page
    .getByRole("dialog")
    .getByText(/^0x[0-9a-f]{64}$/)
    .textContent();
  return hash as Hex;
}

test.describe.configure({ mode: "serial" });

let market: `0x${string}`;
let factory: `0x${string}`;
let shared: `0x${string}`;

test("a cart of 3 works from 2 sellers is bought in one transaction, every payout to the wei", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  await fund(ARTIST, SECOND_SELLER, BUYER, RIVAL);
  const artist = accountAddress(ARTIST);
  const second = accountAddress(SECOND_SELLER);
  const buyer = accountAddress(BUYER);
  const artistPage = await newWalletPage(browser, ARTIST);
  const buyerPage = await newWalletPage(browser, BUYER);
  const a = artistPage.page;
  const b = buyerPage.page;
  await signIn(a);
  await signIn(b);
  await verifyArtist(a, artist);
  ({ market, factory, collection: shared } = await contracts(a));
  const [one, two, three] = [await mint(shared), await mint(shared), await mint(shared)] as [
    bigint,
    bigint,
    bigint,
  ];
  await send(ARTIST, {
    address: shared,
    abi: collectionAbi,
    functionName: "setApprovalForAll",
    args: [market, true],
  });
  // 1: listed on chain by the artist. 2: listed by the artist's signature. 3: bought by a second seller, who lists it.
  await send(ARTIST, {
    address: market,
    abi: easelMarketAbi,
    functionName: "setSellOrder",
    args: [shared, one, parseEther("0.2")],
  });
  const counter = await client.readContract({
    address: market,
    abi: easelMarketAbi,
    functionName: "listingCounterOf",
    args: [artist],
  });
  const order = {
    collection: shared,
    tokenId: two,
    price: parseEther("0.3"),
    seller: artist,
    transferCount: (await client.readContract({
      address: shared,
      abi: collectionAbi,
      functionName: "transferCountOf",
      args: [two],
    })) as bigint,
    counter,
    expiresAt: BigInt(Math.floor(Date.now() / 1000) + 30 * 86_400),
    maxFeeBps: 1000,
  };
  const signature = await mnemonicToAccount(MNEMONIC, { addressIndex: ARTIST }).signTypedData({
    domain: { ...SIGNED_LISTING_DOMAIN, chainId: 31337, verifyingContract: market },
    types: signedListingTypes,
    primaryType: "SignedListing",
    message: order,
  });
  const body = {
    order: Object.fromEntries(
      Object.entries(order).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v]),
    ),
    signature,
  };
  // Posted once the indexer has the token (404 "Item not found" until then).
  await expect
    .poll(async () => (await a.request.post("/api/signed-listings", { data: body })).status(), {
      timeout: 30_000,
    })
    .toBe(201);
  await send(ARTIST, {
    address: market,
    abi: easelMarketAbi,
    functionName: "setSellOrder",
    args: [shared, three, parseEther("0.1")],
  });
  await send(SECOND_SELLER, {
    address: market,
    abi: easelMarketAbi,
    functionName: "buyNow",
    args: [shared, three],
    value: parseEther("0.1"),
  });
  await send(SECOND_SELLER, {
    address: shared,
    abi: collectionAbi,
    functionName: "setApprovalForAll",
    args: [market, true],
  });
  await send(SECOND_SELLER, {
    address: market,
    abi: easelMarketAbi,
    functionName: "setSellOrder",
    args: [shared, three, parseEther("0.4")],
  });
  const paths = [one, two, three].map((id) => `/${artist}/${id}`);
  for (const path of paths) await untilListed(b, path);

  for (const path of paths) await addToCart(b, path);
  // The cart survives a reload.
  await b.reload();
  await b.getByRole("button", { name: "Cart, 3 works" }).click();
  const drawer = b.getByRole("dialog");
  await expect(drawer.getByTestId("cart-total")).toHaveText("0.9 ETH");
  await drawer.getByRole("button", { name: "Check out" }).click();
  await expect(drawer.getByText("You will buy 3 works")).toBeVisible();
  const before = {
    artist: await balance(artist),
    second: await balance(second),
    buyer: await balance(buyer),
    fees: await client.readContract({ address: market, abi: easelMarketAbi, functionName: "feesAvailable" }),
  };
  await drawer.getByRole("button", { name: "Buy 3 works in one transaction" }).click();
  await expect(drawer.getByText("You bought all 3 works")).toBeVisible({ timeout: 60_000 });
  const hash = await outcomeHash(b);
  const receipt = await client.getTransactionReceipt({ hash });
  const sales = parseEventLogs({ abi: easelMarketAbi, logs: receipt.logs, eventName: "Sale" });
  expect(sales).toHaveLength(3);
  expect(
    parseEventLogs({ abi: easelMarketAbi, logs: receipt.logs, eventName: "PurchaseSkipped" }),
  ).toHaveLength(0);
  for (const id of [one, two, three]) expect(await ownerOf(shared, id)).toBe(buyer);
  const sale = (id: bigint) =>
    sales.find((s) => s.args.tokenId === id)?.args as NonNullable<(typeof sales)[number]["args"]>;
  // Primary sales (the artist's first sale through the market): the 10% commission, no royalty to themselves.
  for (const id of [one, two]) {
    expect(sale(id).primary).toBe(true);
    expect(sale(id).fee).toBe(sale(id).price / 10n);
    expect(sale(id).royalty).toBe(0n);
  }
  // The resale: the creator's 10% royalty, the secondary fee, the rest to the second seller.
  expect(sale(three).primary).toBe(false);
  expect(sale(three).royalty).toBe(parseEther("0.04"));
  const after = {
    artist: await balance(artist),
    second: await balance(second),
    buyer: await balance(buyer),
    fees: await client.readContract({ address: market, abi: easelMarketAbi, functionName: "feesAvailable" }),
  };
  const gas = receipt.gasUsed * receipt.effectiveGasPrice;
  expect(before.buyer - after.buyer).toBe(parseEther("0.9") + gas);
  expect(after.artist - before.artist).toBe(
    parseEther("0.2") - sale(one).fee + parseEther("0.3") - sale(two).fee + sale(three).royalty,
  );
  expect(after.second - before.second).toBe(parseEther("0.4") - sale(three).fee - sale(three).royalty);
  expect(after.fees - before.fees).toBe(sale(one).fee + sale(two).fee + sale(three).fee);
  // The cart is empty now.
  await drawer.getByRole("button", { name: "Done" }).click();
  await expect(drawer.getByText(/^Your cart is empty/)).toBeVisible();
  await b.keyboard.press("Escape");
  await expect(b.getByRole("button", { name: "Cart, 0 works" })).toBeVisible();
  await artistPage.context.close();
  await buyerPage.context.close();
});

test("a sweep buys a collection's 5 cheapest works under the cap", async ({ browser }) => {
  test.setTimeout(300_000);
  const artist = accountAddress(ARTIST);
  const buyer = accountAddress(BUYER);
  const artistPage = await newWalletPage(browser, ARTIST);
  const buyerPage = await newWalletPage(browser, BUYER);
  await signIn(artistPage.page);
  await signIn(buyerPage.page);
  const b = buyerPage.page;
  await send(ARTIST, {
    address: factory,
    abi: easelFactoryAbi,
    functionName: "createCollection",
    args: ["Tideline Sweep", "TDS", "painting"],
  });
  const logs = await client.getLogs({ address: factory, fromBlock: (await client.getBlockNumber()) - 1n });
  const created = parseEventLogs({ abi: easelFactoryAbi, logs, eventName: "CollectionCreated" });
  const reef = (
    created.at(-1) as unknown as { args: { collection: `0x${string}` } }
  ).args.collection.toLowerCase() as `0x${string}`;
  await send(ARTIST, {
    address: reef,
    abi: collectionAbi,
    functionName: "setApprovalForAll",
    args: [market, true],
  });
  // At or above the market's minimum listing price (0.05 ETH).
  const prices = ["0.6", "0.2", "0.5", "0.1", "0.4", "0.3", "5"];
  const ids: bigint[] = [];
  for (const price of prices) {
    const id = await mint(reef);
    ids.push(id);
    await send(ARTIST, {
      address: market,
      abi: easelMarketAbi,
      functionName: "setSellOrder",
      args: [reef, id, parseEther(price)],
    });
  }
  await expect
    .poll(
      async () => {
        const res = await b.request.get(`/api/cart/sweep?collection=${reef}&count=20`);
        return ((await res.json()) as { data?: { lines: unknown[] } }).data?.lines.length;
      },
      { timeout: 30_000 },
    )
    .toBe(7);
  await b.goto("/collection/Tideline%20Sweep");
  await b.getByRole("button", { name: "Sweep", exact: true }).click();
  const dialog = b.getByRole("dialog");
  await dialog.getByLabel("How many works", { exact: true }).fill("5");
  await dialog.getByLabel("Highest price per work (ETH, optional)").fill("1");
  await expect(dialog.getByRole("heading", { name: "Buy the 5 cheapest" })).toBeVisible();
  const works = dialog.getByRole("list", { name: "Works the sweep buys" }).getByRole("listitem");
  await expect(works).toHaveCount(5);
  await expect(dialog.getByTestId("sweep-total")).toHaveText("1.5 ETH");
  await dialog.getByRole("button", { name: "Check out 5 works" }).click();
  const spent = await balance(buyer);
  await dialog.getByRole("button", { name: "Buy 5 works in one transaction" }).click();
  await expect(dialog.getByText("You bought all 5 works")).toBeVisible({ timeout: 60_000 });
  const hash = await outcomeHash(b);
  const mined = await client.getTransactionReceipt({ hash });
  expect(spent - (await balance(buyer))).toBe(parseEther("1.5") + mined.gasUsed * mined.effectiveGasPrice);
  // The five cheapest (0.1 to 0.5) are the buyer's; 0.6 and 5 stay with the artist.
  const owners = await Promise.all(ids.map((id) => ownerOf(reef, id)));
  expect(owners).toEqual([artist, buyer, buyer, buyer, buyer, buyer, artist]);
  await artistPage.context.close();
  await buyerPage.context.close();
});

test("a work bought by someone else between quote and checkout is skipped and refunded, and the page says so", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const artist = accountAddress(ARTIST);
  const buyer = accountAddress(BUYER);
  const rival = accountAddress(RIVAL);
  const buyerPage = await newWalletPage(browser, BUYER);
  const b = buyerPage.page;
  await signIn(b);
  const [four, five] = [await mint(shared), await mint(shared)] as [bigint, bigint];
  await send(ARTIST, {
    address: market,
    abi: easelMarketAbi,
    functionName: "setSellOrder",
    args: [shared, four, parseEther("0.25")],
  });
  await send(ARTIST, {
    address: market,
    abi: easelMarketAbi,
    functionName: "setSellOrder",
    args: [shared, five, parseEther("0.35")],
  });
  const paths = [four, five].map((id) => `/${artist}/${id}`);
  for (const path of paths) await untilListed(b, path);
  for (const path of paths) await addToCart(b, path);
  await b.getByRole("button", { name: "Cart, 2 works" }).click();
  const drawer = b.getByRole("dialog");
  await drawer.getByRole("button", { name: "Check out" }).click();
  await expect(drawer.getByText("You will buy 2 works")).toBeVisible();
  // Quoted: now someone else buys the second work before the buyer confirms.
  await send(RIVAL, {
    address: market,
    abi: easelMarketAbi,
    functionName: "buyNow",
    args: [shared, five],
    value: parseEther("0.35"),
  });
  const before = await balance(buyer);
  await drawer.getByRole("button", { name: "Buy 2 works in one transaction" }).click();
  await expect(drawer.getByText("You bought 1 of 2 works")).toBeVisible({ timeout: 60_000 });
  const skipped = drawer.getByRole("region", { name: "Skipped and refunded" });
  await expect(skipped).toContainText("0.35 ETH refunded");
  await expect(skipped).toContainText("This item is not listed for sale.");
  await expect(drawer.getByRole("region", { name: "Bought" })).toContainText("0.25 ETH");
  const hash = await outcomeHash(b);
  const receipt = await client.getTransactionReceipt({ hash });
  expect(
    parseEventLogs({ abi: easelMarketAbi, logs: receipt.logs, eventName: "PurchaseSkipped" }),
  ).toHaveLength(1);
  // Sent 0.6 ETH, paid 0.25: the 0.35 came back in the same transaction.
  expect(before - (await balance(buyer))).toBe(
    parseEther("0.25") + receipt.gasUsed * receipt.effectiveGasPrice,
  );
  expect(await ownerOf(shared, four)).toBe(buyer);
  expect(await ownerOf(shared, five)).toBe(rival);
  // The bought work leaves the cart; the next check of the cart finds the skipped one sold and says so.
  await drawer.getByRole("button", { name: "Done" }).click();
  await expect(
    drawer.getByText(new RegExp(`: Sold to ${rival.slice(0, 4)}…${rival.slice(-4)} while in your cart$`)),
  ).toBeVisible({ timeout: 30_000 });
  await expect(drawer.getByText(/^Your cart is empty/)).toBeVisible();
  await buyerPage.context.close();
});

test("on a 390 px phone the cart drawer, the checkout and the sweep fit without sideways scrolling", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const artist = accountAddress(ARTIST);
  const { page, context: phone } = await newWalletPage(browser, BUYER);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  const id = await mint(shared);
  await send(ARTIST, {
    address: market,
    abi: easelMarketAbi,
    functionName: "setSellOrder",
    args: [shared, id, parseEther("0.123456789")],
  });
  const path = `/${artist}/${id}`;
  await untilListed(page, path);
  await addToCart(page, path);
  /** The page cannot be scrolled sideways (a wide table in its own scroller is not the page). */
  const fits = async () => {
    const sticking = await page.evaluate(() =>
      Array.from(document.querySelectorAll("body *"))
        .filter((el) => {
          if (el.getBoundingClientRect().right <= window.innerWidth + 0.5) return false;
          // Inside its own scroller, or fixed to the screen (a toast), it does not widen the page.
          if (getComputedStyle(el).position === "fixed") return false;
          for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
            const style = getComputedStyle(up);
            if (style.overflowX !== "visible" || style.position === "fixed") return false;
          }
          return true;
        })
        .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
    );
    expect(sticking).toEqual([]);
    return page.evaluate(() => {
      window.scrollTo(1000, window.scrollY);
      const x = window.scrollX;
      window.scrollTo(0, window.scrollY);
      return x === 0;
    });
  };
  const inside = async (locator: ReturnType<Page["getByRole"]>) => {
    const box = await locator.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);
  };
  await page.getByRole("button", { name: "Cart, 1 work" }).click();
  const drawer = page.getByRole("dialog");
  await expect(drawer.getByTestId("cart-total")).toBeVisible();
  await inside(drawer);
  expect(await fits()).toBe(true);
  expect(await drawer.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await drawer.getByRole("button", { name: "Check out" }).click();
  await expect(drawer.getByRole("button", { name: "Buy 1 work in one transaction" })).toBeVisible();
  await inside(drawer);
  expect(await drawer.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await fits()).toBe(true);
  await page.keyboard.press("Escape");
  await page.goto("/collection/Tideline%20Sweep");
  await page.getByRole("button", { name: "Sweep", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: /^Buy the \d+ cheapest$/ })).toBeVisible();
  await inside(dialog);
  expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await fits()).toBe(true);
  await phone.close();
});
