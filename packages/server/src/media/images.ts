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

/**
 * Checks that the bytes are a PNG, JPEG, GIF or WebP image that really decodes (the magic bytes
 * alone could front an HTML page), and makes a webp thumbnail of it.
 * @throws ImageError when the bytes are not such an image.
 */
export async function checkImage(bytes: Uint8Array): Promise<CheckedImage> {
  const mime = detectImageType(bytes);
  if (!mime) throw new ImageError("unsupported type");
  try {
    const options = { limitInputPixels: MAX_PIXELS, failOn: "error" as const };
    const metadata = await sharp(bytes, options).metadata();
    if (metadata.format !== SHARP_FORMATS[mime] || !metadata.width || !metadata.height) {
      throw new ImageError("content does not match its type");
    }
    const { width, height } = metadata;
    if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) throw new ImageError("a side is too long");
    if (Math.max(width, height) > MAX_ASPECT_RATIO * Math.min(width, height)) {
      throw new ImageError("extreme aspect ratio");
    }
    const { data, info } = await decodeSlot(() =>
      sharp(bytes, options)
        .timeout({ seconds: DECODE_TIMEOUT_S })
        .rotate()
        .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: "inside", withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer({ resolveWithObject: true }),
    );
    return {
      mime,
      width: metadata.autoOrient?.width ?? metadata.width,
      height: metadata.autoOrient?.height ?? metadata.height,
      thumbnail: { bytes: data, width: info.width, height: info.height },
    };
  } catch (error) {
    if (error instanceof ImageError) throw error;
    throw new ImageError(`the image does not decode: ${error instanceof Error ? error.message : error}`);
  }
}
