/** The look of every dropdown menu (Radix DropdownMenu content and items). */
export const menuContentClass =
  "z-50 min-w-48 rounded-xl border border-neutral-200 bg-white p-1.5 shadow-lg dark:border-neutral-800 dark:bg-neutral-900";
export const menuItemClass =
  "flex cursor-pointer items-center justify-between gap-3 rounded-lg px-3 py-2 text-sm outline-none select-none data-[highlighted]:bg-neutral-100 dark:data-[highlighted]:bg-neutral-800";
export const menuSeparatorClass = "my-1 h-px bg-neutral-200 dark:bg-neutral-800";
