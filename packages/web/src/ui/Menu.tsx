import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { type ReactNode, startTransition, useEffect, useState } from "react";
import { whenIdle } from "../lib/idle.ts";
import { menuContentClass } from "./menu.ts";

const OPENING_KEYS = new Set(["Enter", " ", "ArrowDown"]);

/**
 * A dropdown menu (Radix DropdownMenu) whose Radix parts mount once the page is drawn and the browser is idle.
 * Mounted, a closed Radix menu sets state while React commits the page (its trigger's anchor, its portal's
 * presence); React then ran the page's effects and a second render in the same task as its first draw, which
 * on a phone made that task a long one. Until then the trigger is a plain button that looks the same and
 * opens the menu when pressed, by pointer or by key.
 */
export function Menu({
  label,
  triggerClassName,
  trigger,
  contentClassName = "",
  children,
}: {
  /** The trigger's accessible name when its content does not say it (an icon). */
  label?: string;
  triggerClassName: string;
  trigger: ReactNode;
  contentClassName?: string;
  /** The menu's items (DropdownMenu.Item, Separator …). */
  children: ReactNode;
}) {
  const [mounted, setMounted] = useState(false);
  const [openAtMount, setOpenAtMount] = useState(false);
  useEffect(() => whenIdle(() => startTransition(() => setMounted(true))), []);
  if (!mounted) {
    const open = () => {
      setOpenAtMount(true);
      setMounted(true);
    };
    return (
      <button
        type="button"
        className={triggerClassName}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={false}
        onPointerDown={(event) => {
          if (event.button !== 0 || event.ctrlKey) return;
          event.preventDefault();
          open();
        }}
        onKeyDown={(event) => {
          if (!OPENING_KEYS.has(event.key)) return;
          event.preventDefault();
          open();
        }}
      >
        {trigger}
      </button>
    );
  }
  return (
    <DropdownMenu.Root modal={false} defaultOpen={openAtMount}>
      <DropdownMenu.Trigger className={triggerClassName} aria-label={label}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className={`${menuContentClass} ${contentClassName}`}
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
