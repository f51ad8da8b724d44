import { createReadStream, mkdirSync } from "node:fs";
import { access, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MINT_FILE_MAX_BYTES } from "@easel/common";
import * as dagPb from "@ipld/dag-pb";
import { FsBlockstore } from "blockstore-fs";
import { UnixFS } from "ipfs-unixfs";
import { exporter } from "ipfs-unixfs-exporter";
import { importer } from "ipfs-unixfs-importer";
import { base32upper } from "multiformats/bases/base32";
import { CID } from "multiformats/cid";
import type { Pinner } from "./pin.ts";

const RAW_CODEC = 0x55;
const DAG_PB_CODEC = 0x70;
const SHA2_256 = 0x12;

/** The largest file the store serves: the largest upload (an artwork; profile pictures and metadata are smaller). */
export const MAX_FILE_BYTES = MINT_FILE_MAX_BYTES;

/**
 * The dag-pb node bytes a walk may send beside the file's own bytes: 1 KiB and 1/256 of the file. The
 * importer's nodes cost about 50 bytes per 256 KiB leaf (9 KB for a 46 MB file).
 */
const nodeAllowance = (fileSize: number) => 1024 + Math.ceil(fileSize / 256);

/** A walk that would send more than its file and that file's nodes: the DAG is not what the root says. */
export class DagTooLargeError extends Error {
  override name = "DagTooLargeError";
}

/** A block as the trustless gateway sends it: its CID and its bytes. */
export type Block = { cid: CID; bytes: Uint8Array };

/** Which blocks of a file's DAG a CAR carries (the trustless gateway's `dag-scope` and `entity-bytes`). */
export type DagSelection = {
  /** `block`: the root block only; `entity` and `all` are the whole file (a file has nothing below it). */
  scope: "block" | "entity" | "all";
  /** Only the blocks needed for these bytes of the file, both ends inclusive (`entity-bytes`). */
  range?: { from: number; to: number } | null;
  /** Send a block every time the walk meets it (`dups=y`), or once (`dups=n`). */
  dups: boolean;
};

/**
 * Which blocks the importer wrote as dag-pb nodes: an empty file per node, `dag-pb/<shard>/<multihash>`
 * beside the blocks. The blockstore names a block by its multihash alone, so the same bytes are found under
 * any codec; any uploaded 256 KiB chunk can be made to decode as dag-pb (one of 5,956 links sent 1.56 GB as a
 * CAR). Only a recorded node is read as dag-pb. Backups copy the blocks, not these records: a restored or
 * older store has none, and its nodes are recorded again from the database (`recognizeRoots`).
 */
class NodeRecords {
  constructor(readonly dir: string) {}

