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
