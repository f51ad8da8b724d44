import * as dagPb from "@ipld/dag-pb";
import { UnixFS } from "ipfs-unixfs";
import { CID } from "multiformats/cid";

/**
 * Checking a file against its CID in the browser, from a trustless gateway's CAR stream (CARv1, depth-first,
 * duplicates sent: `application/vnd.ipld.car; version=1; order=dfs; dups=y`). Every block is hashed and must be
 * the next block the walk from the root expects, so the file's bytes come out in order as they are proven, and
 * nothing but the CID is trusted: not the gateway, not the CAR's header.
 */

const RAW = 0x55;
const DAG_PB = 0x70;
const SHA2_256 = 0x12;

/** The bytes do not match the CID: the gateway (or its disk) answered something else. */
export class MismatchError extends Error {
  override name = "MismatchError";
}

export type Block = { cid: CID; bytes: Uint8Array };

const sha256 = async (bytes: Uint8Array) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));

/** An unsigned LEB128 varint at `offset`: [value, length], or null when the bytes end before it does. */
function readVarint(bytes: Uint8Array, offset: number): [number, number] | null {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = bytes[offset + i];
    if (byte === undefined) return null;
    value += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return [value, i + 1];
  }
  throw new MismatchError("The CAR stream is malformed.");
}

/**
 * The blocks of a CARv1 stream as they arrive; its header (roots) is skipped, as the spec tells clients. Chunks
 * are queued as they come and copied once into the frame they belong to, however small the network cuts them.
 */
export async function* carBlocks(stream: AsyncIterable<Uint8Array>): AsyncGenerator<Block> {
  const queue: Uint8Array[] = [];
  let available = 0;
  /** The first `n` queued bytes (fewer when fewer are queued), removed from the queue when `remove`. */
  const read = (n: number, remove: boolean) => {
    const out = new Uint8Array(Math.min(n, available));
    let filled = 0;
    let index = 0;
    while (filled < out.length) {
      const head = queue[index] as Uint8Array;
      const part = Math.min(head.length, out.length - filled);
      out.set(head.subarray(0, part), filled);
      filled += part;
      if (!remove) index++;
      else if (part === head.length) queue.shift();
      else queue[0] = head.subarray(part);
    }
    if (remove) available -= out.length;
    return out;
  };
  let pending: number | null = null;
  let headerRead = false;
  for await (const chunk of stream) {
    queue.push(chunk);
    available += chunk.length;
    for (;;) {
      if (pending === null) {
        const prefix = readVarint(read(9, false), 0);
        if (!prefix) break;
        read(prefix[1], true);
        pending = prefix[0];
        if (pending > 4 * 1024 * 1024) throw new MismatchError("The CAR stream holds an oversized block.");
      }
      if (available < pending) break;
      const frame = read(pending, true);
      pending = null;
      if (!headerRead) {
        headerRead = true;
        continue;
      }
      let block: Block;
      try {
        const [cid, bytes] = CID.decodeFirst(frame);
        block = { cid, bytes };
      } catch {
        throw new MismatchError("The CAR stream holds a block without a valid CID.");
      }
      yield block;
    }
  }
  // Cut short (a dropped connection, or a gateway missing a block): not proven either way.
  if (available || pending !== null) throw new Error("The gateway's answer ended in the middle of a block.");
}

/**
 * The file named by `root`, in order, from its blocks in depth-first order with duplicates: each block must be
 * the one the walk expects next, and hash to its CID. Throws MismatchError at the first block that does not.
 */
export async function* verifiedFile(root: CID, blocks: AsyncIterable<Block>): AsyncGenerator<Uint8Array> {
  const expected: CID[] = [root];
  for await (const block of blocks) {
    const want = expected.shift();
    if (!want) throw new MismatchError("The gateway sent blocks that are not part of the file.");
    if (!block.cid.equals(want))
      throw new MismatchError("The gateway sent a block the file does not link to.");
    if (want.multihash.code !== SHA2_256 || (want.code !== RAW && want.code !== DAG_PB))
      throw new MismatchError("The file's CID is not one this page can check.");
    const digest = await sha256(block.bytes);
    if (!equalBytes(digest, want.multihash.digest))
      throw new MismatchError("A block of the file does not hash to its CID.");
    if (want.code === RAW) {
      yield block.bytes;
      continue;
    }
    let node: dagPb.PBNode;
    let file: UnixFS;
    try {
      node = dagPb.decode(block.bytes);
      file = UnixFS.unmarshal(node.Data ?? new Uint8Array());
    } catch {
      throw new MismatchError("A block of the file is not a UnixFS file node.");
    }
    if (file.type !== "file" && file.type !== "raw") throw new MismatchError("The CID does not name a file.");
    if (file.data?.length) yield file.data;
    expected.unshift(...node.Links.map((link) => link.Hash));
  }
  if (expected.length) throw new Error("The gateway's answer ended before the whole file was sent.");
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `ipfs://{cid}` (or a bare CID) parsed, or null when it is not one. */
export function ipfsCid(uri: unknown): CID | null {
  if (typeof uri !== "string") return null;
  try {
    return CID.parse(uri.replace(/^ipfs:\/\//, "").split("/")[0] ?? "");
  } catch {
    return null;
  }
}
