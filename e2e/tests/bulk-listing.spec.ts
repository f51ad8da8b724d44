import { expect, type Page, test } from "@playwright/test";
import {
  createPublicClient,
  decodeFunctionData,
  type Hex,
  http,
  parseAbi,
  parseEther,
  parseEventLogs,
} from "viem";
import { newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, fund, send, verifyArtist } from "./chain.ts";

// Accounts of anvil's mnemonic that no other spec uses (funded below), since the suite shares one chain.
const SELLER = 50;
const BUYER = 51;
const collectionAbi = parseAbi([
  "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
  "function ownerOf(uint256 tokenId) view returns (address)",
  "event Minted(uint256 indexed tokenId, address indexed creator, address indexed to, bytes cid, uint16 royaltyBps, (address account, uint8 share)[] collaborators)",
]);
const fillAbi = parseAbi([
  "struct SignedListing { address collection; uint256 tokenId; uint256 price; address seller; uint256 transferCount; uint256 counter; uint256 expiresAt; uint16 maxFeeBps; }",
  "function fillBulkSignedListing(SignedListing order, bytes bulkSignature) payable",
]);
const client = createPublicClient({ transport: http(RPC_URL) });
const balance = (address: `0x${string}`) => client.getBalance({ address });

/** The shared collection's address. */
async function defaultCollection(page: Page) {
  const config = (await (await page.request.get("/api/config")).json()) as {
    contracts: { defaultCollection: `0x${string}` };
  };
  return config.contracts.defaultCollection.toLowerCase() as `0x${string}`;
}

/** Mints a token in the shared collection from the seller's account. */
async function mint(collection: `0x${string}`, seed: string): Promise<bigint> {
  const fromBlock = (await client.getBlockNumber()) + 1n;
  await send(SELLER, {
    address: collection,
    abi: collectionAbi,
    functionName: "mintNFT",
    args: [1000, `0x01551220${seed.repeat(32)}`, []],
  });
  const logs = await client.getLogs({ address: collection, fromBlock });
  const minted = parseEventLogs({ abi: collectionAbi, logs, eventName: "Minted" });
  return (minted.at(-1) as unknown as { args: { tokenId: bigint } }).args.tokenId;
}

test("list several: ten works listed with one signature, then one of them bought by another wallet", async ({
  browser,
}) => {
  test.setTimeout(300_000);
  await fund(SELLER, BUYER);
  const seller = accountAddress(SELLER);
  const buyer = accountAddress(BUYER);
  const sellerPage = await newWalletPage(browser, SELLER);
  const buyerPage = await newWalletPage(browser, BUYER);
  await signIn(sellerPage.page);
  await signIn(buyerPage.page);
  const s = sellerPage.page;
  const b = buyerPage.page;
  await verifyArtist(s, seller);
  const collection = await defaultCollection(s);
  const tokens: bigint[] = [];
  for (const seed of ["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9", "ea"])
    tokens.push(await mint(collection, seed));

  // From the seller's profile: "List several" opens their works; the collection's are all chosen at once.
  await s.goto(`/profile/${seller}`);
  await s.getByRole("link", { name: "List several" }).click();
  await expect(s.getByRole("heading", { level: 1, name: "List several" })).toBeVisible();
  await s.goto(`/List/several?collection=${collection}`);
  await expect(s.getByRole("checkbox")).toHaveCount(10, { timeout: 30_000 });
  await s.getByRole("button", { name: "All I own in this collection" }).click();
  await s.getByLabel("Price (ETH)", { exact: true }).fill("0.1");
  const signaturesBefore = sellerPage.wallet.calls.filter((c) => c.method === "eth_signTypedData_v4").length;
  await s.getByRole("button", { name: "List 10 works" }).click();
  await expect(s.getByRole("heading", { name: "Listed: 10 works" })).toBeVisible({ timeout: 90_000 });
  await expect(s.getByRole("heading", { name: /Not listed/ })).toHaveCount(0);
  // One signature for the ten, over the tree of their listings (and the collection's approval, once).
  const signatures = sellerPage.wallet.calls.filter((c) => c.method === "eth_signTypedData_v4");
  expect(signatures.length - signaturesBefore).toBe(1);
  const [, typedData] = (signatures.at(-1) as { params: [string, string] }).params;
  const typed = JSON.parse(typedData) as { primaryType: string; message: { tree: unknown } };
  expect(typed.primaryType).toBe("BulkListing");
  await expect(s.getByRole("list", { name: "Listing several works" }).getByRole("listitem")).toHaveText([
    /Approve .* for Easel's market \(done\)/,
    /Sign once in your wallet \(done\)/,
    /List on Easel \(done\)/,
  ]);

  // Each is its own listing: the fill data of one carries its leaf of the tree the seller signed.
  const chosen = tokens[6] as bigint;
  const leaves = (node: unknown): { tokenId: string }[] =>
    Array.isArray(node) ? node.flatMap(leaves) : [node as { tokenId: string }];
  const index = leaves(typed.message.tree).findIndex((leaf) => BigInt(leaf.tokenId) === chosen);
  expect(index).toBeGreaterThanOrEqual(0);
  const fill = (await (
    await b.request.get(`/api/signed-listings/fill?collection=${collection}&tokenId=${chosen}`)
  ).json()) as { data: { bulk: { index: string; proof: string[] } | null } };
  expect(fill.data.bulk?.index).toBe(String(index));
  expect(fill.data.bulk?.proof).toHaveLength(4);

  // The other wallet buys it from Buy Now: one transaction, fillBulkSignedListing, paid to the wei.
  await b.goto(`/${seller}/${chosen}`);
  await expect(b.getByText("Listed by signature")).toBeVisible({ timeout: 30_000 });
  await b.getByRole("link", { name: "Buy Now" }).click();
  await expect(b.getByRole("heading", { level: 1, name: "Buy Now" })).toBeVisible();
  const sellerBefore = await balance(seller);
  await b.getByRole("button", { name: "Buy Now" }).click();
  await expect(b.getByText(/Now you are the owner of item/).first()).toBeVisible({ timeout: 60_000 });
  const owner = await client.readContract({
    address: collection,
    abi: collectionAbi,
    functionName: "ownerOf",
    args: [chosen],
  });
  expect(owner.toLowerCase()).toBe(buyer);
  // A first sale: 0.1 ETH less Easel's 10% primary commission to the seller, to the wei.
  expect((await balance(seller)) - sellerBefore).toBe(parseEther("0.09"));
  const sent = buyerPage.wallet.calls.filter((c) => c.method === "eth_sendTransaction");
  const [tx] = (sent.at(-1) as { params: [{ data: Hex; value: Hex }] }).params;
  const call = decodeFunctionData({ abi: fillAbi, data: tx.data });
  expect(call.functionName).toBe("fillBulkSignedListing");
  // The packed bulk signature: the tree's height (4 levels) in one byte, then the leaf index in two.
  expect(call.args[1].slice(0, 8)).toBe(`0x04${index.toString(16).padStart(4, "0")}`);
  expect(BigInt(tx.value)).toBe(parseEther("0.1"));
  // The sold one leaves the book; the nine others stay on sale.
  await expect
    .poll(async () =>
      (await b.request.get(`/api/signed-listings/fill?collection=${collection}&tokenId=${chosen}`)).status(),
    )
    .toBe(404);
  expect(
    (await b.request.get(`/api/signed-listings/fill?collection=${collection}&tokenId=${tokens[0]}`)).status(),
  ).toBe(200);
});
