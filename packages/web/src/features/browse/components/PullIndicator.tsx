import { useMediaQuery } from "../../../lib/useMediaQuery.ts";
import type { Pull } from "../../../lib/usePullToRefresh.ts";
import { Spinner } from "../../../ui/Spinner.tsx";

/**
 * What a pull to refresh shows above the list: how far to pull, then that it is refreshing. It opens as the
 * finger pulls; with reduced motion it only appears, at its full height.
 */
export function PullIndicator({ pull }: { pull: Pull }) {
  const still = useMediaQuery("(prefers-reduced-motion: reduce)");
  const shown = pull.refreshing || pull.distance > 0;
  const height = pull.refreshing || (still && shown) ? 48 : pull.distance;
  return (
    <div
      role="status"
      className="flex items-center justify-center overflow-hidden text-sm text-neutral-600 dark:text-neutral-400"
      style={{ height }}
    >
      {shown ? (
        <span className="flex items-center gap-2 rounded-full border border-neutral-200 bg-white px-3 py-1 shadow-sm dark:border-neutral-800 dark:bg-neutral-900">
          {pull.refreshing ? <Spinner /> : null}
          {pull.refreshing ? "Refreshing..." : pull.ready ? "Release to refresh" : "Pull to refresh"}
        </span>
      ) : null}
    </div>
  );
}
