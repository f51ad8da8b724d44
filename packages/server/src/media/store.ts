import { createReadStream, mkdirSync } from "node:fs";
import { FsBlockstore } from "blockstore-fs";
import { exporter } from "ipfs-unixfs-exporter";
import { importer } from "ipfs-unixfs-importer";
import { CID } from "multiformats/cid";
import type { Pinner } from "./pin.ts";

const RAW_CODEC = 0x55;
const DAG_PB_CODEC = 0x70;

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

  /**
   * The file's bytes by CID, or null when the store does not hold it as asked. Blocks are keyed by their
   * hash alone, so a CID of another version or codec over the same hash (`Qm…`, `bafyrei…`, or `bafybei…`
   * for a raw leaf) finds a block that is not what it names: only CIDv1 raw and dag-pb are ours, and a
   * block that does not decode as the CID's codec is not found either.
   */
  async read(cid: CID): Promise<{ size: number; content: AsyncIterable<Uint8Array> } | null> {
    if (cid.version !== 1 || (cid.code !== RAW_CODEC && cid.code !== DAG_PB_CODEC)) return null;
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
