/**
 * Building the orders of many at once: bulk listings (one signature over a tree of signed listings) and the
 * token roots of collection offers (trait offers). The contracts check what these build: `fillBulkSignedListing`
 * and `buyMany` a bulk listing's proof, `acceptCollectionOffer` a token's proof.
 */
import { concat, encodeAbiParameters, type Hex, hashStruct, keccak256, numberToHex } from "viem";
import { signedListingTypes } from "./constants.ts";

/** The deepest bulk listing tree (2^10 = 1,024 listings per signature). */
export const MAX_BULK_HEIGHT = 10;
/** The most purchases one `buyMany` makes. */
export const MAX_CART = 50;
/** The most tokens one collection offer buys. */
export const MAX_COLLECTION_OFFER_QUANTITY = 10_000;
/** An offer (on a token or a collection) expires at most this many seconds ahead. */
export const MAX_OFFER_DURATION_S = 100 * 24 * 60 * 60;

export type SignedListingMessage = {
  collection: `0x${string}`;
  tokenId: bigint;
  price: bigint;
  seller: `0x${string}`;
  transferCount: bigint;
  counter: bigint;
  expiresAt: bigint;
  maxFeeBps: number;
};

const ZERO_LISTING: SignedListingMessage = {
  collection: "0x0000000000000000000000000000000000000000",
  tokenId: 0n,
  price: 0n,
  seller: "0x0000000000000000000000000000000000000000",
  transferCount: 0n,
  counter: 0n,
  expiresAt: 0n,
  maxFeeBps: 0,
};

/** The EIP-712 types of a bulk listing of `height` levels: `BulkListing(SignedListing[2]...[2] tree)`. */
export const bulkListingTypes = (height: number) => {
  if (!Number.isInteger(height) || height < 1 || height > MAX_BULK_HEIGHT) {
    throw new Error(`a bulk listing tree has 1 to ${MAX_BULK_HEIGHT} levels`);
  }
  // The tree's type is only known at run time (one `[2]` per level): typed as a plain string.
  const tree: { name: string; type: string } = { name: "tree", type: `SignedListing${"[2]".repeat(height)}` };
  return { BulkListing: [tree], SignedListing: signedListingTypes.SignedListing };
};

/** The height of the smallest tree that holds `count` listings (at least one level). */
export const bulkListingHeight = (count: number) => {
  if (count < 1) throw new Error("a bulk listing holds at least one listing");
  const height = Math.max(1, Math.ceil(Math.log2(count)));
  if (height > MAX_BULK_HEIGHT)
    throw new Error(`a bulk listing holds at most ${2 ** MAX_BULK_HEIGHT} listings`);
  return height;
};

type Tree = SignedListingMessage | Tree[];

/**
 * Everything a seller signs and a buyer passes for a bulk listing of `orders` (in this order, padded with zero
 * listings, which no fill accepts): the typed data's `types` and `message` (sign with `primaryType:
 * "BulkListing"` in the market's domain), and for each order its leaf index and proof (the sibling hashes from
 * the leaf up), as `bulkSignedListingStatus(order, signature, index, proof)` and `buyMany` take them
 * (`fillBulkSignedListing` takes them packed with the signature: `packBulkSignature`).
 */
export function bulkListing(orders: readonly SignedListingMessage[]) {
  const height = bulkListingHeight(orders.length);
  const size = 2 ** height;
  const leaves = Array.from({ length: size }, (_, i) => orders[i] ?? ZERO_LISTING);
  let level: Hex[] = leaves.map((order) =>
    hashStruct({ types: signedListingTypes, primaryType: "SignedListing", data: order }),
  );
  const levels: Hex[][] = [level];
  while (level.length > 1) {
    const next: Hex[] = [];
    for (let i = 0; i < level.length; i += 2)
      next.push(keccak256(concat([level[i] as Hex, level[i + 1] as Hex])));
    level = next;
    levels.push(level);
  }
  const proofOf = (index: number): Hex[] =>
    levels.slice(0, height).map((nodes, depth) => nodes[(index >> depth) ^ 1] as Hex);
  // The typed data's nested `tree`: pairs of pairs, the leaf index's highest bit choosing the outermost half.
  const nest = (from: number, span: number): Tree =>
    span === 1
      ? (leaves[from] as SignedListingMessage)
      : [nest(from, span / 2), nest(from + span / 2, span / 2)];
  return {
    height,
    root: level[0] as Hex,
    types: bulkListingTypes(height),
    message: { tree: nest(0, size) },
    proofs: orders.map((order, index) => ({ order, index: BigInt(index), proof: proofOf(index) })),
  };
}

/**
 * `fillBulkSignedListing`'s `bulkSignature`: one byte for the tree's height (the proof's length), two bytes for
 * the leaf index, the proof's sibling hashes, then the seller's signature over the tree.
 */
export function packBulkSignature(signature: Hex, index: bigint, proof: readonly Hex[]): Hex {
  const height = proof.length;
  if (height < 1 || height > MAX_BULK_HEIGHT)
    throw new Error(`a bulk listing proof has 1 to ${MAX_BULK_HEIGHT} hashes`);
  if (index < 0n || index >= 1n << BigInt(height))
    throw new Error(`leaf ${index} is outside a tree of ${height} levels`);
  return concat([numberToHex(height, { size: 1 }), numberToHex(index, { size: 2 }), ...proof, signature]);
}

/** A token id's leaf in a collection offer's token root. */
export const tokenLeaf = (tokenId: bigint) =>
  keccak256(encodeAbiParameters([{ type: "uint256" }], [tokenId]));

const hashPair = (a: Hex, b: Hex) => keccak256(BigInt(a) < BigInt(b) ? concat([a, b]) : concat([b, a]));

/**
 * The token root of a collection offer on exactly `tokenIds` (a trait offer), and each id's proof for
 * `acceptCollectionOffer`: a Merkle tree of sorted pairs over `tokenLeaf(id)`, as Solady's `MerkleProofLib`
 * verifies it.
 */
export function tokenRoot(tokenIds: readonly bigint[]) {
  const ids = [...new Set(tokenIds)];
  if (ids.length === 0) throw new Error("a token root covers at least one token");
  let level = ids.map(tokenLeaf);
  const levels: Hex[][] = [level];
  while (level.length > 1) {
    const next: Hex[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Hex;
      const right = level[i + 1];
      // An odd node out rises to the next level as it is.
      next.push(right === undefined ? left : hashPair(left, right));
    }
    level = next;
    levels.push(level);
  }
  const proof = (tokenId: bigint): Hex[] => {
    let index = ids.indexOf(tokenId);
    if (index < 0) return [];
    const path: Hex[] = [];
    for (const nodes of levels.slice(0, -1)) {
      const sibling = nodes[index ^ 1];
      if (sibling !== undefined) path.push(sibling);
      index >>= 1;
    }
    return path;
  };
  return { root: level[0] as Hex, proof };
}
