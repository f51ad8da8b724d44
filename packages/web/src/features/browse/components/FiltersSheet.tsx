import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { useMediaQuery } from "../../../lib/useMediaQuery.ts";
import { buttonClass } from "../../../ui/Button.tsx";

/** Where the filter panel sits beside the cards (Tailwind's `lg`); narrower, it waits behind a button. */
const SIDE_PANEL = "(min-width: 1024px)";

/**
 * A list's filter panel: beside the cards on wide screens; on phones and tablets a Filters button showing
 * how many filters are on, opening the same panel in a sheet (a dialog: focus trapped, Escape closes), so the
 * art comes first instead of under a screenful of inputs. The filters apply as they change, as beside the
 * cards; the sheet's footer clears them or closes it to see the results.
 */
export function FiltersSheet({
  active,
  onClear,
  children,
}: {
  /** How many filters are on (the sort is not one). */
  active: number;
  onClear: () => void;
  children: ReactNode;
}) {
  const side = useMediaQuery(SIDE_PANEL);
  if (side) {
    return (
      <aside aria-label="Filters" className="space-y-6">
        {children}
      </aside>
    );
  }
  return (
    <Dialog.Root>
      <div>
        <Dialog.Trigger className={buttonClass("secondary")}>
          <svg viewBox="0 0 24 24" className="size-4" aria-hidden="true">
            <path d="M4 6h16M7 12h10M10 18h4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          Filters
          {active > 0 ? (
            <span className="rounded-full bg-accent-600 px-2 text-xs text-white tabular-nums dark:bg-accent-500 dark:text-neutral-950">
              {active}
              <span className="sr-only"> on</span>
            </span>
          ) : null}
        </Dialog.Trigger>
      </div>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-neutral-950/60" />
        <Dialog.Content className="fixed inset-x-0 bottom-0 z-50 flex max-h-[85dvh] flex-col rounded-t-2xl border border-neutral-200 bg-white shadow-xl dark:border-neutral-800 dark:bg-neutral-900">
          <div className="flex items-center justify-between border-b border-neutral-200 px-5 py-3 dark:border-neutral-800">
            <Dialog.Title className="text-lg font-bold tracking-tight">Filters</Dialog.Title>
            <Dialog.Description className="sr-only">The list changes as you choose.</Dialog.Description>
            <Dialog.Close
              className="rounded-lg p-2 text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
              aria-label="Close"
            >
              <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
                <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </Dialog.Close>
          </div>
          <div className="space-y-6 overflow-y-auto px-5 py-4">{children}</div>
          <div className="flex gap-3 border-t border-neutral-200 px-5 py-3 dark:border-neutral-800">
            <button type="button" className={buttonClass("secondary", "flex-1")} onClick={onClear}>
              Clear all
            </button>
            <Dialog.Close className={buttonClass("primary", "flex-1")}>Show results</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
