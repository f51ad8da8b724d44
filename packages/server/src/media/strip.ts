/**
 * Removes camera and location metadata (EXIF with its GPS block, XMP, IPTC, text comments) from an image
 * file without re-encoding it: the pixels stay byte for byte what the artist uploaded. Works file to file,
 * reading only the structure's small headers into memory and copying the image data as a stream.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { type FileHandle, mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { ImageMime } from "./detect.ts";

/** A piece of the output: bytes of the input file (start inclusive, end exclusive) or new bytes. */
type Piece = { start: number; end: number } | Buffer;

export class StripError extends Error {
  override name = "StripError";
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead < length) throw new StripError("the file ends inside a header");
  return buffer;
}

/**
 * JPEG: drops APP1 (EXIF, XMP), APP13 (IPTC) and COM segments before the scan; keeps the rest (APP0 JFIF,
 * APP2 colour profile, tables, frame) and everything from the start of scan on.
 */
async function jpegPieces(file: FileHandle, size: number): Promise<Piece[]> {
  const pieces: Piece[] = [{ start: 0, end: 2 }];
  let at = 2;
  while (at < size) {
    const head = await readAt(file, at, 2);
    if (head[0] !== 0xff) throw new StripError("not a JPEG segment");
    const marker = head[1] as number;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xda || marker === 0xd9) {
      pieces.push({ start: at, end: size });
      return pieces;
    }
    const length = (await readAt(file, at + 2, 2)).readUInt16BE(0);
    const end = at + 2 + length;
    if (length < 2 || end > size) throw new StripError("a JPEG segment runs past the end");
    const drop = marker === 0xe1 || marker === 0xed || marker === 0xfe;
    if (!drop) pieces.push({ start: at, end });
    at = end;
  }
  throw new StripError("no image data");
}

/** PNG chunks that carry metadata rather than the image. */
const PNG_METADATA = new Set(["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]);

async function pngPieces(file: FileHandle, size: number): Promise<Piece[]> {
  const pieces: Piece[] = [{ start: 0, end: 8 }];
  let at = 8;
  while (at < size) {
    const head = await readAt(file, at, 8);
    const length = head.readUInt32BE(0);
    const type = head.subarray(4, 8).toString("latin1");
    const end = at + 12 + length;
    if (end > size) throw new StripError("a PNG chunk runs past the end");
    if (!PNG_METADATA.has(type)) pieces.push({ start: at, end });
    at = end;
    if (type === "IEND") return pieces;
  }
  throw new StripError("no IEND chunk");
}

/** WebP: drops the EXIF and XMP chunks and clears their flags in VP8X; the RIFF size is rewritten. */
async function webpPieces(file: FileHandle, size: number): Promise<Piece[]> {
  const kept: Piece[] = [];
  let keptBytes = 0;
  let at = 12;
  while (at < size) {
    const head = await readAt(file, at, 8);
    const type = head.subarray(0, 4).toString("latin1");
    const length = head.readUInt32LE(4);
    const end = at + 8 + length + (length % 2);
    if (end > size) throw new StripError("a WebP chunk runs past the end");
    if (type === "VP8X") {
      const chunk = await readAt(file, at, end - at);
      chunk[8] = (chunk[8] as number) & ~0x0c; // EXIF (0x08) and XMP (0x04) flags
      kept.push(chunk);
      keptBytes += chunk.length;
    } else if (type !== "EXIF" && type !== "XMP ") {
      kept.push({ start: at, end });
      keptBytes += end - at;
    }
    at = end;
  }
  const header = await readAt(file, 0, 12);
  header.writeUInt32LE(4 + keptBytes, 4);
  return [header, ...kept];
}

/**
 * Writes `input` without its metadata to `output`. GIFs carry no camera metadata and are copied as they are.
 * @throws StripError when the file's structure is broken (a truncated or disguised file).
 */
export async function stripImageMetadata(input: string, output: string, mime: ImageMime): Promise<void> {
  const file = await open(input, "r");
  let pieces: Piece[];
  try {
    const { size } = await file.stat();
    if (mime === "image/jpeg") pieces = await jpegPieces(file, size);
    else if (mime === "image/png") pieces = await pngPieces(file, size);
    else if (mime === "image/webp") pieces = await webpPieces(file, size);
    else pieces = [{ start: 0, end: size }];
  } finally {
    await file.close();
  }
  const out = createWriteStream(output);
  await pipeline(async function* () {
    for (const piece of pieces) {
      if (Buffer.isBuffer(piece)) yield piece;
      else if (piece.end > piece.start)
        yield* createReadStream(input, { start: piece.start, end: piece.end - 1 });
    }
  }, out);
}

/** `stripImageMetadata` for an image held in memory (profile pictures, at most a few megabytes). */
export async function stripImageBytes(bytes: Uint8Array, mime: ImageMime): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), "easel-strip-"));
  try {
    await writeFile(join(dir, "in"), bytes);
    await stripImageMetadata(join(dir, "in"), join(dir, "out"), mime);
    return await readFile(join(dir, "out"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
