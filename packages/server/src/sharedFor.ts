/**
 * `read`, run at most once per `ttlMs` whatever the number of callers: callers that arrive during a run wait
 * for it, later ones get its answer until it is `ttlMs` old (`ttlMs` 0: every caller after a run ends starts
 * a new one, callers during it still share it). A run that fails is not kept: the next caller starts another.
 *
 * @example
 * const readHead = sharedFor(() => chain.getBlockNumber(), 2_000); // one RPC call per 2 s, however many callers
 */
export function sharedFor<T>(read: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let last: { at: number; value: T } | null = null;
  let pending: Promise<T> | null = null;
  return () => {
    if (last && Date.now() - last.at < ttlMs) return Promise.resolve(last.value);
    pending ??= read().then(
      (value) => {
        last = { at: Date.now(), value };
        pending = null;
        return value;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
}
