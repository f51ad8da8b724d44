/**
 * A landing page painted after one round trip. Left alone, it waits on a chain of requests: the HTML, the
 * app's code, the page's own code (loaded on demand), its first API read, then its picture; on a phone on a
 * slow network each link costs hundreds of milliseconds. The server knows the page from its path, so its
 * HTML carries:
 * - the page's code (from the build's Vite manifest): `modulepreload` links, fetched beside the app's, or, on
 *   a page with a lead, its names (`#easel-page-code`), which the app's entry preloads once the lead has
 *   painted (packages/web/src/main.tsx): fetched with the HTML, they shared the slow link with the lead;
 * - the answer of the page's first API read (`#easel-answers`, a JSON data block the app's `apiFetch` uses
 *   once, packages/web/src/api/firstAnswers.ts), and the chain's position it was read after
 *   (`#easel-chain-position`): the page's live stream reads again only if the chain has moved since
 *   (packages/web/src/api/live.ts);
 * - the page's lead in index.html's frame, where the page will draw it: the picture that paints largest (a
 *   banner, an artwork), preloaded at high priority, or the home page's hero: it shows before the app's code
 *   has run.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ITEM_SORT_LABELS,
  ITEM_SORTS,
  type ItemMedia,
  isPixelArt,
  itemPagePictureSet,
  mediaUrl,
  type NftCard,
} from "@easel/common";
import { formatEther } from "viem";
import type { Page } from "./pages.ts";

/** What `vite build` writes to `.vite/manifest.json`: each source module's file and static imports. */
export type ViteManifest = Record<
  string,
  { file: string; isEntry?: boolean; imports?: string[]; css?: string[] } | undefined
>;

/** The pages that get a first paint. */
export const PAGES = [
  "home",
  "explore",
  "collection",
  "profile",
  "item",
] as const satisfies readonly Page["page"][];

/** Each page's module, as the manifest names it (the router's `lazy` imports, packages/web/src/app/routes.tsx). */
const PAGE_MODULES: Record<Page["page"], string> = {
  home: "src/pages/Home.tsx",
  explore: "src/pages/ExploreNFTs.tsx",
  collection: "src/pages/Collection.tsx",
  profile: "src/pages/UserProfile.tsx",
  item: "src/pages/NftDetail.tsx",
};

/** The build's manifest, or null when it has none (a build without `build.manifest`). */
export function readManifest(webDist: string): ViteManifest | null {
  const file = join(webDist, ".vite", "manifest.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as ViteManifest) : null;
}

/**
 * The scripts and stylesheets of a page's code that the app does not already load: not the entry's (its
 * script, its imports, its styles inlined in index.html), nor anything index.html names.
 */
export function pageCode(
  manifest: ViteManifest,
  page: Page["page"],
  html: string,
): { scripts: string[]; styles: string[] } {
  const closure = (start: string[]) => {
    const keys = new Set<string>();
    const visit = (key: string) => {
      if (keys.has(key) || !manifest[key]) return;
      keys.add(key);
      for (const next of manifest[key].imports ?? []) visit(next);
    };
    for (const key of start) visit(key);
    return [...keys].map((key) => manifest[key] as { file: string; css?: string[] });
  };
  const files = (chunks: { file: string; css?: string[] }[]) => ({
    scripts: new Set(chunks.map((chunk) => chunk.file)),
    styles: new Set(chunks.flatMap((chunk) => chunk.css ?? [])),
  });
  const app = files(closure(Object.keys(manifest).filter((key) => manifest[key]?.isEntry)));
  const own = files(closure([PAGE_MODULES[page]]));
  const missing = (mine: Set<string>, loaded: Set<string>) =>
    [...mine]
      .filter((file) => !loaded.has(file))
      .map((file) => `/${file}`)
      .filter((href) => !html.includes(`"${href}"`));
  return { scripts: missing(own.scripts, app.scripts), styles: missing(own.styles, app.styles) };
}

/**
 * The page's first API read, exactly as the app asks for it, or null when the page's query (filters, a sort)
 * makes it another read.
 */
export function firstRead(page: Page, search: URLSearchParams): string | null {
  const query = (params: Record<string, string | undefined>) =>
    new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => !!entry[1]));
  switch (page.page) {
    case "home":
      return "/api/home";
    case "explore":
      return search.size ? null : "/api/explore?sort=recentlyCreated";
    case "collection":
      return search.size ? null : `/api/collection?${query({ name: page.name, sort: "none" })}`;
    case "profile":
      return `/api/profile?userkey=${encodeURIComponent(page.key)}`;
    case "item":
      return `/api/nft?${query({ creator: page.creator, collection: page.collection, tokenId: page.tokenId })}`;
  }
}

