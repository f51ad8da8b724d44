/**
 * Runs `work` when the browser is next idle (at most `timeout` ms later), for what the page does not need
 * to show itself: on a slow phone the page's first moments go to drawing it. Returns a cancel, for an effect's
 * cleanup.
 */
export function whenIdle(work: () => void, timeout = 2_000): () => void {
  if (typeof requestIdleCallback === "function") {
    const id = requestIdleCallback(() => work(), { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(work, 0);
  return () => clearTimeout(id);
}
