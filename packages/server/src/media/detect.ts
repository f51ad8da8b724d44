/** Image types the media uploader accepts, recognised by their first bytes ("magic numbers"). */
export const IMAGE_TYPES = {
  png: "image/png",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
} as const;
export type ImageMime = (typeof IMAGE_TYPES)[keyof typeof IMAGE_TYPES];

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/**
 * The image type of a file from its bytes, or null. The file name and the type the browser claims
 * are never consulted: an HTML page named `.png` or any SVG (which can carry scripts) gives null.
 */
export function detectImageType(bytes: Uint8Array): ImageMime | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return IMAGE_TYPES.png;
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return IMAGE_TYPES.jpeg;
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return IMAGE_TYPES.gif;
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return IMAGE_TYPES.webp;
  return null;
}

/** Artwork types the mint page accepts beyond images. */
export const ARTWORK_TYPES = {
  ...IMAGE_TYPES,
  mp4: "video/mp4",
  webm: "video/webm",
  pdf: "application/pdf",
} as const;
export type ArtworkMime = (typeof ARTWORK_TYPES)[keyof typeof ARTWORK_TYPES];

/** ISO base media brands of MP4 video (QuickTime's `qt  ` and audio-only `M4A ` are not among them). */
const MP4_BRANDS = new Set([
  "isom",
  "iso2",
  "iso4",
  "iso5",
  "iso6",
  "mp41",
  "mp42",
  "avc1",
  "dash",
  "mmp4",
  "MSNV",
]);

/**
 * The artwork type of a file from its first bytes (at least 64), or null: an image as `detectImageType`,
 * an MP4 (an `ftyp` box with a video brand), a WebM (EBML whose doc type is "webm") or a PDF (`%PDF-`).
 */
export function detectArtworkType(bytes: Uint8Array): ArtworkMime | null {
  const image = detectImageType(bytes);
  if (image) return image;
  if (startsWith(bytes, ascii("ftyp"), 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    return MP4_BRANDS.has(brand) ? ARTWORK_TYPES.mp4 : null;
  }
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) {
    // The EBML header's DocType element (0x42 0x82, a one-byte size, then the text) names the format.
    const head = Buffer.from(bytes.subarray(0, 64));
    const at = head.indexOf(Buffer.from([0x42, 0x82]));
    if (at >= 0 && head.subarray(at + 3, at + 7).toString("latin1") === "webm") return ARTWORK_TYPES.webm;
    return null;
  }
  if (startsWith(bytes, ascii("%PDF-"))) return ARTWORK_TYPES.pdf;
  return null;
}
