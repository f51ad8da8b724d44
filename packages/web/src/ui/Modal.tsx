import * as Dialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

/**
 * A centred dialog (focus trapped, closes on Escape and with the close button). `locked` keeps it open while
 * something it started cannot be left (a wallet flow): no close button, Escape and outside clicks do nothing.
 * `escapeCloses={false}` keeps Escape from closing it at any time (the mint dialog).
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  children,
  className = "max-w-md",
  locked = false,
  escapeCloses = true,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
  locked?: boolean;
  escapeCloses?: boolean;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (locked && !next ? undefined : onOpenChange(next))}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-neutral-950/60 backdrop-blur-sm" />
        <Dialog.Content
          onEscapeKeyDown={escapeCloses ? undefined : (event) => event.preventDefault()}
          className={`fixed top-1/2 left-1/2 z-50 max-h-[90dvh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl border border-neutral-200 bg-white p-6 shadow-xl dark:border-neutral-800 dark:bg-neutral-900 ${className}`}
        >
          <Dialog.Title className="pr-8 text-xl font-bold tracking-tight">{title}</Dialog.Title>
          {description ? (
            <Dialog.Description className="mt-1 text-sm text-neutral-600 dark:text-neutral-400">
              {description}
            </Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">{title}</Dialog.Description>
          )}
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
          <div className="mt-5">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
