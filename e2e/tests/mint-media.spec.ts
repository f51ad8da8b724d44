import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page, test } from "@playwright/test";
import { parseAbi } from "viem";
import { drawLoop, drawSketchbook } from "../../packages/server/src/demo/media.ts";
import { newWalletPage, signIn } from "./accounts.ts";
import { accountAddress, send } from "./chain.ts";

const marketAbi = parseAbi(["function setArtistVerified(address account, bool verified)"]);
const ARTIST = 5;

/** axe-core (the engine of Lighthouse's accessibility audit), from the workspace's Lighthouse. */
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** The WCAG 2.1 A and AA rules the page breaks, as "rule: elements". */
async function accessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a script tag: the app's Content-Security-Policy refuses inline scripts.
  await page.evaluate(readFileSync(AXE, "utf8"));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResult> } }).axe;
    type AxeResult = { violations: { id: string; nodes: { target: string[] }[] }[] };
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/** The RGB at the centre of an image on the page, read back through a canvas once it has loaded. */
const centreColour = (page: Page, selector: string) =>
  page.locator(selector).evaluate(async (element) => {
    const img = element as HTMLImageElement;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext("2d") as CanvasRenderingContext2D;
    context.drawImage(img, 0, 0);
    const [r, g, b] = context.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
    return [r, g, b];
  });

test("an artist picks a video by keyboard and a PDF by drop: each shows at once, the video mints with its frame as the card's poster", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const artist = accountAddress(ARTIST);
  const { page } = await newWalletPage(browser, ARTIST);
  await signIn(page);
  const market = await page.evaluate(
    async () =>
      ((await (await fetch("/api/config")).json()) as { contracts: { market: `0x${string}` } }).contracts
        .market,
  );
  await send(0, { address: market, abi: marketAbi, functionName: "setArtistVerified", args: [artist, true] });

  await page.goto("/mint");
  // Submitted empty: each field says what is missing, and the page still passes the WCAG audit.
  await page.getByRole("button", { name: "Create NFT" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "need your attention" })).toBeVisible();
  expect(await accessibilityViolations(page)).toEqual([]);
  await page.getByLabel("Type", { exact: true }).selectOption({ label: "Painting" });
  const collection = page.getByLabel("Collection", { exact: true });
  const shared = collection.locator("option", { hasText: "(shared)" });
  await expect(shared).toHaveCount(1);
  await collection.selectOption((await shared.getAttribute("value")) as string);

  // A PDF dropped on the zone shows its first page, drawn by pdf.js in the browser.
  const pdf = drawSketchbook(7, "Field Notes");
  const drop = await page.evaluateHandle(
    (bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], "notes.pdf", { type: "application/pdf" }));
      return transfer;
    },
    [...pdf],
  );
  await page.getByTestId("dropzone").dispatchEvent("drop", { dataTransfer: drop });
  const firstPage = page.getByRole("img", { name: "First page of the PDF" });
  await expect(firstPage).toBeVisible({ timeout: 30_000 });
  // The sketchbook's paper (#faf7f0 in PDF's own colour operators), not a grey tile.
  const paper = await centreColour(page, 'img[alt="First page of the PDF"]');
  expect(paper[0]).toBeGreaterThan(240);

  // The keyboard reaches the zone's picker; Enter opens the file chooser.
  const video = await drawLoop(3);
  await page.getByLabel("Upload file").focus();
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.keyboard.press("Enter")]);
  await chooser.setFiles({ name: "loop.webm", mimeType: "video/webm", buffer: video });
  await expect(page.getByLabel("Video preview")).toBeVisible();
  await page.getByLabel("Name").fill("Night Loop");

  // The card preview shows the frame the browser drew, as collectors will see it.
  const card = page.getByTestId("card-preview");
  const poster = card.getByRole("img", { name: "Night Loop" });
  await expect(poster).toHaveAttribute("src", /^blob:/, { timeout: 30_000 });

  expect(await accessibilityViolations(page)).toEqual([]);
  await page.getByLabel("Description").fill("Lights drifting over a dark ground.");
  await page.getByLabel(/I own the rights/).check();
  await page.getByLabel(/I agree/).check();
  await page.getByRole("button", { name: "Create NFT" }).click();
  const mint = page.getByRole("dialog", { name: "Mint your NFT" });
  await expect(mint.getByText("Your NFT has been Minted!")).toBeVisible({ timeout: 60_000 });
  await mint.getByRole("link", { name: "View your NFT" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Night Loop" })).toBeVisible();
  // The page's video shows the poster until it plays: it loads nothing, and has no controls, until Play.
  const player = page.locator("video[poster]");
  await expect(player).toHaveAttribute("poster", /^\/ipfs\//);
  expect(await player.getAttribute("src")).toBeNull();
  await page.getByRole("button", { name: "Play Night Loop" }).click();
  await expect(player).toHaveAttribute("controls", "");
  await expect
    .poll(() => player.evaluate((video) => (video as HTMLVideoElement).currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0);

  // On the artist's profile, the card shows the frame (the loop's dark ground and lights), not the grey
  // "Video" tile.
  await page.goto(`/profile/${artist}`);
  const cardImage = page.getByRole("img", { name: "Night Loop" }).first();
  await expect(cardImage).toHaveAttribute("src", /^\/ipfs\//, { timeout: 30_000 });
  const [r, g, b] = await cardImage.evaluate(async (element) => {
    const img = element as HTMLImageElement;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const context = canvas.getContext("2d") as CanvasRenderingContext2D;
    context.drawImage(img, 0, 0);
    return [...context.getImageData(4, 4, 1, 1).data];
  });
  // The tile is #f4f4f5 to its corners.
  const fromTile =
    Math.abs((r as number) - 244) + Math.abs((g as number) - 244) + Math.abs((b as number) - 245);
  expect(fromTile).toBeGreaterThan(40);
});
