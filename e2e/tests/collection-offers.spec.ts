import { expect, type Page, test } from "@playwright/test";
import { createPublicClient, http, parseAbi, parseAbiItem, parseEther } from "viem";
import { makePng, newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, send, verifyArtist } from "./chain.ts";

const ARTIST = 9;
const BUYER = 7;
const COLLECTOR = 6;
const client = createPublicClient({ transport: http(RPC_URL) });
const SALE = parseAbiItem(
  "event Sale(address indexed collection, uint256 indexed tokenId, address indexed seller, address buyer, uint8 mechanism, uint256 price, uint256 fee, uint256 royalty, bool primary)",
);
const collectionAbi = parseAbi([
  "function ownerOf(uint256 tokenId) view returns (address)",
  "function transferFrom(address from, address to, uint256 tokenId)",
]);
const marketAbi = parseAbi([
  "struct CollectionOffer { address buyer; address collection; bytes32 tokenRoot; uint256 price; uint256 expiresAt; }",
  "function collectionOfferRemaining(bytes32 offerId) view returns (uint256)",
  "function acceptCollectionOffer(CollectionOffer offer, uint256 tokenId, bytes32[] proof)",
]);

/**
 * Mints one painting with one property from the mint page, in `collection` (chosen last, once the form is filled:
 * the list is read again for the type); answers its item page's path.
 */
