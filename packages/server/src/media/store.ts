import { createReadStream, mkdirSync } from "node:fs";
import * as dagPb from "@ipld/dag-pb";
import { FsBlockstore } from "blockstore-fs";
import { UnixFS } from "ipfs-unixfs";
import { exporter } from "ipfs-unixfs-exporter";
import { importer } from "ipfs-unixfs-importer";
import { CID } from "multiformats/cid";
import type { Pinner } from "./pin.ts";

const RAW_CODEC = 0x55;
const DAG_PB_CODEC = 0x70;
const SHA2_256 = 0x12;

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
 * Writes each block once: a block already stored, or being written by another put, is not written again.
 * Files repeat blocks (a run of identical 256 KiB chunks, the same artwork uploaded twice), and the plain
 * store's atomic writes of one path at once wait on each other: 50 MB of one repeated block took 18 s.
 */
class OnceBlockstore extends FsBlockstore {
  readonly #writing = new Map<string, Promise<CID>>();

  override async put(
    key: CID,
    value: Uint8Array,
    options?: Parameters<FsBlockstore["put"]>[2],
  ): Promise<CID> {
    const id = key.toString();
    const pending = this.#writing.get(id);
    if (pending) return pending;
    const write = (async () => ((await this.has(key)) ? key : await super.put(key, value, options)))();
    this.#writing.set(id, write);
    try {
      return await write;
    } finally {
      this.#writing.delete(id);
    }
  }
}

/**
 * The media store: files are added as UnixFS DAGs (CIDv1, raw leaves — the same CID as
 * `ipfs add --cid-version 1 --raw-leaves`) into a filesystem blockstore, and read back by CID for
 * the `/ipfs/:cid` gateway route. In production the folder lives on a volume shared by the API
 * replicas, and a pinner (`IPFS_API_URL`) also pins every file to a real IPFS node.
 */
export class MediaStore {
  readonly #blockstore: FsBlockstore;
  #opened: Promise<void> | null = null;

  constructor(
    readonly dir: string,
    readonly pinner: Pinner | null = null,
  ) {
    this.#blockstore = new OnceBlockstore(dir);
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

  /** One stored block by CID (the trustless gateway's `format=raw`), or null when the store does not hold it. */
  async block(cid: CID): Promise<Uint8Array | null> {
    if (!MediaStore.ours(cid)) return null;
    await this.#open();
    if (!(await this.#blockstore.has(cid))) return null;
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.#blockstore.get(cid)) chunks.push(chunk);
    const bytes = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
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
   * root. A missing block below the root throws, which ends the CAR stream early: the client sees it incomplete.
   */
  async *blocks(root: CID, selection: DagSelection): AsyncGenerator<Block> {
    const sent = new Set<string>();
    const self = this;
    async function* walk(cid: CID, offset: number): AsyncGenerator<Block> {
      const bytes = await self.block(cid);
      if (!bytes) throw new Error(`block ${cid} is missing from the media store`);
      const id = cid.toString();
      if (selection.dups || !sent.has(id)) {
        sent.add(id);
        yield { cid, bytes };
      }
      if (selection.scope === "block" || cid.code !== DAG_PB_CODEC) return;
      const node = dagPb.decode(bytes);
      if (!node.Data) return;
      const file = UnixFS.unmarshal(node.Data);
      let start = offset + (file.data?.length ?? 0);
      for (const [index, link] of node.Links.entries()) {
        const size = Number(file.blockSizes[index] ?? 0n);
        const range = selection.range;
        if (!range || (start <= range.to && start + size - 1 >= range.from)) yield* walk(link.Hash, start);
        start += size;
      }
    }
    yield* walk(root, 0);
  }

  /** A file's size in bytes from its root block (UnixFS `fileSize`, or a raw block's length), or null. */
  async fileSize(root: CID): Promise<number | null> {
    const bytes = await this.block(root);
    if (!bytes) return null;
    if (root.code === RAW_CODEC) return bytes.length;
    const node = dagPb.decode(bytes);
    return node.Data ? Number(UnixFS.unmarshal(node.Data).fileSize()) : null;
  }

  /**
   * The file's bytes by CID, or null when the store does not hold it as asked. Blocks are keyed by their
   * hash alone, so a CID of another version or codec over the same hash (`Qm…`, `bafyrei…`, or `bafybei…`
   * for a raw leaf) finds a block that is not what it names: only CIDv1 raw and dag-pb are ours, and a
   * block that does not decode as the CID's codec is not found either.
   */
  async read(cid: CID): Promise<{ size: number; content: AsyncIterable<Uint8Array> } | null> {
    if (!MediaStore.ours(cid)) return null;
    await this.#open();
    if (!(await this.#blockstore.has(cid))) return null;
    try {
      const entry = await exporter(cid, this.#blockstore);
      if (entry.type !== "file" && entry.type !== "raw") return null;
      return { size: Number(entry.size), content: entry.content() };
    } catch {
      return null;
    }
  }
}