/**
 * The page's lead, with the markup that draws it where the page will: the home page's hero (its text is the
 * app's own, not read), and, read from the page's first answer, the marketplace's first card, a profile's or
 * collection's banner, an item's artwork. Null without an answer (or a marketplace without a card picture).
 */
export function pageLead(page: Page, answer: unknown, mediaBase = ""): Lead | null {
  if (page.page === "home") return { picture: null, html: HOME_HERO };
  const data = (answer as { data?: Record<string, unknown> } | null)?.data;
  if (!data) return null;
  if (page.page === "profile" || page.page === "collection") {
    const owner = (page.page === "profile" ? data.user : data.collection) as
      | { banner?: string | null }
      | undefined;
    const picture = mediaUrl(owner?.banner, mediaBase);
    return { picture, html: bannerHtml(picture) };
  }
  if (page.page === "explore") {
    const first = (data.nfts as NftCard[] | undefined)?.[0];
    const picture = mediaUrl(first?.image_cid, mediaBase);
    return first && picture ? { picture, html: marketplaceHtml(first, picture) } : null;
  }
  if (page.page === "item") {
    const nft = data.nft as { name: string; media: ItemMedia | null } | undefined;
    if (!nft?.media) return null;
    const picture = itemPagePictureSet(nft.media, mediaBase);
    return {
      picture: picture.src,
      ...(picture.srcSet ? { srcSet: picture.srcSet, sizes: picture.sizes } : {}),
      html: artworkHtml(picture, nft.name, nft.media),
    };
  }
  return null;
}

// The markup below draws what the app's components draw first, at the same place and size: Home's hero,
// the marketplace's first card (ExploreNFTs with CardGrid and NftCard), ProfileBanner (profile and collection
// pages) and ItemPage with ItemMedia (items). The app's router keeps it on screen
// until the page replaces it (app/AppShell.tsx), and e2e/first-paint.spec.ts checks that nothing moves then.

/** packages/web/src/ui/Button.tsx's buttonClass: every button's, and a secondary one's. */
const BUTTON =
  "inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed";
const SECONDARY =
  "border border-neutral-300 bg-white text-neutral-900 hover:bg-neutral-100 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100 dark:hover:bg-neutral-800";
/** packages/web/src/pages/Home.tsx's hero, as React renders it (e2e/first-paint.spec.ts compares them). */
const HOME_HERO = `<div class="mx-auto w-full max-w-7xl px-4"><section class="py-16 sm:py-24"><h1 class="max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">Digital art, collected on Ethereum.</h1><p class="mt-5 max-w-2xl text-lg text-neutral-600 dark:text-neutral-400">Easel is a marketplace for artists, collectors and artist foundations. You keep your art and your funds in your own wallet; the seller sets the price.</p><div class="mt-8 flex flex-wrap gap-3"><a class="${BUTTON} bg-accent-600 text-white hover:bg-accent-700 disabled:bg-accent-600/60 dark:bg-accent-500 dark:hover:bg-accent-400 dark:text-neutral-950 px-6 py-3 text-base" href="/ExploreNFTs">Browse The Market</a><a href="#how-to-get-started" class="${BUTTON} ${SECONDARY} px-6 py-3 text-base">How to Get Started</a></div></section></div>`;

/**
 * The marketplace's heading, sort and filters button, and its first card (its largest paint) as NftCard draws
 * it: picture, name, collection and price; the creator, the favourites and the rest come with the app.
 */
