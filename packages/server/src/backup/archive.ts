/**
 * The backup file: a gzip-compressed tar (POSIX ustar), written and read as a stream, so `tar tzf FILE`
 * lists it and neither side holds more than one part in memory. Entries are regular files only; a name
 * is at most 255 bytes (ustar's prefix and name fields).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { once } from "node:events";
import { closeSync, createReadStream, createWriteStream, fchmodSync, openSync, rmSync } from "node:fs";
import { dirname } from "node:path";
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

/** The reason a write failed, in words (the error's own message names a system call, not the problem). */
function writeReason(path: string, error: unknown): string {
  const code = (error as { code?: string }).code;
  const reasons: Record<string, string> = {
    ENOSPC: "the disk is full (ENOSPC)",
    EDQUOT: "the disk quota is exceeded (EDQUOT)",
    ENOENT: `the folder ${dirname(path)} does not exist`,
    ENOTDIR: `${dirname(path)} is not a folder`,
    EACCES: `permission denied (EACCES)`,
    EPERM: `permission denied (EPERM)`,
    EROFS: "the file system is read-only (EROFS)",
    EIO: "an input/output error (EIO)",
    EEXIST: "the file already exists",
  };
  return (code && reasons[code]) ?? (error instanceof Error ? error.message : String(error));
}

/** A backup file that cannot be written (full disk, missing folder, no permission…); names the file and why. */
export class ArchiveWriteError extends Error {
  override name = "ArchiveWriteError";
  readonly code: string | undefined;
  constructor(path: string, cause: unknown) {
    super(`cannot write ${path}: ${writeReason(path, cause)}`, { cause });
    this.code = (cause as { code?: string }).code;
  }
}

/** The archive member holding the HMAC of every member before it (see ArchiveWriter's `secret`). */
export const SIGNATURE_ENTRY = "signature.json";
/** The most `signature.json` may hold when a restore checks it. */
const SIGNATURE_MAX_BYTES = 4096;
type Signature = { algorithm: "HMAC-SHA256"; covers: string; hmac: string };
const COVERS =
  "every entry before this one: its name, a NUL byte, its size in decimal, a NUL byte, its bytes";

/** Why an unsigned backup is refused when a backup secret is set (by readArchive and by the restore). */
export const UNSIGNED_REFUSED =
  "the backup is not signed, and a backup secret (BACKUP_SECRET) is set: only signed backups are " +
  "restored (it was taken without the secret, or its signature was removed)";

/** The HMAC-SHA256 of entries as they are written or read: name, size and bytes of each, unambiguously. */
class EntryMac {
  readonly #hmac;
  constructor(secret: string) {
    this.#hmac = createHmac("sha256", secret);
  }
  entry(name: string, size: number): void {
    this.#hmac.update(`${name}\0${size}\0`);
  }
  data(chunk: Buffer): void {
    this.#hmac.update(chunk);
  }
  digest(): Buffer {
    return this.#hmac.digest();
  }
}

/**
 * Writes a gzip-compressed tar to `path`, entry by entry, waiting whenever the disk falls behind. The file is
 * created (never overwritten) with mode 0600 whatever the umask: backups hold members' personal data. Every
 * wait races the output's failure, so a full disk or a failed write ends the backup with an
 * ArchiveWriteError instead of waiting for ever. With `secret`, `end` appends `signature.json`: an
 * HMAC-SHA256 keyed by it over every entry, which `readArchive` checks when given the same secret.
 */
export class ArchiveWriter {
  readonly #path: string;
  readonly #gzip = createGzip();
  readonly #done: Promise<void>;
  readonly #time = Date.now();
  readonly #mac: EntryMac | null;
  #failure: ArchiveWriteError | null = null;