  #path(cid: CID): { dir: string; file: string } {
    const name = base32upper.encode(cid.multihash.bytes);
    const dir = join(this.dir, name.slice(-2));
    return { dir, file: join(dir, name) };
  }

  async add(cid: CID): Promise<void> {
    const { dir, file } = this.#path(cid);
    await mkdir(dir, { recursive: true });
    await writeFile(file, "");
  }

  async has(cid: CID): Promise<boolean> {
    try {
      await access(this.#path(cid).file);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Writes each block once: a block already stored, or being written by another put, is not written again.
 * Files repeat blocks (a run of identical 256 KiB chunks, the same artwork uploaded twice), and the plain
 * store's atomic writes of one path at once wait on each other: 50 MB of one repeated block took 18 s.
 * Each dag-pb node the importer puts is recorded as one (after its bytes, so a record always has them).
 */
class OnceBlockstore extends FsBlockstore {
  readonly #writing = new Map<string, Promise<CID>>();

  constructor(
    dir: string,
    readonly nodes: NodeRecords,
  ) {
    super(dir);
  }

  override async put(
    key: CID,
    value: Uint8Array,
    options?: Parameters<FsBlockstore["put"]>[2],
  ): Promise<CID> {
    const id = key.toString();
    const pending = this.#writing.get(id);
    if (pending) return pending;
    const write = (async () => {
      if (!(await this.has(key))) await super.put(key, value, options);
      // The same bytes may be stored already as a raw leaf: the importer wrote them as a node now.
      if (key.code === DAG_PB_CODEC) await this.nodes.add(key);
      return key;
    })();
    this.#writing.set(id, write);
    try {
      return await write;
    } finally {
      this.#writing.delete(id);
    }
  }
}

/** A dag-pb node of a file as the walk reads it: its bytes, links and the file bytes it holds itself. */
type FileNode = { bytes: Uint8Array; links: dagPb.PBLink[]; blockSizes: bigint[]; dataLength: number };

/** Decodes a UnixFS file node; throws on anything else (a node whose Data is not UnixFS, a directory). */
function fileNode(bytes: Uint8Array): FileNode {
  const node = dagPb.decode(bytes);
  if (!node.Data) throw new Error("a dag-pb node without UnixFS data");
  const file = UnixFS.unmarshal(node.Data);
  if (file.type !== "file" && file.type !== "raw") throw new Error(`a UnixFS ${file.type}, not a file`);
  return { bytes, links: node.Links, blockSizes: file.blockSizes, dataLength: file.data?.length ?? 0 };
}

/** Ends a file's content with an error when it runs past the size its root gives. */
async function* upTo(content: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let left = size;
  for await (const chunk of content) {
    if (chunk.length > left) throw new DagTooLargeError("the file's blocks hold more than its root says");
    left -= chunk.length;
    yield chunk;
  }
}

/**
 * The media store: files are added as UnixFS DAGs (CIDv1, raw leaves — the same CID as
 * `ipfs add --cid-version 1 --raw-leaves`) into a filesystem blockstore, and read back by CID for
 * the `/ipfs/:cid` gateway route. In production the folder lives on a volume shared by the API
 * replicas, and a pinner (`IPFS_API_URL`) also pins every file to a real IPFS node.
 *
 * A dag-pb CID is served only for a node the importer wrote (see `NodeRecords`), and a walk never sends more
 * than its file's size and that file's nodes (`nodeAllowance`), so no request costs more than the file it names.
 */
export class MediaStore {
  readonly #blockstore: FsBlockstore;
  readonly #nodes: NodeRecords;
  #opened: Promise<void> | null = null;
  #isRoot: ((cid: string) => Promise<boolean>) | null = null;

  constructor(
    readonly dir: string,
    readonly pinner: Pinner | null = null,
  ) {
    this.#nodes = new NodeRecords(join(dir, "dag-pb"));
    this.#blockstore = new OnceBlockstore(dir, this.#nodes);
  }

  #open(): Promise<void> {
    this.#opened ??= (async () => {
      mkdirSync(this.dir, { recursive: true });
      await this.#blockstore.open();
    })().catch((error: unknown) => {
      // A folder that is away now (an unmounted volume) is tried again by the next request.
      this.#opened = null;
      throw error;
    });
    return this.#opened;
  }

  /**
   * Names the files the store added before nodes were recorded (an older store, or one restored from a
   * backup): `isRoot` says whether the database names a CID as an upload's file. Such a root, and the dag-pb
   * nodes its links name as dag-pb, are recorded as nodes the first time one is asked for. A root the
   * importer wrote is the only thing that says which of its blocks are nodes: a chunk's bytes never do.
   */
  recognizeRoots(isRoot: (cid: string) => Promise<boolean>): void {
    this.#isRoot = isRoot;
  }

  /**
   * Adds a file (bytes, or a file on disk read as a stream) and returns its CID (base32 `bafk...` for small
   * files, `bafy...` for larger DAGs). With a pinner, the file is pinned too, and a failed pin fails the add.
   */
  async add(file: Uint8Array | { path: string }): Promise<string> {
    await this.#open();
    const content = file instanceof Uint8Array ? file : createReadStream(file.path);
    let root: CID | undefined;
    for await (const entry of importer([{ content }], this.#blockstore, {
      cidVersion: 1,
      rawLeaves: true,
    })) {
      root = entry.cid;
    }
    if (!root) throw new Error("the importer produced no CID");
    const cid = root.toString();
    if (this.pinner) await this.pinner(file instanceof Uint8Array ? { bytes: file } : file, cid);
    return cid;
  }

  /** Parses a CID string, or null when it is not one. */
  static parseCid(value: string): CID | null {
    try {
      return CID.parse(value);
    } catch {
      return null;
    }
  }

  /** Whether a CID is one the store can hold: CIDv1, raw or dag-pb, over SHA-256. */
  static ours(cid: CID): boolean {
    return (
      cid.version === 1 &&
      (cid.code === RAW_CODEC || cid.code === DAG_PB_CODEC) &&
      cid.multihash.code === SHA2_256
    );
  }

  /**
   * Whether a CID of ours names a block as the importer wrote it: any stored block as raw bytes, a recorded
   * node as dag-pb. A node of an older store is recorded here from the database's word (`recognizeRoots`).
   */
  async #holds(cid: CID): Promise<boolean> {
    if (!MediaStore.ours(cid)) return false;
    await this.#open();
    // A raw CID names any stored block as bytes; whether there is one is found when it is read.
    if (cid.code === RAW_CODEC) return true;
    if (await this.#nodes.has(cid)) return true;
    if (!this.#isRoot || !(await this.#blockstore.has(cid))) return false;
    if (!(await this.#isRoot(cid.toString()))) return false;
    await this.#recordNodesBelow(cid);
    return true;
  }

  /** Records a root the database names, and every dag-pb node its links (and theirs) name, as nodes. */
  async #recordNodesBelow(root: CID): Promise<void> {
    const queue = [root];
    const seen = new Set<string>();
    // A 50 MB file has 3 nodes; the cap only keeps a damaged store from holding a request for long.
    while (queue.length > 0 && seen.size < 10_000) {
      const cid = queue.pop() as CID;
      if (seen.has(cid.toString())) continue;
      seen.add(cid.toString());
      const bytes = await this.#read(cid);
      if (!bytes) continue;
      let links: dagPb.PBLink[];
      try {
        links = dagPb.decode(bytes).Links;
      } catch {
        continue;
      }
      // A read-only volume keeps no record: the root is still served, found again from the database.
      await this.#nodes.add(cid).catch(() => {});
      for (const link of links) if (link.Hash.code === DAG_PB_CODEC) queue.push(link.Hash);
    }
  }

  /** A stored block's bytes by its hash, whatever the CID's codec, or null when there is none. */
  async #read(cid: CID, signal?: AbortSignal): Promise<Uint8Array | null> {
    if (!(await this.#blockstore.has(cid))) return null;
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.#blockstore.get(cid, { signal })) chunks.push(chunk);
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
  }

  /** One stored block by CID (the trustless gateway's `format=raw`), or null when the store does not hold it. */
  async block(cid: CID): Promise<Uint8Array | null> {
    if (!(await this.#holds(cid))) return null;
    const bytes = await this.#read(cid);
    if (!bytes) return null;
    if (cid.code === DAG_PB_CODEC) {
      try {
        dagPb.decode(bytes);
      } catch {
        return null;
      }
    }
    return bytes;
  }

  /**
   * The blocks of a file's DAG in depth-first order (the trustless gateway's `format=car`), starting with its
   * root. `fileSize` is the root's (see `fileSize`): the walk sends at most that many bytes of the file and
   * `nodeAllowance` of nodes, and ends with a `DagTooLargeError` past them. With `dups=n` a leaf already sent
   * is not read again, and a node is read once. A missing or undecodable block below the root, or the
   * `signal` (the client hung up), ends it with an error before the next block is read: the client sees the
   * CAR incomplete.
   */
  async *blocks(
    root: CID,
    selection: DagSelection,
    options: { fileSize: number; signal?: AbortSignal },
  ): AsyncGenerator<Block> {
    const { signal } = options;
    const sent = new Set<string>();
    const nodes = new Map<string, FileNode>();
    let fileBytesLeft = options.fileSize;
    let nodeBytesLeft = nodeAllowance(options.fileSize);
    const rootBytes = await this.block(root);
    if (!rootBytes) throw new Error(`block ${root} is missing from the media store`);
    const self = this;
    async function* walk(cid: CID, offset: number, depth: number): AsyncGenerator<Block> {
      // The importer's DAGs are a few levels deep (three at 50 MB); hashes make a cycle impossible.
      if (depth > 32) throw new DagTooLargeError(`the DAG of ${root} is deeper than any file's`);
      const id = cid.toString();
      const leaf = cid.code !== DAG_PB_CODEC;
      if (leaf && !selection.dups && sent.has(id)) return;
      signal?.throwIfAborted();
      let node = nodes.get(id);
      let bytes = cid.equals(root) ? rootBytes : node?.bytes;
      bytes ??= await self.#read(cid, signal);
      if (!bytes) throw new Error(`block ${cid} is missing from the media store`);
      if (!leaf && !node) {
        node = fileNode(bytes);
        nodes.set(id, node);
      }
      if (selection.dups || !sent.has(id)) {
        const fileBytes = node ? node.dataLength : bytes.length;
        const nodeBytes = bytes.length - fileBytes;
        if (fileBytes > fileBytesLeft || nodeBytes > nodeBytesLeft)
          throw new DagTooLargeError(`the DAG of ${root} holds more than its file and nodes`);
        fileBytesLeft -= fileBytes;
        nodeBytesLeft -= nodeBytes;
        sent.add(id);
        yield { cid, bytes };
      }
      if (!node || selection.scope === "block") return;
      let start = offset + node.dataLength;
      for (const [index, link] of node.links.entries()) {
        signal?.throwIfAborted();
        const size = Number(node.blockSizes[index] ?? 0n);
        const range = selection.range;
        if (!range || (start <= range.to && start + size - 1 >= range.from))
          yield* walk(link.Hash, start, depth + 1);
        start += size;
      }
    }
    yield* walk(root, 0, 0);
  }

  /**
   * A file's size in bytes from its root block (UnixFS `fileSize`, or a raw block's length), or null when the
   * store does not hold it as a file: no such block, a node that is not a UnixFS file, or one larger than any
   * upload.
   */
  async fileSize(root: CID): Promise<number | null> {
    const bytes = await this.block(root);
    if (!bytes) return null;
    if (root.code === RAW_CODEC) return bytes.length;
    try {
      const node = dagPb.decode(bytes);
      if (!node.Data) return null;
      const file = UnixFS.unmarshal(node.Data);
      if (file.type !== "file" && file.type !== "raw") return null;
      const size = Number(file.fileSize());
      return size <= MAX_FILE_BYTES ? size : null;
    } catch {
      return null;
    }
  }

  /**
   * The file's bytes by CID, or null when the store does not hold it as asked. Blocks are keyed by their
   * hash alone, so a CID of another version or codec over the same hash (`Qm…`, `bafyrei…`, or `bafybei…`
   * for a raw leaf) finds a block that is not what it names: only CIDv1 raw and dag-pb are ours, dag-pb only
   * for a node the importer wrote, and a block that does not decode as the CID's codec is not found either.
   * The content ends with an error past the size the root gives, or when `signal` aborts.
   */
  async read(
    cid: CID,
    signal?: AbortSignal,
  ): Promise<{ size: number; content: AsyncIterable<Uint8Array> } | null> {
    if (!(await this.#holds(cid))) return null;
    try {
      const entry = await exporter(cid, this.#blockstore, { signal });
      if (entry.type !== "file" && entry.type !== "raw") return null;
      const size = Number(entry.size);
      if (size > MAX_FILE_BYTES) return null;
      return { size, content: upTo(entry.content({ signal }), size) };
    } catch {
      return null;
    }
  }
}
