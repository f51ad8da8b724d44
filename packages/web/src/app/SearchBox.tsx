import { useId } from "react";
import { SEARCH_PLACEHOLDER } from "./siteLinks.ts";

/**
 * The header search box (spec placeholder). Search results (collections, items, profiles) arrive with the
 * search issue; until then the box shows no results rather than invented ones.
 */
export function SearchBox({
  autoFocus = false,
  className = "",
}: {
  autoFocus?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <search className={className}>
      <form className="relative" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor={id} className="sr-only">
          Search
        </label>
        <svg
          viewBox="0 0 24 24"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-neutral-500"
          aria-hidden="true"
        >
          <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="m20 20-3.5-3.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <input
          id={id}
          type="search"
          // biome-ignore lint/a11y/noAutofocus: the mobile search toggle opens the box to type in it
          autoFocus={autoFocus}
          placeholder={SEARCH_PLACEHOLDER}
          autoComplete="off"
          className="w-full rounded-full border border-neutral-300 bg-neutral-50 py-2 pr-4 pl-9 text-sm placeholder:text-neutral-500 focus:border-accent-500 focus:bg-white dark:border-neutral-700 dark:bg-neutral-900 dark:focus:bg-neutral-950"
        />
      </form>
    </search>
  );
}
