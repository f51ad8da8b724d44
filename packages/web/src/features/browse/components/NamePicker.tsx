import { displayName, shortAddress } from "@easel/common";
import { useId, useState } from "react";
import { useDebounced } from "../../../lib/useDebounced.ts";
import { useSearch } from "../api/browse.ts";

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** Suggestions follow typing closely: a picker is a short list, not the header's full search. */
const DEBOUNCE_MS = 300;

type Suggestion = { address: string; label: string };

/**
 * A filter that picks a collection or a creator by name: typing suggests matches from the search API, and
 * choosing one sets the filter to its address (the URL keeps the address, so views stay shareable). An
 * address typed or pasted is taken as it is. A filter already set shows the name behind its address.
 */
export function NamePicker({
  label,
  kind,
  value,
  onChange,
}: {
  label: string;
  kind: "collection" | "creator";
  /** The address filtered on, or "". */
  value: string;
  onChange: (address: string) => void;
}) {
  const id = useId();
  const listId = `${id}-suggestions`;
  // What is being typed; null while the input shows the filter's own value.
  const [text, setText] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Suggestion | null>(null);
  const [active, setActive] = useState(-1);
  const typing = text !== null && text.trim() !== "" && !ADDRESS.test(text.trim());
  const debounced = useDebounced(typing ? (text ?? "") : "", DEBOUNCE_MS);
  const found = useSearch(typing ? debounced : "");
  // The name behind an address in the URL: the search finds collections and profiles by full address.
  const named = useSearch(text === null && ADDRESS.test(value) && chosen?.address !== value ? value : "");

  const toSuggestions = (data: typeof found.data): Suggestion[] =>
    !data
      ? []
      : kind === "collection"
        ? data.collections.map((c) => ({ address: c._id, label: c.name }))
        : data.profile.map((p) => ({ address: p.address, label: displayName(p) }));
  const suggestions = typing ? toSuggestions(found.data) : [];
  const nameOfValue =
    chosen?.address === value
      ? chosen.label
      : toSuggestions(named.data).find((s) => s.address.toLowerCase() === value.toLowerCase())?.label;
  const shown = text ?? nameOfValue ?? value;
  const waiting = typing && (debounced !== text || found.isFetching);
  const open = typing && !waiting;
  const invalid = !!text?.trim().startsWith("0x") && !ADDRESS.test(text.trim());

  const choose = (s: Suggestion) => {
    setChosen(s);
    setText(null);
    setActive(-1);
    onChange(s.address);
  };
  const type = (next: string) => {
    setText(next);
    setActive(-1);
    const trimmed = next.trim();
    if (trimmed === "") onChange("");
    else if (ADDRESS.test(trimmed)) onChange(trimmed);
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (!open) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((a) => Math.min(a + 1, suggestions.length - 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (event.key === "Enter") {
      const s = suggestions[active];
      if (s) {
        event.preventDefault();
        choose(s);
      }
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      setText(null);
    }
  };

  return (
    <div className="space-y-1 text-sm">
      <label htmlFor={id} className="block font-semibold">
        {label}
      </label>
      <input
        id={id}
        type="search"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${id}-${active}` : undefined}
        aria-invalid={invalid}
        autoComplete="off"
        maxLength={100}
        placeholder={kind === "collection" ? "Name or 0x address" : "Name, username or 0x address"}
        value={shown}
        onChange={(event) => type(event.target.value)}
        onKeyDown={onKeyDown}
        className="w-full rounded-lg border border-neutral-300 bg-white px-2 py-1.5 dark:border-neutral-700 dark:bg-neutral-950"
      />
      {invalid ? (
        <p className="text-red-700 dark:text-red-300">Enter a 0x address of 40 hex digits.</p>
      ) : waiting ? (
        <p role="status" className="text-neutral-600 dark:text-neutral-400">
          Waiting...
        </p>
      ) : open && suggestions.length === 0 ? (
        <p role="status" className="text-neutral-600 dark:text-neutral-400">
          No Options
        </p>
      ) : null}
      <div
        id={listId}
        role="listbox"
        aria-label={`${label} suggestions`}
        hidden={!open || suggestions.length === 0}
        className="rounded-lg border border-neutral-200 p-1 dark:border-neutral-800"
      >
        {open
          ? suggestions.map((s, index) => (
              <div
                key={s.address}
                id={`${id}-${index}`}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(s)}
                onKeyDown={() => {}}
                className={`flex cursor-pointer items-baseline justify-between gap-2 rounded-md px-2 py-1.5 ${index === active ? "bg-accent-100 dark:bg-accent-700/30" : "hover:bg-neutral-100 dark:hover:bg-neutral-900"}`}
              >
                <span className="truncate font-medium">{s.label}</span>
                <span className="shrink-0 font-mono text-xs text-neutral-500">{shortAddress(s.address)}</span>
              </div>
            ))
          : null}
      </div>
    </div>
  );
}
