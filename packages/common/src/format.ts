/**
 * Shortens a wallet address to its first 4 and last 4 characters, as the spec shows them.
 * @example shortAddress("0x1234567890abcdef1234567890abcdef12345678") // "0x12…5678"
 */
export function shortAddress(address: string): string {
  if (address.length <= 8) return address;
  return `${address.slice(0, 4)}…${address.slice(-4)}`;
}

/** How a person reads on screen: their display name, else their username, else their short address. */
export function displayName(person: {
  name?: string | null;
  username?: string | null;
  address: string;
}): string {
  return person.name || person.username || shortAddress(person.address);
}

/** Addresses are stored and compared lowercase. */
export function normalizeAddress(address: string): `0x${string}` {
  return address.toLowerCase() as `0x${string}`;
}

export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}
