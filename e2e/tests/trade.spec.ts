import { expect, type Page, test } from "@playwright/test";
import { createPublicClient, http, parseAbi, parseEther, parseEventLogs } from "viem";
import { newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, send } from "./chain.ts";

const SELLER = 5;
const BUYER = 6;
const marketAbi = parseAbi([
  "function setArtistVerified(address account, bool verified)",
  "function getOffer(address collection, uint256 tokenId) view returns ((address buyer, uint96 amount))",
]);
const collectionAbi = parseAbi([
  "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "event Minted(uint256 indexed tokenId, address indexed creator, address indexed to, bytes cid, uint16 royaltyBps, (address account, uint8 share)[] collaborators)",
]);
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
  const config = await sellerPage.page.evaluate(
    async () =>
      (
        (await (await fetch("/api/config")).json()) as {
          contracts: { market: `0x${string}`; defaultCollection: `0x${string}` };
        }
      ).contracts,
  );
  const collection = config.defaultCollection.toLowerCase() as `0x${string}`;
  await send(0, {
    address: config.market,
    abi: marketAbi,
    functionName: "setArtistVerified",
    args: [seller, true],
  });
  const fromBlock = (await client.getBlockNumber()) + 1n;
  await send(SELLER, {
    address: collection,
    abi: collectionAbi,
    functionName: "mintNFT",
    args: [1000, `0x01551220${"ab".repeat(32)}`, []],
  });
  const logs = await client.getLogs({ address: collection, fromBlock });
  const minted = parseEventLogs({ abi: collectionAbi, logs, eventName: "Minted" });
  const tokenId = (minted.at(-1) as unknown as { args: { tokenId: bigint } }).args.tokenId;
  const itemUrl = `/${seller}/${tokenId}`;

  // The seller lists it at 0.5 ETH: approval first (missing), then the listing.
  const { page } = sellerPage;
  await page.goto(itemUrl);
  await page.getByRole("link", { name: "Set a Fixed Price" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Set a Fixed Price" })).toBeVisible();
  await page.getByRole("button", { name: "Approve and list" }).click();
  await expect(page.getByText("Enter a value")).toBeVisible();
  await page.getByLabel("Price").fill("0");
  await page.getByRole("button", { name: "Approve and list" }).click();
  await expect(page.getByText("Enter a valid price!")).toBeVisible();
  await page.getByLabel("Price").fill("0.5");
  await page.getByRole("button", { name: "Approve and list" }).click();
  await expectSuccess(page, "Your NFT has been listed.");
  await expect(page.getByText("Approving...")).toBeVisible();

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
  await b.getByLabel("Price").fill("2");
  await b.getByRole("button", { name: /list/i }).click();
  await expectSuccess(b, "Your NFT has been listed.");
  await b.goto(itemUrl);
  await b.getByRole("link", { name: "Manage listing" }).click();
  await b.getByRole("button", { name: "Unlist" }).click();
  await expect(b.getByText("Are you going to unlist your item?")).toBeVisible();
  await b.getByRole("button", { name: "Keep it in market" }).click();
  await b.getByRole("button", { name: "Unlist" }).click();
  await b.getByRole("button", { name: "Yes" }).click();
  await expectSuccess(b, "Your item has been unlisted.");
  await b.goto(itemUrl);
  await expect(b.getByRole("link", { name: "Set a Fixed Price" })).toBeVisible();

  // The first artist offers 0.2 ETH, then raises to 0.3 sending only the difference.
  await page.goto(itemUrl);
  await page.getByRole("link", { name: "Make an Offer" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Make an Offer" })).toBeVisible();
  await page.getByLabel("Your offer").fill("0.2");
  await page.getByRole("button", { name: "Make Offer" }).click();
  await expectSuccess(page, "Your offer has been placed.");
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
  const offer = (await client.readContract({
    address: config.market,
    abi: marketAbi,
    functionName: "getOffer",
    args: [collection, tokenId],
  })) as { buyer: string; amount: bigint };
  expect(offer.amount).toBe(parseEther("0.3"));

  // The owner accepts it: the item goes back to the artist.
  await b.goto(itemUrl);
  await b.getByRole("link", { name: "Accept Offer" }).click();
  await expect(b.getByText("0.3 ETH", { exact: true })).toBeVisible();
  await b.getByRole("button", { name: "Accept" }).click();
  await expectSuccess(b, "You accepted the Offer successfully!");
  expect(await ownerOf(collection, tokenId)).toBe(seller);

  // A refused action explains itself: the artist owns the item again, and an offer on one's own item is refused.
  await page.goto(`/offer${itemUrl}`);
  await expect(page.getByText("You own this item: offers are made by others.")).toBeVisible();

  await sellerPage.context.close();
  await buyerPage.context.close();
});
