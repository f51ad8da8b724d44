import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cidToHex } from "@easel/common";
import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { createPublicClient, http, parseAbi, parseEventLogs } from "viem";
import { E2E } from "../playwright.config.ts";
import { makePng, newWalletPage, RPC_URL, signIn } from "./accounts.ts";
import { accountAddress, send } from "./chain.ts";

/**
 * The item page proves the artwork before it shows it: the browser reads the token's tokenURI from the chain,
 * fetches the metadata and the artwork it names from the gateway as CARs, and checks every block against its
 * CID. Here the server is made to lie in the two ways it could: a stored block altered on disk, and an item
 * whose artwork (in Easel's database) is not the one the chain's metadata names.
 */

const ARTIST = 8;
const client = createPublicClient({ transport: http(RPC_URL) });
const marketAbi = parseAbi(["function setArtistVerified(address account, bool verified)"]);
const collectionAbi = parseAbi([
  "event Minted(uint256 indexed tokenId, address indexed creator, address indexed to, bytes cid, uint16 royaltyBps, (address account, uint8 share)[] collaborators)",
  "function mintNFT(uint16 royaltyBps, bytes cid, (address account, uint8 share)[] collaborators) returns (uint256)",
]);

type Config = { contracts: { market: `0x${string}`; defaultCollection: `0x${string}` } };

/** Uploads a PNG through the mint API, mints its metadata CID on chain, and waits for the item page's data. */
async function mintPng(page: Page, config: Config, name: string, color: string) {
  const categories = (await (await page.request.get("/api/category-web2")).json()) as {
    data: { category_web2: { _id: number; title: string }[] };
  };
  const painting = categories.data.category_web2.find((c) => c.title === "Painting")?._id ?? 0;
  const png = await makePng(page, 320, 240, color);
  // The indexer must first see the chain make the artist verified: until then the API answers 403 (storing nothing).
  const post = () =>
    page.request.post("/api/mint", {
      multipart: {
        category_web2_id: String(painting),
        collection: config.contracts.defaultCollection,
        name,
        royalty: "5",
        description: `${name}, to be proven.`,
        tags: JSON.stringify(["proof"]),
        file: { name: "art.png", mimeType: "image/png", buffer: png },
      },
    });
  let upload = await post();
  for (let tries = 0; upload.status() === 403 && tries < 40; tries++) {
    await page.waitForTimeout(250);
    upload = await post();
  }
  expect(upload.status(), await upload.text()).toBe(200);
  const uriCid = ((await upload.json()) as { data: { newNft: { uri_cid: string } } }).data.newNft.uri_cid;
  // Not viem's cached block number: each mint must find its own event.
  const fromBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
  await send(ARTIST, {
    address: config.contracts.defaultCollection,
    abi: collectionAbi,
    functionName: "mintNFT",
    args: [500, cidToHex(uriCid), []],
  });
  const logs = await client.getLogs({ address: config.contracts.defaultCollection, fromBlock });
  const minted = parseEventLogs({ abi: collectionAbi, logs, eventName: "Minted" }).at(-1);
  const tokenId = (minted as unknown as { args: { tokenId: bigint } }).args.tokenId;
  const path = `/${accountAddress(ARTIST)}/${tokenId}`;
  await expect
    .poll(
      async () =>
        (await page.request.get(`/api/nft?creator=${accountAddress(ARTIST)}&tokenId=${tokenId}`)).status(),
      {
        timeout: 30_000,
      },
    )
    .toBe(200);
  const metadata = (await (await page.request.get(`/ipfs/${uriCid}`)).json()) as { image: string };
  return { path, uriCid, artworkCid: metadata.image.replace("ipfs://", ""), png };
}

