import { useEffect, useRef, useState } from "react";

/** How far (px) a pull must go, once damped, to refresh when released. */
export const PULL_THRESHOLD = 64;
/** A pull moves the indicator half as far as the finger, up to this. */
const MAX_PULL = 96;

export type Pull = { distance: number; ready: boolean; refreshing: boolean };

/**
 * Pull to refresh on touch screens: a downward drag that starts with the page scrolled to the top, released
 * past the threshold, calls `refresh` (and shows it refreshing until its promise settles). Mouse and pen
 * are left alone, and so is a drag that starts anywhere but the top, where it is an ordinary scroll.
 */
export function usePullToRefresh(refresh: () => Promise<unknown>): Pull {
  const [distance, setDistance] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  const start = useRef<number | null>(null);
  const pulled = useRef(0);
  const latest = useRef(refresh);
  latest.current = refresh;
  const busy = useRef(false);

  useEffect(() => {
    const onStart = (event: TouchEvent) => {
      start.current =
        window.scrollY <= 0 && !busy.current && event.touches.length === 1
          ? (event.touches[0]?.clientY ?? null)
          : null;
    };
    const onMove = (event: TouchEvent) => {
      if (start.current === null) return;
      const dy = (event.touches[0]?.clientY ?? start.current) - start.current;
      pulled.current = dy > 0 && window.scrollY <= 0 ? Math.min(MAX_PULL, dy / 2) : 0;
      setDistance(pulled.current);
    };
    const onEnd = () => {
      if (start.current === null) return;
      start.current = null;
      const release = pulled.current >= PULL_THRESHOLD;
      pulled.current = 0;
      setDistance(0);
      if (!release) return;
      busy.current = true;
      setRefreshing(true);
      void Promise.resolve(latest.current())
        .catch(() => {})
        .finally(() => {
          busy.current = false;
          setRefreshing(false);
        });
    };
    window.addEventListener("touchstart", onStart, { passive: true });
    window.addEventListener("touchmove", onMove, { passive: true });
    window.addEventListener("touchend", onEnd);
    window.addEventListener("touchcancel", onEnd);
    return () => {
      window.removeEventListener("touchstart", onStart);
      window.removeEventListener("touchmove", onMove);
      window.removeEventListener("touchend", onEnd);
      window.removeEventListener("touchcancel", onEnd);
    };
  }, []);

  return { distance, ready: distance >= PULL_THRESHOLD, refreshing };
}