function marketplaceHtml(nft: NftCard, picture: string): string {
  const who = nft.creator ?? nft.owner;
  const path =
    nft.collection.kind === "default"
      ? `/${who}/${nft.tokenId}`
      : `/${who}/${encodeURIComponent(nft.collection.name ?? nft.collection.address)}/${nft.tokenId}`;
  const sorts = ITEM_SORTS.filter((sort) => sort !== "none")
    .map(
      (sort) =>
        `<option value="${sort}"${sort === "recentlyCreated" ? " selected" : ""}>${ITEM_SORT_LABELS[sort]}</option>`,
    )
    .join("");
  // NftCard's price line: 'Price' while on sale, else the best offer, else the last price.
  const onSale = (nft.status === "fix" || nft.status === "auction") && nft.priceWei;
  const price = onSale
    ? ["Price", nft.priceWei]
    : nft.offerWei
      ? ["Offer", nft.offerWei]
      : nft.lastPriceWei
        ? ["Last Price", nft.lastPriceWei]
        : null;
  const priceLine = price?.[1]
    ? `<p class="tabular-nums"><span class="text-neutral-600 dark:text-neutral-400">${price[0]} </span><span class="font-semibold">${formatEther(BigInt(price[1]))} ETH</span></p>`
    : `<p class="text-neutral-600 dark:text-neutral-400">Not for sale</p>`;
  const pixels = isPixelArt(nft.category) ? ' style="image-rendering: pixelated"' : "";
  const card = `<article class="relative flex flex-col overflow-hidden rounded-2xl border border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-950"><a href="${attribute(path)}" class="block"><img src="${attribute(picture)}" alt="${attribute(nft.name)}" loading="eager" fetchpriority="high"${pixels} class="aspect-square w-full bg-neutral-100 object-cover dark:bg-neutral-900"></a><div class="flex flex-1 flex-col gap-2 p-4"><h3 class="font-semibold"><a href="${attribute(path)}" class="hover:underline">${attribute(nft.name)}</a></h3>${nft.collection.name ? `<p class="text-sm text-neutral-600 dark:text-neutral-400">${attribute(nft.collection.name)}</p>` : ""}<div class="mt-auto flex flex-wrap items-baseline justify-between gap-2 pt-2 text-sm">${priceLine}</div></div></article>`;
  return `<div class="mx-auto w-full max-w-7xl px-4 py-10"><div class="flex flex-wrap items-end justify-between gap-4"><h1 class="text-3xl font-bold tracking-tight">Marketplace</h1><div class="flex items-center gap-2"><label for="first-sort" class="text-sm font-medium">Sort by</label><select id="first-sort" class="rounded-lg border border-neutral-300 bg-white px-3 py-2 text-sm dark:border-neutral-700 dark:bg-neutral-950">${sorts}</select></div></div><div class="mt-8 grid gap-8 lg:grid-cols-[16rem_1fr]"><div><button type="button" class="${BUTTON} ${SECONDARY}"><svg viewBox="0 0 24 24" class="size-4" aria-hidden="true"><path d="M4 6h16M7 12h10M10 18h4" stroke="currentColor" stroke-width="2" stroke-linecap="round"></path></svg>Filters</button></div><section aria-label="Items"><div class="grid *:min-w-0 sm:grid-cols-2 sm:gap-6 xl:grid-cols-3 grid-cols-2 gap-3">${card}</div></section></div></div>`;
}

function bannerHtml(picture: string | null): string {
  const img = picture
    ? `<img src="${attribute(picture)}" alt="" fetchpriority="high" class="size-full object-cover">`
    : "";
  return `<div class="w-full"><div class="aspect-[12/5] max-h-80 w-full overflow-hidden bg-gradient-to-br from-neutral-200 via-accent-100 to-neutral-300 dark:from-neutral-800 dark:via-accent-500/20 dark:to-neutral-900">${img}</div></div>`;
}