  constructor(path: string, options: { secret?: string | null } = {}) {
    this.#path = path;
    this.#mac = options.secret ? new EntryMac(options.secret) : null;
    let fd: number;
    try {
      // O_EXCL: never another file (or a link planted) under this name. The mode passed to open is masked
      // by the umask, so it is set again on the descriptor: exactly 0600, before any byte is written.
      fd = openSync(path, "wx", 0o600);
    } catch (error) {
      throw new ArchiveWriteError(path, error);
    }
    try {
      fchmodSync(fd, 0o600);
    } catch (error) {
      closeSync(fd);
      rmSync(path, { force: true });
      throw new ArchiveWriteError(path, error);
    }
    this.#done = pipeline(this.#gzip, createWriteStream(path, { fd })).catch((error: unknown) => {
      this.#failure ??= new ArchiveWriteError(path, error);
      throw this.#failure;
    });
    // The error surfaces in the next write or in end(); this keeps it from being reported as unhandled meanwhile.
    this.#done.catch(() => {});
  }

  /** Resolves when `event` comes, rejects as soon as the output failed (a destroyed stream emits nothing more). */
  async #until(event: "drain"): Promise<void> {
    const stop = new AbortController();
    try {
      await Promise.race([once(this.#gzip, event, { signal: stop.signal }), this.#done]);
    } catch (error) {
      // The compressor may report the file's error itself, before the pipeline does.
      this.#failure ??= error instanceof ArchiveWriteError ? error : new ArchiveWriteError(this.#path, error);
    } finally {
      stop.abort();
    }
    if (this.#failure) throw this.#failure;
  }

  async #write(chunk: Buffer): Promise<void> {
    if (this.#failure) throw this.#failure;
    if (chunk.length > 0 && !this.#gzip.write(chunk)) await this.#until("drain");
  }

  async add(name: string, data: Buffer): Promise<void> {
    this.#mac?.entry(name, data.length);
    this.#mac?.data(data);
    await this.#entry(name, data);
  }

  /** Header, bytes and padding of one entry, outside the signature (`add` signs; `end` writes the signature). */
  async #entry(name: string, data: Buffer): Promise<void> {
    await this.#write(header(name, data.length, this.#time));
    await this.#write(data);
    await this.#write(padding(data.length));
  }

  /** An entry whose `size` bytes come from `content` (a file being read); fails if it gives another amount. */
  async addStream(name: string, size: number, content: AsyncIterable<Buffer>): Promise<void> {
    this.#mac?.entry(name, size);
    await this.#write(header(name, size, this.#time));
    let written = 0;
    for await (const chunk of content) {
      written += chunk.length;
      if (written > size) break;
      this.#mac?.data(chunk);
      await this.#write(chunk);
    }
    if (written !== size) throw new Error(`${name} changed size while it was read`);
    await this.#write(padding(size));
  }

  async end(): Promise<void> {
    if (this.#mac) {
      const signature: Signature = {
        algorithm: "HMAC-SHA256",
        covers: COVERS,
        hmac: this.#mac.digest().toString("hex"),
      };
      await this.#entry(SIGNATURE_ENTRY, Buffer.from(JSON.stringify(signature, null, 2)));
    }
    await this.#write(ZEROS);
    this.#gzip.end();
    await this.#done;
  }

  /** Stops writing after a failure and closes the file (the caller removes it). */
  async abort(): Promise<void> {
    this.#gzip.destroy();
    await this.#done.catch(() => {});
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

/**
 * The entries of the gzip-compressed tar at `path`, in order. With `secret`, the archive must end with a
 * `signature.json` whose HMAC matches every entry before it under that secret: it is checked when reached,
 * is not yielded, and a missing or wrong one (or an entry after it) throws an ArchiveError once the archive
 * is read. Without `secret`, `signature.json` is yielded like any entry (unchecked).
 */
export async function* readArchive(
  path: string,
  options: { secret?: string | null } = {},
): AsyncGenerator<ArchiveEntry> {
  const gunzip = createGunzip();
  const input = createReadStream(path);
  input.on("error", (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const reader = new ByteReader(gunzip);
  const mac = options.secret ? new EntryMac(options.secret) : null;
  let signed = false;
  try {
    for (;;) {
      const h = await reader.exactly(BLOCK);
      if (!h) throw new ArchiveError("the backup file is truncated (no end of archive)");
      if (h.every((byte) => byte === 0)) {
        if (mac && !signed) throw new ArchiveError(UNSIGNED_REFUSED);
        return;
      }
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (h[i] as number);
      if (Number.parseInt(field(h, 148, 8), 8) !== sum || field(h, 257, 6) !== "ustar")
        throw new ArchiveError("this is not an Easel backup (not a tar archive written by npm run backup)");
      const prefix = field(h, 345, 155);
      const name = prefix ? `${prefix}/${field(h, 0, 100)}` : field(h, 0, 100);
      const size = Number.parseInt(field(h, 124, 12), 8);
      if (!Number.isSafeInteger(size) || size < 0)
        throw new ArchiveError(`the backup file is damaged (the size of ${name} cannot be read)`);
      if (signed) throw new ArchiveError(`the backup has data after its signature (${name})`);
      if (mac && name === SIGNATURE_ENTRY) {
        // Read whole into memory, so never at whatever size a forged header claims: a signature is ~150 bytes.
        if (size > SIGNATURE_MAX_BYTES)
          throw new ArchiveError(
            `the backup's signature is not one (${size} bytes, at most ${SIGNATURE_MAX_BYTES})`,
          );
        const expected = mac.digest();
        let signature: Partial<Signature> = {};
        try {
          const chunks: Buffer[] = [];
          for await (const chunk of reader.take(size)) chunks.push(chunk);
          signature = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Partial<Signature>;
        } catch (error) {
          if (error instanceof ArchiveError) throw error;
        }
        const got = Buffer.from(typeof signature.hmac === "string" ? signature.hmac : "", "hex");
        if (
          signature.algorithm !== "HMAC-SHA256" ||
          got.length !== expected.length ||
          !timingSafeEqual(got, expected)
        )
          throw new ArchiveError(
            "the backup's signature does not match the backup secret (BACKUP_SECRET): the file was changed " +
              "after it was written, or signed with another secret",
          );
        signed = true;
        await reader.exactly((BLOCK - (size % BLOCK)) % BLOCK);
        continue;
      }
      mac?.entry(name, size);
      let consumed = 0;
      const body = async function* () {
        for await (const chunk of reader.take(size - consumed)) {
          consumed += chunk.length;
          mac?.data(chunk);
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
