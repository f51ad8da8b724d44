import { MAX_CART_ITEMS } from "@easel/common";
import { useSyncExternalStore } from "react";
import { STORAGE_PREFIX } from "../../../lib/storage.ts";

/**
 * A collector's cart, one per wallet, kept in localStorage (`easel.cart.<address>`) so that it survives a
 * reload: a store outside components (as RainbowKit keeps pending transactions), read with `useCart`. What a
 * line keeps is what the drawer shows before the server's quote comes back; the quote decides what is bought.
 */
export type CartWork = {
  collection: string;
  tokenId: string;
  name: string;
  /** The card's picture (a media CID or path), or null. */
  image: string | null;
  /** The item page. */
  path: string;
  /** The price when it was added, in wei. */
  priceWei: string;
};

const EMPTY: readonly CartWork[] = Object.freeze([]);
const keyOf = (address: string) => `${STORAGE_PREFIX}cart.${address.toLowerCase()}`;
export const workKey = (work: { collection: string; tokenId: string }) =>
  `${work.collection.toLowerCase()}:${work.tokenId}`;

const listeners = new Set<() => void>();
/**
 * The parsed cart of each key with the text it was parsed from: `useSyncExternalStore` gets the same array until
 * the stored text changes (here, in another tab, or cleared by the app on sign-out).
 */
const cache = new Map<string, { raw: string | null; works: readonly CartWork[] }>();

function read(address: string): readonly CartWork[] {
  const key = keyOf(address);
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(key);
  } catch {
    // Unavailable storage: what this page wrote, if anything.
    return cache.get(key)?.works ?? EMPTY;
  }
  const cached = cache.get(key);
  if (cached && cached.raw === raw) return cached.works;
  let works: readonly CartWork[] = EMPTY;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed)) works = parsed.filter(isWork);
  } catch {
    // Unreadable: an empty cart.
  }
  cache.set(key, { raw, works });
  return works;
}

function isWork(value: unknown): value is CartWork {
  const w = value as CartWork | null;
  return (
    !!w &&
    typeof w.collection === "string" &&
    typeof w.tokenId === "string" &&
    typeof w.name === "string" &&
    typeof w.path === "string" &&
    typeof w.priceWei === "string"
  );
}

function write(address: string, works: readonly CartWork[]) {
  const key = keyOf(address);
  const raw = works.length === 0 ? null : JSON.stringify(works);
  cache.set(key, { raw, works });
  try {
    if (raw === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, raw);
  } catch {
    // Storage full or unavailable: the cart lives until the page closes.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab's change (or the app clearing its keys on disconnect) is read again.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(`${STORAGE_PREFIX}cart.`)) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The cart's actions for `address`. */
export const cartStore = {
  list: (address: string) => read(address),
  add(address: string, work: CartWork): boolean {
    const works = read(address);
    if (works.some((w) => workKey(w) === workKey(work)) || works.length >= MAX_CART_ITEMS) return false;
    write(address, [...works, { ...work, collection: work.collection.toLowerCase() }]);
    return true;
  },
  remove(address: string, keys: readonly string[]) {
    const drop = new Set(keys);
    const works = read(address);
    const kept = works.filter((w) => !drop.has(workKey(w)));
    if (kept.length !== works.length) write(address, kept);
  },
  clear: (address: string) => write(address, EMPTY),
  /** Forgets what was read (tests, and a storage cleared behind the store's back). */
  reset() {
    cache.clear();
    for (const listener of listeners) listener();
  },
};

/** The cart of `address` (empty while signed out), redrawn when it changes in this tab or another. */
export function useCart(address: string | null | undefined): readonly CartWork[] {
  return useSyncExternalStore(
    subscribe,
    () => (address ? read(address) : EMPTY),
    () => EMPTY,
  );
}