async function mint(
  page: Page,
  collection: string,
  name: string,
  mood: string,
  fresh = true,
): Promise<string> {
  if (fresh) {
    await page.goto("/mint");
    await page.getByLabel("Type", { exact: true }).selectOption({ label: "Painting" });
  }
  await page.getByLabel("Upload file").setInputFiles({
    name: "art.png",
    mimeType: "image/png",
    buffer: await makePng(page, 320, 320, mood === "Calm" ? "#5dade2" : "#566573"),
  });
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Description").fill("Weather over the harbour.");
  await page.getByRole("button", { name: "Add property" }).click();
  await page.getByLabel("Property 1 name").fill("Mood");
  await page.getByLabel("Property 1 value").fill(mood);
  await page.getByLabel(/I own the rights/).check();
  await page.getByLabel(/I agree/).check();
  const select = page.getByLabel("Collection", { exact: true });
  await expect(select.locator(`option[value="${collection}"]`)).toBeAttached({ timeout: 30_000 });
  await expect(async () => {
    await select.selectOption(collection);
    await expect(select).toHaveValue(collection, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const dialog = page.getByRole("dialog", { name: "Mint your NFT" });
  // The form may still reset its collection as the list arrives: choose it again until the mint starts.
  await expect(async () => {
    if ((await select.inputValue()) !== collection) await select.selectOption(collection);
    await page.getByRole("button", { name: "Create NFT" }).click();
    await expect(dialog).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  const link = dialog.getByRole("link", { name: "View your NFT" });
  await expect(link).toBeVisible({ timeout: 60_000 });
  return String(await link.getAttribute("href"));
}

/** The sale of `tokenId` to a collection offer, with its transaction's cost to the seller and its block. */
async function saleOf(collection: `0x${string}`, tokenId: bigint) {
  const [log] = await client.getLogs({ event: SALE, args: { collection, tokenId }, fromBlock: 0n });
  expect(log).toBeDefined();
  const receipt = await client.getTransactionReceipt({ hash: log?.transactionHash as `0x${string}` });
  return { args: log?.args as Required<NonNullable<typeof log>["args"]>, receipt };
}

/** How `address`'s balance moved in `block` (anvil mines one transaction a block). */
const moved = async (address: `0x${string}`, block: bigint) =>
  (await client.getBalance({ address, blockNumber: block })) -
  (await client.getBalance({ address, blockNumber: block - 1n }));

test("a trait offer for 2 works is accepted by their two owners and refused for a work without the trait, every payout to the wei", async ({
  browser,
}) => {
  test.setTimeout(360_000);
  const artist = accountAddress(ARTIST);
  const buyer = accountAddress(BUYER);
  const collector = accountAddress(COLLECTOR);
  const creator = await newWalletPage(browser, ARTIST);
  const { page } = creator;
  await signIn(page);
  await verifyArtist(page, artist);

  await page.goto("/mint");
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Painting" });
  await page.getByRole("button", { name: "Create new collection" }).click();
  const create = page.getByRole("dialog", { name: "Create New Collection" });
  await create.getByLabel("Name").fill("Harbour Moods");
  await create.getByLabel("Symbol").fill("HMD");
  await create.getByLabel("Category").selectOption({ label: "Painting" });
  await create.getByLabel(/I agree/).check();
  await create.getByRole("button", { name: "Create Collection" }).click();
  await expect(create.getByText("Congratulations! Your smart contract was deployed")).toBeVisible({
    timeout: 60_000,
  });
  await create.getByRole("button", { name: "Continue" }).click();
  await expect(create).toBeHidden();
  // The new collection is chosen once the form's list holds it.
  await expect(page.getByLabel("Collection", { exact: true })).toHaveValue(/^0x[0-9a-fA-F]{40}$/, {
    timeout: 30_000,
  });
  const collection = (await page.getByLabel("Collection", { exact: true }).inputValue()) as `0x${string}`;
  const stillPath = await mint(page, collection, "Still Morning", "Calm", false);
  const lullPath = await mint(page, collection, "Lull", "Calm");
  const galePath = await mint(page, collection, "Gale", "Stormy");
  const idOf = (path: string) => BigInt(path.split("/").pop() as string);
  const [still, lull, gale] = [idOf(stillPath), idOf(lullPath), idOf(galePath)];
  // A collector owns the second calm work.
  await send(ARTIST, {
    address: collection,
    abi: collectionAbi,
    functionName: "transferFrom",
    args: [artist, collector, lull],
  });

  // The buyer offers 0.25 ETH each on every calm work, for two of them.
  const offerer = await newWalletPage(browser, BUYER);
  await signIn(offerer.page);
  await offerer.page.goto("/collection/Harbour%20Moods?traitType=Mood&traitValue=Calm");
  await offerer.page.getByRole("button", { name: "Offer on every work with this trait" }).click();
  const form = offerer.page.getByRole("dialog", { name: "Offer on every work with Mood: Calm" });
  await expect(form.getByText("It covers 2 works: any of their owners can accept it.")).toBeVisible({
    timeout: 30_000,
  });
  await form.getByLabel("Price for each work").fill("0.25");
  await form.getByLabel("How many works").fill("2");
  await expect(form.getByText("0.5 ETH", { exact: true })).toBeVisible();
  const before = await client.getBalance({ address: buyer });
  await form.getByRole("button", { name: "Make Offer" }).click();
  await expect(form.getByText("Your collection offer is live.")).toBeVisible({ timeout: 60_000 });
  const made = await client.getBlock();
  const escrow = (await client.getBalance({ address: buyer })) - before;
  const makeReceipt = await client.getTransactionReceipt({ hash: made.transactions[0] as `0x${string}` });
  expect(escrow).toBe(-(parseEther("0.5") + makeReceipt.gasUsed * makeReceipt.effectiveGasPrice));

  // The work without the trait: no offer shows on its page, and the market refuses the offer for it.
  const market = (
    (await (await page.request.get("/api/config")).json()) as { contracts: { market: `0x${string}` } }
  ).contracts.market;
  const bestOf = async (id: bigint) =>
    (
      (await (
        await page.request.get(`/api/collection-offers/best?collection=${collection}&tokenId=${id}`)
      ).json()) as {
        data: { offer: { terms: Record<string, string> }; proof: `0x${string}`[] } | null;
      }
    ).data;
  expect(await bestOf(gale)).toBeNull();
  await page.goto(galePath);
  await expect(page.getByRole("heading", { level: 1, name: "Gale" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Best collection offer" })).toHaveCount(0);
  const stillBest = await bestOf(still);
  const terms = stillBest?.offer.terms as Record<string, string>;
  const chainOffer = {
    buyer: terms.buyer as `0x${string}`,
    collection,
    tokenRoot: terms.tokenRoot as `0x${string}`,
    price: BigInt(terms.price as string),
    expiresAt: BigInt(terms.expiresAt as string),
  };
  await expect(
    client.simulateContract({
      address: market,
      abi: marketAbi,
      functionName: "acceptCollectionOffer",
      args: [chainOffer, gale, stillBest?.proof ?? []],
      account: artist,
    }),
  ).rejects.toThrow(/TokenNotInOffer|reverted/);

  // Each owner sees it on their work's page and accepts it in one step (approving the market first).
  const accept = async (who: Page, path: string) => {
    await who.goto(path);
    const panel = who.getByRole("region", { name: "Best collection offer" });
    await expect(panel).toContainText("0.25 ETH", { timeout: 30_000 });
    await expect(panel).toContainText("on every work with Mood: Calm");
    await panel.getByRole("button", { name: "Accept offer" }).click();
    await expect(who.getByText("You sold this work to the collection offer.").first()).toBeVisible({
      timeout: 60_000,
    });
  };
  await accept(page, stillPath);
  const owner = await newWalletPage(browser, COLLECTOR);
  await signIn(owner.page);
  await accept(owner.page, lullPath);

  for (const id of [still, lull])
    expect(
      await client.readContract({
        address: collection,
        abi: collectionAbi,
        functionName: "ownerOf",
        args: [id],
      }),
    ).toMatch(new RegExp(`^${buyer}$`, "i"));

  // Payouts, to the wei: the artist's primary sale pays them the price less Easel's fee; the collector's resale
  // pays them the price less the fee and the artist's royalty, which reaches the artist in the same block.
  const price = parseEther("0.25");
  const first = await saleOf(collection, still);
  expect([first.args.seller.toLowerCase(), first.args.buyer.toLowerCase(), first.args.price]).toEqual([
    artist,
    buyer,
    price,
  ]);
  expect(
    (await moved(artist, first.receipt.blockNumber)) +
      first.receipt.gasUsed * first.receipt.effectiveGasPrice,
  ).toBe(price - first.args.fee);
  const second = await saleOf(collection, lull);
  expect(second.args.royalty).toBeGreaterThan(0n);
  expect(
    (await moved(collector, second.receipt.blockNumber)) +
      second.receipt.gasUsed * second.receipt.effectiveGasPrice,
  ).toBe(price - second.args.fee - second.args.royalty);
  expect(await moved(artist, second.receipt.blockNumber)).toBe(second.args.royalty);

  // The offer is spent (once the indexer has the second sale).
  const offersOf = async () =>
    (
      (await (await page.request.get(`/api/collection-offers?buyer=${buyer}`)).json()) as {
        data: {
          offerId: `0x${string}`;
          terms: Record<string, string>;
          quantity: number;
          remaining: number;
          status: string;
        }[];
      }
    ).data;
  await expect
    .poll(async () => (await offersOf()).map((o) => [o.quantity, o.remaining, o.status]), { timeout: 30_000 })
    .toEqual([[2, 0, "filled"]]);
  const [offer] = await offersOf();
  expect(
    await client.readContract({
      address: market,
      abi: marketAbi,
      functionName: "collectionOfferRemaining",
      args: [offer?.offerId as `0x${string}`],
    }),
  ).toBe(0n);
  // The offerer's profile: both works bought, nothing left to cancel.
  await offerer.page.goto(`/profile/${buyer}`);
  const mine = offerer.page.getByRole("region", { name: "Collection offers" });
  await expect(mine).toContainText("Filled · 2 of 2 filled", { timeout: 30_000 });
  await expect(mine.getByRole("button")).toHaveCount(0);
  for (const p of [creator, offerer, owner]) await p.context.close();
});
