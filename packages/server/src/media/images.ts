import sharp from "sharp";
import { detectImageType, type ImageMime } from "./detect.ts";

/** Thumbnails fit in this square (webp), for cards and avatars in lists. */
export const THUMBNAIL_SIZE = 400;
/** Refuse decompression bombs: a 10 MB file may not expand past this many pixels. */
const MAX_PIXELS = 50_000_000;
/**
 * Nor may a side pass 16,384 px or the long side be more than 20 times the short one: a 1 x 49,000,000
 * PNG of 95 KB is under the pixel cap yet took a decoder thread 19 s. Checked from the header, before
 * any decoding.
 */
export const MAX_IMAGE_SIDE = 16_384;
export const MAX_ASPECT_RATIO = 20;
/** A decode that runs longer than this is abandoned. */
const DECODE_TIMEOUT_S = 5;
/**
 * Images decode one or two at a time: decoding shares libuv's small thread pool with file reads, so an
 * unbounded number of decodes would starve `/ipfs/` reads behind them.
 */
const MAX_CONCURRENT_DECODES = 2;
let running = 0;
const waiting: (() => void)[] = [];
async function decodeSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_DECODES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export type CheckedImage = {
  mime: ImageMime;
  width: number;
  height: number;
  thumbnail: { bytes: Buffer; width: number; height: number };
};

export class ImageError extends Error {
  override name = "ImageError";
}

const SHARP_FORMATS: Record<ImageMime, string> = {
  "image/png": "png",
  "image/jpeg": "jpeg",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** The item page shows artworks this big (webp, long side); cards use the thumbnail. */
export const PREVIEW_SIZE = 1200;
/**
 * And this big on a phone (webp, long side), where the artwork is drawn about 380 px wide: 665 device pixels
 * at Lighthouse's mid-tier phone's 1.75, which Chrome's choice among a `srcset`'s sizes fills with this copy.
 * The preview is three or four times its bytes: on a slow phone link, the wait for the page's picture.
 */
export const PHONE_PREVIEW_SIZE = 640;

type Webp = { bytes: Buffer; width: number; height: number };

/**
 * Checks that the bytes (or the file at a path) are a PNG, JPEG, GIF or WebP image that really decodes (the
 * magic bytes alone could front an HTML page), and makes webp copies that fit in each of `sizes`. A
 * truncated image fails to decode and is refused.
 */
async function decodeImage(input: Uint8Array | string, mime: ImageMime, sizes: number[]) {
  try {
    const options = { limitInputPixels: MAX_PIXELS, failOn: "error" as const };
    const metadata = await sharp(input, options).metadata();
    if (metadata.format !== SHARP_FORMATS[mime] || !metadata.width || !metadata.height) {
      throw new ImageError("content does not match its type");
    }
    const { width, height } = metadata;
    if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) throw new ImageError("a side is too long");
    if (Math.max(width, height) > MAX_ASPECT_RATIO * Math.min(width, height)) {
      throw new ImageError("extreme aspect ratio");
    }
    // The upright size (a camera's EXIF orientation may turn the picture a quarter).
    const upright = {
      width: metadata.autoOrient?.width ?? width,
      height: metadata.autoOrient?.height ?? height,
    };
    const copies: Webp[] = [];
    for (const size of sizes) {
      // A source smaller than the copy (pixel art, an icon) is enlarged by a whole factor with nearest-neighbour
      // and kept lossless, so each source pixel becomes an exact block of its colour rather than a blur.
      const factor = Math.floor(size / Math.max(upright.width, upright.height));
      const { data, info } = await decodeSlot(() => {
        const image = sharp(input, options).timeout({ seconds: DECODE_TIMEOUT_S }).rotate();
        const resized =
          factor >= 2
            ? image.resize({
                width: upright.width * factor,
                height: upright.height * factor,
                kernel: "nearest",
              })
            : image.resize({ width: size, height: size, fit: "inside", withoutEnlargement: true });
        return resized
          .webp(factor >= 2 ? { lossless: true } : { quality: 80 })
          .toBuffer({ resolveWithObject: true });
      });
      copies.push({ bytes: data, width: info.width, height: info.height });
    }
    return { mime, ...upright, copies };
  } catch (error) {
    if (error instanceof ImageError) throw error;
    throw new ImageError(`the image does not decode: ${error instanceof Error ? error.message : error}`);
  }
}

/**
 * Checks that the bytes are a PNG, JPEG, GIF or WebP image that really decodes, and makes a webp thumbnail.
 * @throws ImageError when the bytes are not such an image.
 */
export async function checkImage(bytes: Uint8Array): Promise<CheckedImage> {
  const mime = detectImageType(bytes);
  if (!mime) throw new ImageError("unsupported type");
  const { width, height, copies } = await decodeImage(bytes, mime, [THUMBNAIL_SIZE]);
  return { mime, width, height, thumbnail: copies[0] as Webp };
}

/**
 * An artwork image on disk: checks it decodes and makes its card thumbnail and page previews (a phone's and
 * the full one), reading the file from disk (never whole into memory here).
 * @throws ImageError when the file is not such an image.
 */
export async function checkArtworkImage(path: string, mime: ImageMime) {
  const { width, height, copies } = await decodeImage(path, mime, [
    THUMBNAIL_SIZE,
    PHONE_PREVIEW_SIZE,
    PREVIEW_SIZE,
  ]);
  const [thumbnail, phone, preview] = copies as [Webp, Webp, Webp];
  // A picture no larger than a phone's copy has one preview, not two encodings of the same pixels.
  const same = phone.width === preview.width && phone.height === preview.height;
  return { width, height, thumbnail, phonePreview: same ? preview : phone, preview };
}

/**
 * A clean placeholder for artworks whose first frame or page the server cannot draw (video, pdf): the
 * type's name on a neutral square, as a webp thumbnail.
 */
export async function placeholderImage(label: string): Promise<Webp> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${THUMBNAIL_SIZE}" height="${THUMBNAIL_SIZE}">
    <rect width="100%" height="100%" fill="#f4f4f5"/>
    <text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" font-family="sans-serif"
      font-size="44" font-weight="600" fill="#71717a">${label}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .webp({ quality: 90 })
    .toBuffer({ resolveWithObject: true });
  return { bytes: data, width: info.width, height: info.height };
}
