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

/** How wide the item page draws its artwork (ItemPage's two columns from `lg`, within `max-w-6xl px-4`). */
export const ITEM_PICTURE_SIZES = "(min-width: 1024px) 544px, calc(100vw - 2rem)";

/**
 * The item page's picture as the page and the server draw it: `src` (itemPagePicture) and, where the preview
 * was made in several sizes, a `srcSet` the browser picks from (a phone takes the phone's copy, about a third
 * of the bytes). A video's poster has no `srcset`: it is the phone's copy where there is one, a still shown
 * until the video plays.
 */
export function itemPagePictureSet(
  media: ItemMedia,
  base = defaultMediaBase,
): { src: string; srcSet?: string; sizes?: string } {
  const stills = media.stills ?? [];
  if (media.mime.startsWith("video/"))
    return { src: mediaUrl(stills[0]?.cid, base) ?? itemPagePicture(media, base) };
  if (stills.length < 2) return { src: itemPagePicture(media, base) };
  return {
    src: itemPagePicture(media, base),
    srcSet: stills.map((still) => `${mediaUrl(still.cid, base)} ${still.width}w`).join(", "),
    sizes: ITEM_PICTURE_SIZES,
  };
}

/** The artwork type whose pictures are drawn pixel for pixel (`image-rendering: pixelated`), never smoothed. */
export const PIXEL_ART_TYPE = "Pixel Art";

/** Whether an item of this type (its category's title) shows its pixels crisp. */
export const isPixelArt = (category: string | null | undefined) =>
  category?.trim().toLowerCase() === PIXEL_ART_TYPE.toLowerCase();
