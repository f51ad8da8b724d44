import { cidToHex } from "@easel/common";
import { devices, expect, test } from "@playwright/test";
import { createPublicClient, formatEther, http, parseAbi, parseEther } from "viem";
import { makePng, newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { send, verifyArtist } from "./chain.ts";

const ARTIST = 1;
const BUYER = 2;

test("a phone without a wallet opens the page it is on in a wallet app's browser", async ({ browser }) => {
  // An iPhone at 390 px: no injected wallet, as in Safari or Chrome on a phone.
  const { defaultBrowserType: _, ...iPhone } = devices["iPhone 13"];
  const phone = await browser.newContext(iPhone);
  const page = await phone.newPage();
  await page.goto("/ExploreNFTs?sort=new");
  expect(page.viewportSize()?.width).toBe(390);
  expect(await page.evaluate(() => typeof (window as { ethereum?: unknown }).ethereum)).toBe("undefined");
  await page.getByRole("button", { name: "Connect Wallet" }).first().click();
  const dialog = page.getByRole("dialog");
  const wallets = dialog.getByRole("region", { name: "Open Easel in your wallet app" });
  await expect(wallets).toBeVisible();
  const here = page.url();
  const encoded = encodeURIComponent(here);
  const { host } = new URL(here);
  const expected: [string, string][] = [
    ["Open in MetaMask", `https://metamask.app.link/dapp/${host}/ExploreNFTs?sort=new`],
    ["Open in Coinbase Wallet", `https://go.cb-w.com/dapp?cb_url=${encoded}`],
    ["Open in Trust Wallet", `https://link.trustwallet.com/open_url?coin_id=60&url=${encoded}`],
    ["Open in Rainbow", `https://rnbwapp.com/dapp?url=${encoded}`],
  ];
  for (const [name, href] of expected) {
    const link = wallets.getByRole("link", { name });
    await expect(link).toHaveAttribute("href", href);
    await link.scrollIntoViewIfNeeded();
    await expect(link, `${name} on screen`).toBeInViewport({ ratio: 1 });
  }
  // WalletConnect is off: the server names no project.
  await expect(dialog.getByRole("button", { name: "WalletConnect" })).toHaveCount(0);
  // The dialog fits the phone.
  const box = await dialog.boundingBox();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 390).toBe(true);
  await phone.close();
});

const collectionAbi = parseAbi([
  "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
  "function setApprovalForAll(address operator, bool approved)",
]);

test("Buy Now shows the price, the estimated network fee and the total before the wallet opens", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  // An artist mints an item and lists it at 0.1 ETH on chain.
  const artist = await newWalletPage(browser, ARTIST);
  await signIn(artist.page);
  const config = (await (await artist.page.request.get("/api/config")).json()) as {
    contracts: { market: `0x${string}`; defaultCollection: `0x${string}` };
  };
  const { market, defaultCollection } = config.contracts;
  await verifyArtist(artist.page, artist.wallet.address);
  const categories = (await (await artist.page.request.get("/api/category-web2")).json()) as {
    data: { category_web2: { _id: number }[] };
  };
  const upload = await artist.page.request.post("/api/mint", {
    multipart: {
      file: {
        name: "dusk.png",
        mimeType: "image/png",
        buffer: await makePng(artist.page, 600, 600, "#7d3c98"),
      },
      name: "Dusk over the Bay",
      description: "The last light.",
      royalty: "5",
      category_web2_id: String(categories.data.category_web2[0]?._id),
      collection: defaultCollection,
    },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const cid = ((await upload.json()) as { data: { newNft: { uri_cid: string } } }).data.newNft.uri_cid;
  const mint = {
    address: defaultCollection,
    abi: collectionAbi,
    functionName: "mintNFT",
    args: [500, cidToHex(cid), []],
  } as const;
  const { result: tokenId } = await createPublicClient({ transport: http(RPC_URL) }).simulateContract({
    ...mint,
    account: artist.wallet.address,
  });
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
  const creator = artist.wallet.address.toLowerCase();
  await expect
    .poll(
      async () =>
        (
          (await (
            await artist.page.request.get(`/api/nft?creator=${creator}&tokenId=${tokenId}`)
          ).json()) as {
            data?: { nft: { status: string } };
          }
        ).data?.nft.status,
      { timeout: 30_000 },
    )
    .toBe("fix");
  await artist.context.close();

  // A collector opens Buy Now: the total is there before anything is signed.
  const buyer = await newWalletPage(browser, BUYER);
  await signIn(buyer.page);
  const { page } = buyer;
  await page.goto(`/${creator}/${tokenId}`);
  await page.getByRole("link", { name: "Buy Now" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Buy Now" })).toBeVisible();
  const total = page.getByRole("region", { name: "Your total" });
  await expect(total.getByText("Price")).toBeVisible();
  const feeRow = total
    .locator("div", { has: page.getByText("Network fee (estimate)", { exact: true }) })
    .last();
  // anvil estimates the real buyNow from the buyer, at its current fee.
  await expect(feeRow).toContainText(/\d\.\d{6} ETH|< 0\.000001 ETH/, { timeout: 30_000 });
  await expect(feeRow).not.toContainText("Network fee unavailable");
  const fee = (await feeRow.textContent())?.match(/(\d\.\d{6}) ETH/)?.[1] ?? "0.000000";
  const totalRow = total.locator("div", { has: page.getByText("Total", { exact: true }) }).last();
  const expectedTotal = formatEther(parseEther("0.1") + parseEther(fee));
  await expect(totalRow).toContainText(`${Number(expectedTotal).toFixed(6)} ETH`);
  // Nothing was asked of the wallet: no transaction was sent.
  const sent = buyer.wallet.calls.filter((call) => call.method === "eth_sendTransaction");
  expect(sent).toHaveLength(0);
  await buyer.context.close();
});
