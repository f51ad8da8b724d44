import { hexToBytes, keccak256 } from "viem";

/**
 * A block's `logsBloom` (Ethereum's 2048-bit filter of the addresses and topics its logs carry): an address
 * absent from it logged nothing in the block; one present may have (or share its bits with others).
 */

/** The three bits an address sets in a bloom, computed once per address (bit i of the filter counts from its last byte). */
const bitsOf = new Map<string, [number, number, number]>();

function bloomBits(address: string): [number, number, number] {
  let bits = bitsOf.get(address);
  if (!bits) {
    const h = hexToBytes(keccak256(address as `0x${string}`));
    const bit = (i: number) => (((h[i] as number) << 8) | (h[i + 1] as number)) & 2047;
    bits = [bit(0), bit(2), bit(4)];
    bitsOf.set(address, bits);
  }
  return bits;
}

export function bloomBytes(bloom: `0x${string}`): Uint8Array {
  return hexToBytes(bloom);
}

/** Whether the bloom may hold the address (lowercase, 0x-prefixed). */
export function inBloom(bloom: Uint8Array, address: string): boolean {
  if (bloom.length !== 256) return true;
  for (const b of bloomBits(address)) {
    if (((bloom[255 - (b >> 3)] as number) & (1 << (b & 7))) === 0) return false;
  }
  return true;
}
