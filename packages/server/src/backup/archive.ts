/**
 * The backup file: a gzip-compressed tar (POSIX ustar), written and read as a stream, so `tar tzf FILE`
 * lists it and neither side holds more than one part in memory. Entries are regular files only; a name
 * is at most 255 bytes (ustar's prefix and name fields).
 */
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";

const BLOCK = 512;
const ZEROS = Buffer.alloc(BLOCK * 2);

/** Thrown for a file that is not an Easel backup or is damaged; its message is meant for the user. */
export class ArchiveError extends Error {
  override name = "ArchiveError";
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function header(name: string, size: number, mtime: number): Buffer {
  const bytes = Buffer.byteLength(name);
  let prefix = "";
  let base = name;
  if (bytes > 100) {
    // ustar splits a long name at a slash: up to 155 bytes of prefix, up to 100 of name.
    const cut = name.lastIndexOf("/", 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100)
      throw new Error(`name too long for the archive: ${name}`);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  const h = Buffer.alloc(BLOCK);
  h.write(base, 0, 100, "utf8");
  h.write(octal(0o644, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii");
  h.write(octal(0, 8), 116, "ascii");
  h.write(octal(size, 12), 124, "ascii");
  h.write(octal(Math.floor(mtime / 1000), 12), 136, "ascii");
  h.write("        ", 148, "ascii");
  h.write("0", 156, "ascii");
  h.write("ustar\0", 257, "ascii");
  h.write("00", 263, "ascii");
  h.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes a gzip-compressed tar to `path`, entry by entry, waiting whenever the disk falls behind. */
export class ArchiveWriter {
  readonly #gzip = createGzip();
  readonly #done: Promise<void>;
  readonly #time = Date.now();

  constructor(path: string) {
    this.#done = pipeline(this.#gzip, createWriteStream(path, { flags: "wx" }));
    // The error surfaces in write() or end(); this keeps it from being reported as unhandled meanwhile.
    this.#done.catch(() => {});
  }

  async #write(chunk: Buffer): Promise<void> {
    if (chunk.length > 0 && !this.#gzip.write(chunk)) await once(this.#gzip, "drain");
  }

  async add(name: string, data: Buffer): Promise<void> {
    await this.#write(header(name, data.length, this.#time));
    await this.#write(data);
    await this.#write(padding(data.length));
  }

  /** An entry whose `size` bytes come from `content` (a file being read); fails if it gives another amount. */
  async addStream(name: string, size: number, content: AsyncIterable<Buffer>): Promise<void> {
    await this.#write(header(name, size, this.#time));
    let written = 0;
    for await (const chunk of content) {
      written += chunk.length;
      if (written > size) break;
      await this.#write(chunk);
    }
    if (written !== size) throw new Error(`${name} changed size while it was read`);
    await this.#write(padding(size));
  }

  async end(): Promise<void> {
    await this.#write(ZEROS);
    this.#gzip.end();
    await this.#done;
  }

  /** Stops writing after a failure (the caller removes the file). */
  abort(): void {
    this.#gzip.destroy();
  }
}

/** One entry of an archive being read: its body must be read (or left) before the next entry comes. */
export type ArchiveEntry = { name: string; size: number; body(): AsyncGenerator<Buffer> };

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  readonly #chunks: AsyncIterator<Buffer>;
  #buffer: Buffer = Buffer.alloc(0);

  constructor(stream: Readable) {
    this.#chunks = stream[Symbol.asyncIterator]();
  }

  async #fill(): Promise<boolean> {
    const next = await this.#chunks.next().catch((error: unknown) => {
      throw damaged(error);
    });
    if (next.done) return false;
    this.#buffer = this.#buffer.length === 0 ? next.value : Buffer.concat([this.#buffer, next.value]);
    return true;
  }

  /** Exactly `n` bytes, or null at a clean end of the stream (no bytes left). */
  async exactly(n: number): Promise<Buffer | null> {
    while (this.#buffer.length < n) {
      if (!(await this.#fill())) {
        if (this.#buffer.length === 0) return null;
        throw new ArchiveError("the backup file is truncated");
      }
    }
    const out = this.#buffer.subarray(0, n);
    this.#buffer = this.#buffer.subarray(n);
    return out;
  }

  /** The next `n` bytes as they arrive. */
  async *take(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.#buffer.length === 0 && !(await this.#fill()))
        throw new ArchiveError("the backup file is truncated");
      const part = this.#buffer.subarray(0, Math.min(left, this.#buffer.length));
      this.#buffer = this.#buffer.subarray(part.length);
      left -= part.length;
      yield part;
    }
  }
}

function field(h: Buffer, start: number, length: number): string {
  const raw = h.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

/** The entries of the gzip-compressed tar at `path`, in order. */
export async function* readArchive(path: string): AsyncGenerator<ArchiveEntry> {
  const gunzip = createGunzip();
  const input = createReadStream(path);
  input.on("error", (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const reader = new ByteReader(gunzip);
  try {
    for (;;) {
      const h = await reader.exactly(BLOCK);
      if (!h) throw new ArchiveError("the backup file is truncated (no end of archive)");
      if (h.every((byte) => byte === 0)) return;
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] as number);
      if (Number.parseInt(field(h, 148, 8), 8) !== sum || field(h, 257, 6) !== "ustar")
        throw new ArchiveError("this is not an Easel backup (not a tar archive written by npm run backup)");
      const prefix = field(h, 345, 155);
      const name = prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100);
      const size = Number.parseInt(field(h, 124, 12), 8);
      let consumed = 0;
      const body = async function* () {
        for await (const chunk of reader.take(size - consumed)) {
          consumed += chunk.length;
          yield chunk;
        }
      };
      yield { name, size, body };
      // Whatever the consumer left unread, and the padding, is skipped.
      for await (const _ of body());
      await reader.exactly((BLOCK - (size % BLOCK)) % BLOCK);
    }
  } catch (error) {
    throw error instanceof ArchiveError ? error : damaged(error);
  } finally {
    input.destroy();
    gunzip.destroy();
  }
}

function damaged(error: unknown): ArchiveError {
  if (error instanceof ArchiveError) return error;
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") return new ArchiveError(`no such file: ${(error as { path?: string }).path}`);
  if (code?.startsWith("Z_")) return new ArchiveError("the backup file is damaged (not valid gzip data)");
  return new ArchiveError(`the backup file cannot be read: ${(error as Error).message}`);
}
