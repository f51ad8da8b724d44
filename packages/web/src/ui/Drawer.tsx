import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

/**
 * A panel that slides over the page from the right (a cart): the whole width on a phone, at most 28rem
 * elsewhere, scrolling on its own. A dialog like `Modal`: focus trapped, closes on Escape, outside clicks and its
 * close button; `locked` keeps it open while a wallet flow it started runs.
 */
export function Drawer({
  open,
  onOpenChange,
  title,
  children,
  locked = false,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  children: ReactNode;
  locked?: boolean;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (locked && !next ? undefined : onOpenChange(next))}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-neutral-950/60 backdrop-blur-sm" />
        <Dialog.Content className="fixed top-0 right-0 z-50 flex h-dvh w-full max-w-md flex-col overflow-x-hidden overflow-y-auto border-l border-neutral-200 bg-white p-5 shadow-xl dark:border-neutral-800 dark:bg-neutral-900">
          <Dialog.Title className="pr-10 text-xl font-bold tracking-tight">{title}</Dialog.Title>
          <Dialog.Description className="sr-only">{title}</Dialog.Description>
          {locked ? null : (
            <Dialog.Close
              className="absolute top-3 right-3 rounded-lg p-2 text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 dark:hover:bg-neutral-800 dark:hover:text-neutral-100"
              aria-label="Close"
            >
              <svg viewBox="0 0 24 24" className="size-5" aria-hidden="true">
                <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </Dialog.Close>
          )}
          <div className="mt-4 flex min-w-0 flex-1 flex-col">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
