/**
 * The media store in a backup: the filesystem blockstore's block files (`MEDIA_DIR/<shard>/<multihash>.data`).
 * Blocks are content-addressed and never change, so copying them after the database snapshot is
 * consistent: every block a snapshot's row names was written before the snapshot.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { base32upper } from "multiformats/bases/base32";
import * as Digest from "multiformats/hashes/digest";

/** A block file's path inside the store: two-character shard, base32 multihash, `.data`. */
export const BLOCK_PATH = /^([A-Z2-7]{2})\/([A-Z2-7]+)\.data$/;
const SHA2_256 = 0x12;

/** The store's block files (relative paths, sorted); temporary files of writes in progress are left out. */
export async function listBlocks(mediaDir: string): Promise<string[]> {
  if (!existsSync(mediaDir)) return [];
  const out: string[] = [];
  for (const shard of (await readdir(mediaDir, { withFileTypes: true })).filter((d) => d.isDirectory())) {
    for (const file of await readdir(join(mediaDir, shard.name), { withFileTypes: true })) {
      const path = `${shard.name}/${file.name}`;
      if (file.isFile() && BLOCK_PATH.test(path)) out.push(path);
    }
  }
  return out.sort();
}

/** Streams one block file with its size (read once it is open: blocks never change). */
export async function readBlock(mediaDir: string, path: string) {
  const handle = await open(join(mediaDir, path));
  const { size } = await handle.stat();
  return { size, content: createReadStream("", { fd: handle, autoClose: true }) as AsyncIterable<Buffer> };
}

/**
 * Writes a block from the archive into the store: the name must be a block's, and a sha2-256 block's bytes
 * must hash to its name (a damaged backup must not plant wrong bytes under a content address). Written to a
 * temporary file and renamed, so a block is never seen half written.
 */
export async function restoreBlock(
  mediaDir: string,
  path: string,
  content: AsyncIterable<Buffer>,
): Promise<void> {
  const match = BLOCK_PATH.exec(path);
  if (!match) throw new Error(`the backup holds a media file that is not a block: ${path}`);
  const digest = Digest.decode(base32upper.decode(match[2] as string));
  await mkdir(join(mediaDir, match[1] as string), { recursive: true });
  const final = join(mediaDir, path);
  const temp = `${final}.restoring`;
  const file = await open(temp, "w");
  const hash = createHash("sha256");
  try {
    for await (const chunk of content) {
      hash.update(chunk);
      await file.write(chunk);
    }
    await file.close();
    if (digest.code === SHA2_256 && !hash.digest().equals(Buffer.from(digest.digest)))
      throw new Error(`the backup is damaged: media block ${path} does not match its hash`);
    await rename(temp, final);
  } catch (error) {
    await file.close().catch(() => {});
    await rm(temp, { force: true });
    throw error;
  }
}
