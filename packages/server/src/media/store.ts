import { mkdirSync } from "node:fs";
import { FsBlockstore } from "blockstore-fs";
import { exporter } from "ipfs-unixfs-exporter";
import { importer } from "ipfs-unixfs-importer";
import { CID } from "multiformats/cid";

const RAW_CODEC = 0x55;
const DAG_PB_CODEC = 0x70;

/**
 * The media store: files are added as UnixFS DAGs (CIDv1, raw leaves — the same CID as
 * `ipfs add --cid-version 1 --raw-leaves`) into a filesystem blockstore, and read back by CID for
 * the `/ipfs/:cid` gateway route. In production the folder lives on a volume shared by the API
 * replicas; pinning to a remote IPFS node is a later addition.
 */
export class MediaStore {
  readonly #blockstore: FsBlockstore;
  #opened: Promise<void> | null = null;

  constructor(readonly dir: string) {
    this.#blockstore = new FsBlockstore(dir);
  }

  #open(): Promise<void> {
    this.#opened ??= (async () => {
      mkdirSync(this.dir, { recursive: true });
      await this.#blockstore.open();
    })();
    return this.#opened;
  }

  /** Adds a file and returns its CID (base32 `bafk...` for small files, `bafy...` for larger DAGs). */
  async add(bytes: Uint8Array): Promise<string> {
    await this.#open();
    let root: CID | undefined;
    for await (const entry of importer([{ content: bytes }], this.#blockstore, {
      cidVersion: 1,
      rawLeaves: true,
    })) {
      root = entry.cid;
    }
    if (!root) throw new Error("the importer produced no CID");
    return root.toString();
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
