import * as dagPb from "@ipld/dag-pb";
import { MemoryBlockstore } from "blockstore-core";
import { importer } from "ipfs-unixfs-importer";
import { varint } from "multiformats";
import type { CID } from "multiformats/cid";
import { describe, expect, it } from "vitest";
import { type Block, carBlocks, ipfsCid, MismatchError, verifiedFile } from "./car.ts";

/** A file added as `ipfs add --cid-version 1 --raw-leaves` does, and its blocks depth first with duplicates. */
async function dag(bytes: Uint8Array): Promise<{ root: CID; blocks: Block[] }> {
  const store = new MemoryBlockstore();
  let root: CID | undefined;
  for await (const entry of importer([{ content: bytes }], store, { cidVersion: 1, rawLeaves: true }))
    root = entry.cid;
  if (!root) throw new Error("no root");
  const get = async (cid: CID) => {
    const parts: Uint8Array[] = [];
    for await (const part of store.get(cid)) parts.push(part);
    return new Uint8Array(Buffer.concat(parts));
  };
  const blocks: Block[] = [];
  const walk = async (cid: CID): Promise<void> => {
    const block = await get(cid);
    blocks.push({ cid, bytes: block });
    if (cid.code === 0x70) for (const link of dagPb.decode(block).Links) await walk(link.Hash);
  };
  await walk(root);
  return { root, blocks };
}

/** A CARv1 stream of those blocks (its header's content is never read), cut into uneven chunks. */
async function* car(blocks: Block[], chunk = 1000): AsyncGenerator<Uint8Array> {
  const frame = (...parts: Uint8Array[]) => {
    const length = parts.reduce((sum, part) => sum + part.length, 0);
    return Buffer.concat([varint.encodeTo(length, new Uint8Array(varint.encodingLength(length))), ...parts]);
  };
  const bytes = new Uint8Array(
    Buffer.concat([frame(new Uint8Array([0xa2, 0x01])), ...blocks.map((b) => frame(b.cid.bytes, b.bytes))]),
  );
  for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
}

async function read(root: CID, stream: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of verifiedFile(root, carBlocks(stream))) parts.push(part);
  return new Uint8Array(Buffer.concat(parts));
}

const file = new Uint8Array(700_000).map((_, i) => (i * 7 + (i >> 12)) & 255);

describe("checking a file against its CID from a CAR", () => {
  it("gives back a multi-block file byte for byte, whatever the chunking of the stream", async () => {
    const { root, blocks } = await dag(file);
    expect(root.code).toBe(0x70);
    expect(blocks.length).toBeGreaterThan(2);
    for (const chunk of [7, 997, 1 << 20]) expect(await read(root, car(blocks, chunk))).toEqual(file);
  }, 30_000);

  it("refuses a block whose bytes were altered", async () => {
    const { root, blocks } = await dag(file);
    const leaf = blocks[2] as Block;
    const altered = leaf.bytes.slice();
    altered[100] = (altered[100] ?? 0) ^ 1;
    const tampered = blocks.map((b) => (b === leaf ? { cid: b.cid, bytes: altered } : b));
    await expect(read(root, car(tampered))).rejects.toThrow(
      new MismatchError("A block of the file does not hash to its CID."),
    );
  });

  it("refuses blocks out of order, a block the file does not link to, and blocks past the end", async () => {
    const { root, blocks } = await dag(file);
    const swapped = [blocks[0], blocks[2], blocks[1], ...blocks.slice(3)] as Block[];
    await expect(read(root, car(swapped))).rejects.toThrow(MismatchError);
    const other = await dag(new Uint8Array([1, 2, 3]));
    await expect(read(root, car([...blocks.slice(0, 2), ...(other.blocks as Block[])]))).rejects.toThrow(
      MismatchError,
    );
    await expect(read(root, car([...blocks, ...(other.blocks as Block[])]))).rejects.toThrow(MismatchError);
    // Another file's valid blocks under the root asked for.
    await expect(read(root, car(other.blocks))).rejects.toThrow(MismatchError);
  });

  it("says a stream cut short is incomplete, not a mismatch", async () => {
    const { root, blocks } = await dag(file);
    const short = read(root, car(blocks.slice(0, -1)));
    await expect(short).rejects.toThrow("ended before the whole file was sent");
    await expect(short).rejects.not.toBeInstanceOf(MismatchError);
    async function* cut() {
      for await (const chunk of car(blocks)) {
        yield chunk.subarray(0, 10);
        return;
      }
    }
    await expect(read(root, cut())).rejects.toThrow("ended in the middle of a block");
  });

  it("reads ipfs:// addresses and refuses what is not a CID", () => {
    expect(ipfsCid("ipfs://bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e")?.code).toBe(0x55);
    expect(ipfsCid("https://example.com/a.png")).toBeNull();
    expect(ipfsCid(42)).toBeNull();
  });
});
