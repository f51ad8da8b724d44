import type { ItemMedia } from "./items.ts";

/**
 * Where the gateway's `/ipfs/…` is served: "" for the site's own origin, or the media origin (MEDIA_PUBLIC_URL,
 * a separate cookieless origin, so a file that carries script runs nowhere near the site's cookies). The web
 * app sets it once from the public config, before its first render; the server passes its own.
 */
let defaultMediaBase = "";

export function setMediaBase(base: string | null | undefined): void {
  defaultMediaBase = (base ?? "").replace(/\/+$/, "");
}

/**
 * URL of a media reference from the API: absolute URLs and other paths as given, bare CIDs and gateway paths
 * (`/ipfs/…`) on the media origin.
 */
export function mediaUrl(ref: string | null | undefined, base = defaultMediaBase): string | null {
  if (!ref) return null;
  if (ref.startsWith("/ipfs/")) return `${base}${ref}`;
  if (/^(https?:|data:|blob:|\/)/.test(ref)) return ref;
  return `${base}/ipfs/${ref}`;
}

/**
 * The picture an item's page shows first: an image's webp preview (else the original), a video's poster or a
 * PDF's placeholder (else the original). The page draws it, and the server preloads it with the page.
 */
export function itemPagePicture(media: ItemMedia, base = defaultMediaBase): string {
  const original = mediaUrl(media.cid, base) as string;
  const still = media.mime.startsWith("video/") || media.mime === "application/pdf";
  return mediaUrl(still ? (media.preview ?? media.thumbnail) : media.preview, base) ?? original;
}

/** The artwork type whose pictures are drawn pixel for pixel (`image-rendering: pixelated`), never smoothed. */
export const PIXEL_ART_TYPE = "Pixel Art";

/** Whether an item of this type (its category's title) shows its pixels crisp. */
export const isPixelArt = (category: string | null | undefined) =>
  category?.trim().toLowerCase() === PIXEL_ART_TYPE.toLowerCase();
