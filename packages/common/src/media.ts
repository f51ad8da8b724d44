import type { ItemMedia } from "./items.ts";

/** URL of a media reference from the API: absolute URLs and paths as given, bare CIDs through Easel's gateway. */
export function mediaUrl(ref: string | null | undefined): string | null {
  if (!ref) return null;
  if (/^(https?:|data:|blob:|\/)/.test(ref)) return ref;
  return `/ipfs/${ref}`;
}

/**
 * The picture an item's page shows first: an image's webp preview (else the original), a video's poster or a
 * PDF's placeholder (else the original). The page draws it, and the server preloads it with the page.
 */
export function itemPagePicture(media: ItemMedia): string {
  const original = mediaUrl(media.cid) as string;
  const still = media.mime.startsWith("video/") || media.mime === "application/pdf";
  return mediaUrl(still ? (media.preview ?? media.thumbnail) : media.preview) ?? original;
}

/** The artwork type whose pictures are drawn pixel for pixel (`image-rendering: pixelated`), never smoothed. */
export const PIXEL_ART_TYPE = "Pixel Art";

/** Whether an item of this type (its category's title) shows its pixels crisp. */
export const isPixelArt = (category: string | null | undefined) =>
  category?.trim().toLowerCase() === PIXEL_ART_TYPE.toLowerCase();
