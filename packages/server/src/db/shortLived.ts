import type { Database } from "./client.ts";

/**
 * Answers computed at most once every `ttlMs` per database and key; callers that ask while one is being
 * computed share it, and a failed computation is not kept. For figures that may lag a few seconds and cost
 * more than the pages showing them (the home page, the explore count).
 */
export function shortLived<V>(ttlMs: number, maxKeys = 1000) {
  const byDb = new WeakMap<Database, Map<string, { at: number; value: Promise<V> }>>();
  return {
    get(db: Database, key: string, compute: () => Promise<V>): Promise<V> {
      let cache = byDb.get(db);
      if (!cache) {
        cache = new Map();
        byDb.set(db, cache);
      }
      const hit = cache.get(key);
      if (hit && Date.now() - hit.at < ttlMs) return hit.value;
      if (cache.size >= maxKeys) cache.clear();
      const value = compute();
      const entry = { at: Date.now(), value };
      cache.set(key, entry);
      value.catch(() => {
        if (cache.get(key) === entry) cache.delete(key);
      });
      return value;
    },
    forget(db: Database): void {
      byDb.delete(db);
    },
  };
}
