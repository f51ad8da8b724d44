import { displayName, shortAddress } from "@easel/common";
import { useId, useMemo, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { useSearch } from "../features/browse/api/browse.ts";
import { nftPath } from "../features/browse/components/NftCard.tsx";
import { useDebounced } from "../lib/useDebounced.ts";
import { SEARCH_PLACEHOLDER } from "./siteLinks.ts";

/** The spec sends the search 1 s after typing stops. */
const DEBOUNCE_MS = 1000;

type Option = { id: string; group: string; label: string; detail: string; to: string };

/**
 * The header search: a combobox whose results are grouped as collections, items and profiles. 'Waiting...'
 * while a search runs, 'No Options' when nothing matches; arrow keys move, Enter opens, Escape closes.
 */
export function SearchBox({
  autoFocus = false,
  className = "",
}: {
  autoFocus?: boolean;
  className?: string;
}) {
  const id = useId();
  const listId = `${id}-results`;
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const debounced = useDebounced(text, DEBOUNCE_MS);
  const search = useSearch(debounced);
  const boxRef = useRef<HTMLDivElement>(null);
  const waiting = text.trim() !== "" && (text !== debounced || search.isFetching);

  const options = useMemo<Option[]>(() => {
    const data = search.data;
    if (!data) return [];
    return [
      ...data.collections.map((c) => ({
        id: `c-${c._id}`,
        group: "Collections",
        label: c.name,
        detail: c.symbol,
        to: `/collection/${encodeURIComponent(c.slug)}`,
      })),
      ...data.items.map((i) => ({
        id: `i-${i._id}`,
        group: "Items",
        label: i.name,
        detail: i.collection.name,
        to: nftPath({
          creator: i.creator,
          owner: i.creator ?? "",
          collection: i.collection,
          tokenId: i.tokenId,
        }),
      })),
      ...data.profile.map((p) => ({
        id: `p-${p.address}`,
        group: "Profiles",
        label: displayName(p),
        detail: shortAddress(p.address),
        to: `/profile/${p.username ?? p.address}`,
      })),
    ];
  }, [search.data]);

  const go = (option: Option) => {
    setOpen(false);
    setText("");
    navigate(option.to);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, options.length - 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (event.key === "Enter") {
      const option = options[active];
      if (option) {
        event.preventDefault();
        go(option);
      }
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  };

  const showPanel = open && text.trim() !== "";
  const groups = ["Collections", "Items", "Profiles"].filter((g) => options.some((o) => o.group === g));

  return (
    <search className={className}>
      <div ref={boxRef} className="relative">
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
            role="combobox"
            aria-expanded={showPanel}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={active >= 0 ? `${id}-${options[active]?.id}` : undefined}
            // biome-ignore lint/a11y/noAutofocus: the mobile search toggle opens the box to type in it
            autoFocus={autoFocus}
            placeholder={SEARCH_PLACEHOLDER}
            autoComplete="off"
            maxLength={100}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setActive(-1);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onBlur={(event) => {
              if (!boxRef.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
            }}
            onKeyDown={onKeyDown}
            className="w-full rounded-full border border-neutral-300 bg-neutral-50 py-2 pr-4 pl-9 text-sm placeholder:text-neutral-500 focus:border-accent-500 focus:bg-white dark:border-neutral-700 dark:bg-neutral-900 dark:focus:bg-neutral-950"
          />
        </form>
        {showPanel ? (
          <div
            id={listId}
            role="listbox"
            aria-label="Search results"
            className="absolute top-full right-0 left-0 z-50 mt-2 max-h-96 overflow-y-auto rounded-xl border border-neutral-200 bg-white p-2 shadow-lg dark:border-neutral-800 dark:bg-neutral-950"
          >
            {waiting ? (
              <p role="status" className="px-3 py-2 text-sm text-neutral-600 dark:text-neutral-400">
                Waiting...
              </p>
            ) : search.isError ? (
              <p role="alert" className="px-3 py-2 text-sm text-red-700 dark:text-red-300">
                {search.error.message}
              </p>
            ) : options.length === 0 ? (
              <p role="status" className="px-3 py-2 text-sm text-neutral-600 dark:text-neutral-400">
                No Options
              </p>
            ) : (
              groups.map((group) => (
                // biome-ignore lint/a11y/useSemanticElements: a group of options inside a listbox (ARIA combobox pattern)
                <div key={group} role="group" aria-label={group}>
                  <p className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-neutral-500 uppercase">
                    {group}
                  </p>
                  {options.map((option, index) =>
                    option.group === group ? (
                      <div
                        key={option.id}
                        id={`${id}-${option.id}`}
                        role="option"
                        tabIndex={-1}
                        aria-selected={index === active}
                        onMouseDown={(event) => event.preventDefault()}
                        onClick={() => go(option)}
                        onKeyDown={() => {}}
                        className={`flex cursor-pointer items-baseline justify-between gap-3 rounded-lg px-3 py-2 text-sm ${index === active ? "bg-accent-100 dark:bg-accent-700/30" : "hover:bg-neutral-100 dark:hover:bg-neutral-900"}`}
                      >
                        <span className="truncate font-medium">{option.label}</span>
                        <span className="shrink-0 text-xs text-neutral-500">{option.detail}</span>
                      </div>
                    ) : null,
                  )}
                </div>
              ))
            )}
          </div>
        ) : null}
      </div>
    </search>
  );
}
