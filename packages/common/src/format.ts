/**
 * Shortens a wallet address to its first 4 and last 4 characters, as the spec shows them.
 * @example shortAddress("0x1234567890abcdef1234567890abcdef12345678") // "0x12…5678"
 */
export function shortAddress(address: string): string {
  if (address.length <= 8) return address;
  return `${address.slice(0, 4)}…${address.slice(-4)}`;
}

/**
 * How a person reads on screen, everywhere Easel names one: their profile's display name, else its
 * username, else their ENS name, else their short address.
 * @example displayName({ address: "0x1234567890abcdef1234567890abcdef12345678", ens: "ada.eth" }) // "ada.eth"
 */
export function displayName(person: {
  name?: string | null;
  username?: string | null;
  ens?: string | null;
  address: string;
}): string {
  return person.name || person.username || person.ens || shortAddress(person.address);
}

/** Addresses are stored and compared lowercase. */
export function normalizeAddress(address: string): `0x${string}` {
  return address.toLowerCase() as `0x${string}`;
}

export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}