function artworkHtml(
  picture: { src: string; srcSet?: string; sizes?: string },
  name: string,
  media: ItemMedia,
): string {
  const video = media.mime.startsWith("video/");
  const sized = !video && media.mime !== "application/pdf" && media.width && media.height;
  const set = picture.srcSet
    ? ` srcset="${attribute(picture.srcSet)}" sizes="${attribute(picture.sizes ?? "")}"`
    : "";
  const img = video
    ? // The app's player as it first draws (ItemMedia.tsx): the poster and the Play mark, no source or controls.
      `<div class="relative"><video poster="${attribute(picture.src)}" playsinline preload="none" class="aspect-square max-h-[70vh] w-full bg-black object-contain"></video><span class="group absolute inset-0 flex items-center justify-center" aria-hidden="true"><span class="flex size-16 items-center justify-center rounded-full bg-black/60 text-white group-hover:bg-black/75 group-focus-visible:ring-4 group-focus-visible:ring-white"><svg viewBox="0 0 24 24" class="ml-1 size-8" fill="currentColor" aria-hidden="true"><path d="M7 4.5v15l13-7.5z"></path></svg></span></span></div>`
    : `<img src="${attribute(picture.src)}"${set} alt="${attribute(name)}"${sized ? ` width="${media.width}" height="${media.height}" style="aspect-ratio: ${media.width} / ${media.height}"` : ""} fetchpriority="high" class="max-h-[70vh] w-full object-contain">`;
  return `<article class="mx-auto flex w-full max-w-6xl flex-col gap-10 px-4 py-8"><div class="grid gap-8 lg:grid-cols-2"><figure class="flex flex-col gap-2"><div class="overflow-hidden rounded-2xl bg-neutral-100 dark:bg-neutral-900">${img}</div></figure></div></article>`;
}

/** The page's lead: its picture (preloaded as drawn: one `src`, or a `srcset` the browser picks from) and markup. */
export type Lead = { picture: string | null; srcSet?: string; sizes?: string; html: string };

export type FirstPaint = {
  scripts: string[];
  styles: string[];
  /** API path → its JSON body. */
  answers: Record<string, unknown>;
  /** The chain's position the answers were read after (indexer/live.ts), or null when unknown. */
  position?: string | null;
  lead: Lead | null;
};

/** Where index.html's frame takes the page's lead picture. */
export const LEAD_MARK = "<!--page-lead-->";

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The lead picture's preload, for the same copy the page's `srcset` will pick. */
function pictureLink(lead: Lead): string {
  const set = lead.srcSet
    ? ` imagesrcset="${attribute(lead.srcSet)}" imagesizes="${attribute(lead.sizes ?? "")}"`
    : "";
  return `<link rel="preload" as="image" href="${attribute(lead.picture ?? "")}"${set} fetchpriority="high">`;
}

/** The page's HTML with its first paint's tags at the end of its head. */
export function withFirstPaint(html: string, paint: FirstPaint): string {
  // A page with a lead names its code for the entry to fetch once the lead has painted (main.tsx).
  const later = paint.lead !== null && paint.scripts.length > 0;
  // Fetches first, before the inlined stylesheet, where the browser's preload scanner meets them at once.
  const fetches = [
    ...(paint.lead?.picture ? [pictureLink(paint.lead)] : []),
    ...paint.styles.map((href) => `<link rel="stylesheet" crossorigin href="${attribute(href)}">`),
    ...(later
      ? []
      : paint.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${attribute(href)}">`)),
  ].join("");
  // A data block is never run; `<` is escaped so no answer can close the element.
  const block = (id: string, value: unknown) =>
    `<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, "\\u003c")}</script>`;
  const answered = Object.keys(paint.answers).length > 0;
  const answers =
    (answered ? block("easel-answers", paint.answers) : "") +
    (answered && paint.position ? block("easel-chain-position", paint.position) : "") +
    (later ? block("easel-page-code", paint.scripts) : "");
  let page = html;
  if (fetches) page = page.replace(/<meta charset="[^"]*"\s*\/?>/i, (charset) => `${charset}${fetches}`);
  if (answers) page = page.replace("</head>", () => `${answers}</head>`);
  // index.html's frame marks where the page's lead goes.
  return paint.lead ? page.replace(LEAD_MARK, () => paint.lead?.html ?? "") : page;
}
