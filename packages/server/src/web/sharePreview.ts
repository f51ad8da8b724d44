/**
 * Share previews: the web app's HTML, answered for item, collection and profile URLs, carries OpenGraph and
 * Twitter card tags (title, description, image), so a link pasted in a chat app previews without running the
 * app's JavaScript.
 */
import { type RichText, richTextPlain } from "@easel/common";
import { sql } from "drizzle-orm";
import { itemDetail } from "../browse/item.ts";
import type { Database } from "../db/client.ts";
import type { Page } from "./pages.ts";

export type SharePreview = { title: string; description: string; image: string | null };

const DESCRIPTION_MAX = 200;
const ADDRESS = /^0x[0-9a-f]{40}$/;
const clip = (text: string) =>
  text.length > DESCRIPTION_MAX ? `${text.slice(0, DESCRIPTION_MAX - 1)}…` : text;

/** The preview of a page, or null when it is not an item, collection or profile Easel knows. */
export async function sharePreview(
  db: Database,
  page: Page | null,
  defaultCollection: string,
): Promise<SharePreview | null> {
  if (page?.page === "profile") return profilePreview(db, page.key);
  if (page?.page === "collection") return collectionPreview(db, page.name);
  if (page?.page !== "item") return null;
  const { creator, collection, tokenId } = page;
  const item = await itemDetail(
    db,
    { address: null, moderator: false },
    { creator, collection, tokenId },
    defaultCollection,
  );
  if (!item) return null;
  const { nft, nftCollection } = item;
  const image = nft.media?.preview ?? nft.media?.thumbnail ?? null;
  return {
    title: `${nft.name} · ${nftCollection.name}`,
    description: clip(nft.description || `${nft.name} on Easel`),
    image: image ? `/ipfs/${image}` : null,
  };
}

async function profilePreview(db: Database, key: string): Promise<SharePreview | null> {
  const lower = key.toLowerCase();
  const { rows } = await db.execute<{
    address: string;
    username: string | null;
    name: string | null;
    bio: string | null;
    avatar: string | null;
  }>(
    ADDRESS.test(lower)
      ? sql`SELECT address, username, name, bio, avatar FROM profiles WHERE address = ${lower} AND active`
      : sql`SELECT address, username, name, bio, avatar FROM profiles WHERE lower(username) = ${lower} AND active`,
  );
  const row = rows[0];
  if (!row) return null;
  const title = row.name || row.username || row.address;
  return {
    title: `${title} on Easel`,
    description: clip(row.bio || `${title}'s artworks on Easel`),
    image: row.avatar,
  };
}

async function collectionPreview(db: Database, key: string): Promise<SharePreview | null> {
  const lower = key.toLowerCase();
  const { rows } = await db.execute<{
    name: string;
    description: RichText | null;
    logo: string | null;
    banner: string | null;
  }>(sql`
    SELECT c.name, d.description, d.logo, d.banner FROM chain_collections c
    LEFT JOIN collection_details d ON d.address = c.address
    WHERE NOT c.blocked AND ${ADDRESS.test(lower) ? sql`c.address = ${lower}` : sql`lower(c.name) = ${lower}`}
    ORDER BY c.created_block, c.address LIMIT 1`);
  const row = rows[0];
  if (!row) return null;
  const text = richTextPlain(row.description).trim();
  return {
    title: `${row.name} · Easel`,
    description: clip(text || `The ${row.name} collection on Easel`),
    image: row.logo ?? row.banner,
  };
}

/** How long a preview is reused: a renamed item shows its new name within this time. */
export const PREVIEW_TTL_MS = 30_000;
const PREVIEW_CACHE_MAX = 5_000;

/**
 * Previews are public (read as nobody), so one answer serves every visitor of a page for `PREVIEW_TTL_MS`:
 * a flood of one item's page runs its detail queries once per window, not once per request. Unknown pages
 * (null) are kept too, so made-up paths cost one lookup each window; the map is bounded.
 */
export function cachedSharePreviews(db: Database, defaultCollection: string, ttlMs = PREVIEW_TTL_MS) {
  const cache = new Map<string, { preview: Promise<SharePreview | null>; ends: number }>();
  return (page: Page | null, now = Date.now()): Promise<SharePreview | null> => {
    if (page === null || page.page === "home" || page.page === "explore") return Promise.resolve(null);
    const key = JSON.stringify(page);
    const hit = cache.get(key);
    if (hit && hit.ends > now) return hit.preview;
    if (cache.size >= PREVIEW_CACHE_MAX) {
      for (const [k, entry] of cache) if (entry.ends <= now) cache.delete(k);
      // Still full: forget the oldest entries (a Map iterates in insertion order).
      for (const k of cache.keys()) {
        if (cache.size < PREVIEW_CACHE_MAX) break;
        cache.delete(k);
      }
    }
    const preview = sharePreview(db, page, defaultCollection);
    cache.set(key, { preview, ends: now + ttlMs });
    // A failed read is not kept: the next visitor tries again.
    preview.catch(() => cache.delete(key));
    return preview;
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/**
 * The app's HTML with the preview's tags (and title) in its head. Image paths become absolute URLs, on the
 * media origin when it has its own.
 */
export function withPreview(
  html: string,
  preview: SharePreview,
  pageUrl: string,
  origin: string,
  mediaBase = origin,
): string {
  const image = preview.image
    ? preview.image.startsWith("/ipfs/")
      ? `${mediaBase}${preview.image}`
      : new URL(preview.image, origin).href
    : null;
  const tags = [
    ["og:type", "website"],
    ["og:site_name", "Easel"],
    ["og:title", preview.title],
    ["og:description", preview.description],
    ["og:url", pageUrl],
    ...(image ? [["og:image", image]] : []),
  ]
    .map(
      ([property, content]) => `<meta property="${property}" content="${escapeHtml(content as string)}" />`,
    )
    .concat(
      [
        ["twitter:card", image ? "summary_large_image" : "summary"],
        ["twitter:title", preview.title],
        ["twitter:description", preview.description],
        ...(image ? [["twitter:image", image]] : []),
      ].map(([name, content]) => `<meta name="${name}" content="${escapeHtml(content as string)}" />`),
    )
    .join("\n    ");
  return html
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(preview.title)}</title>`)
    .replace("</head>", () => `    ${tags}\n  </head>`);
}
