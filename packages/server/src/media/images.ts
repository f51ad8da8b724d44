import sharp from "sharp";
import { detectImageType, type ImageMime } from "./detect.ts";

/** Thumbnails fit in this square (webp), for cards and avatars in lists. */
export const THUMBNAIL_SIZE = 400;
/** Refuse decompression bombs: a 10 MB file may not expand past this many pixels. */
const MAX_PIXELS = 50_000_000;

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
    const { data, info } = await sharp(bytes, options)
      .rotate()
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
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
