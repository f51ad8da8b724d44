import { expect, type Page, test } from "@playwright/test";
import { makePng, newWalletPage, signIn } from "./accounts.ts";

/** The bounding box of the first element `selector` matches, once it is visible. */
async function boxOf(page: Page, selector: string) {
  const element = page.locator(selector).first();
  await expect(element).toBeVisible();
  return element.boundingBox();
}

test("a profile's page arrives with its banner drawn where the page draws it, and its data: nothing moves or is asked again", async ({
  browser,
}) => {
  // An artist with a banner.
  const { page, context } = await newWalletPage(browser, 9);
  await signIn(page);
  const upload = await page.request.post("/api/profile/media_uploader", {
    multipart: {
      file: { name: "banner.png", mimeType: "image/png", buffer: await makePng(page, 1200, 500, "#1f618d") },
    },
  });
  expect(upload.status()).toBe(200);
  const { data } = (await upload.json()) as { data: { path: string } };
  const saved = await page.request.put("/api/profile", {
    data: { username: "lena_first", banner: data.path },
  });
  expect(saved.status()).toBe(200);
  await context.close();

  // A visitor on a phone-sized screen, whose app code is held back until the frame has been seen.
  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const visit = await visitor.newPage();
  const reads: string[] = [];
  visit.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/"))
      reads.push(new URL(request.url()).pathname + new URL(request.url()).search);
  });
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await visit.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await visit.goto("/profile/lena_first", { waitUntil: "commit" });

  // Before any of the app's code has run: the header's frame and the banner, loaded.
  const banner = `main img[src="${data.path}"]`;
  const first = await boxOf(visit, banner);
  await expect(visit.getByRole("status", { name: "Loading" })).toBeVisible();
  expect(
    await visit
      .locator(banner)
      .first()
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
  ).toBe(true);

  // The app runs and draws the profile: the banner has not moved or changed size.
  release();
  await expect(visit.getByRole("heading", { level: 1, name: /lena_first/ })).toBeVisible();
  await expect(visit.getByTestId("banner")).toBeVisible();
  expect(await boxOf(visit, `[data-testid="banner"] img[src="${data.path}"]`)).toEqual(first);
  // Its data came with the page: the app did not ask for it.
  expect(reads.filter((read) => read.startsWith("/api/profile?"))).toEqual([]);
  await visitor.close();
});