/** The file under the e2e blockstore holding a block, found by its bytes' hash (the CID's digest). */
function blockFile(bytes: Buffer): string {
  const digest = createHash("sha256").update(bytes).digest("hex");
  const dir = join(E2E.dataDir, "ipfs");
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => createHash("sha256").update(readFileSync(file)).digest("hex") === digest);
  if (files.length !== 1) throw new Error(`expected one block file, found ${files.length}`);
  return files[0] as string;
}

test("an untouched artwork shows as Verified; an altered block and metadata naming another artwork are refused, with the report flow", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const artist = await newWalletPage(browser, ARTIST);
  await signIn(artist.page);
  const config = (await (await artist.page.request.get("/api/config")).json()) as Config;
  await send(0, {
    address: config.contracts.market,
    abi: marketAbi,
    functionName: "setArtistVerified",
    args: [accountAddress(ARTIST), true],
  });
  const untouched = await mintPng(artist.page, config, "Proven Harbour", "#0f766e");
  const altered = await mintPng(artist.page, config, "Altered Harbour", "#b91c1c");
  const relabelled = await mintPng(artist.page, config, "Relabelled Harbour", "#7c3aed");

  // Untouched: the page shows the proven original and says what was checked, with the CIDs.
  const { page } = artist;
  await page.goto(untouched.path);
  await expect(page.getByText("Verified", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Every byte of this file matches the artwork CID/)).toBeVisible();
  await expect(page.getByRole("link", { name: /^Metadata / })).toHaveAttribute(
    "href",
    `/ipfs/${untouched.uriCid}`,
  );
  await expect(page.getByRole("link", { name: /^Artwork / })).toHaveAttribute(
    "href",
    `/ipfs/${untouched.artworkCid}`,
  );
  await expect(page.getByText(/^Mint transaction 0x/)).toBeVisible();
  const shown = page.getByRole("img", { name: "Proven Harbour" });
  await expect(shown).toHaveAttribute("src", /^blob:/);
  // The proven original (320 × 240), not the webp preview the page drew first.
  await expect
    .poll(() => shown.evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`))
    .toBe("320x240");

  // A stored block altered on disk: the gateway serves it, the page refuses it and offers the report flow.
  const file = blockFile(altered.png);
  const original = readFileSync(file);
  const changed = Buffer.from(original);
  changed[changed.length - 20] = (changed[changed.length - 20] ?? 0) ^ 0x55;
  writeFileSync(file, changed);
  try {
    // A fresh context: nothing of the item in the browser's cache.
    const viewer = await newWalletPage(browser, ARTIST);
    await signIn(viewer.page);
    await viewer.page.goto(altered.path);
    const alert = viewer.page.getByRole("alert").filter({ hasText: "does not match" });
    await expect(alert).toContainText("This file does not match the token, so it is not shown.", {
      timeout: 30_000,
    });
    await expect(alert).toContainText("A block of the file does not hash to its CID.");
    await expect(viewer.page.getByRole("img", { name: "Altered Harbour" })).toHaveCount(0);
    await alert.getByRole("button", { name: "Report this item" }).click();
    await expect(viewer.page.getByRole("dialog", { name: "Report an Issue" })).toBeVisible();
    await viewer.context.close();
  } finally {
    writeFileSync(file, original);
  }

  // The server's database names another artwork than the chain's metadata does: caught.
  const db = new pg.Client({ connectionString: `postgres://easel:easel@127.0.0.1:${E2E.dbPort}/easel` });
  await db.connect();
  try {
    const updated = await db.query("UPDATE item_metadata SET media_cid = $1 WHERE cid = $2", [
      untouched.artworkCid,
      relabelled.uriCid,
    ]);
    expect(updated.rowCount).toBe(1);
  } finally {
    await db.end();
  }
  await page.goto(relabelled.path);
  const caught = page.getByRole("alert").filter({ hasText: "does not match" });
  await expect(caught).toContainText(`names another artwork (${relabelled.artworkCid})`, { timeout: 30_000 });
  await expect(page.getByText("Verified", { exact: true })).toHaveCount(0);
});
