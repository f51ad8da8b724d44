import { useId } from "react";
import type { SetURLSearchParams } from "react-router";

/** Reads and writes one filter of the URL (the URL holds the filters, so views can be shared). */
export function useUrlParam(params: URLSearchParams, setParams: SetURLSearchParams) {
  return (name: string) => ({
    value: params.get(name) ?? "",
    set: (value: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace: true },
      ),
  });
}

/** How many of the `names` filters the URL sets, and a way to clear them all (the sort stays). */
export function useActiveFilters(
  params: URLSearchParams,
  setParams: SetURLSearchParams,
  names: readonly string[],
) {
  return {
    active: names.filter((name) => params.get(name)).length,
    clear: () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const name of names) next.delete(name);
          return next;
        },
        { replace: true },
      ),
  };
}

/** A min–max pair of number inputs. */
export function RangeFilter({
  legend,
  min,
  max,
  step,
  unit,
}: {
  legend: string;
  min: { value: string; set: (v: string) => void };
  max: { value: string; set: (v: string) => void };
  step?: number;
  unit?: string;
}) {
  const id = useId();
  const input =
    "w-full rounded-lg border border-neutral-300 bg-white px-2 py-1.5 text-sm tabular-nums dark:border-neutral-700 dark:bg-neutral-950";
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold">
        {legend}
        {unit ? <span className="font-normal text-neutral-600 dark:text-neutral-400"> ({unit})</span> : null}
      </legend>
      <div className="flex items-center gap-2">
        <label htmlFor={`${id}-min`} className="sr-only">{`${legend} minimum`}</label>
        <input
          id={`${id}-min`}
          type="number"
          min={0}
          step={step ?? 1}
          placeholder="Min"
          className={input}
          value={min.value}
          onChange={(e) => min.set(e.target.value)}
        />
        <span aria-hidden="true">–</span>
        <label htmlFor={`${id}-max`} className="sr-only">{`${legend} maximum`}</label>
        <input
          id={`${id}-max`}
          type="number"
          min={0}
          step={step ?? 1}
          placeholder="Max"
          className={input}
          value={max.value}
          onChange={(e) => max.set(e.target.value)}
        />
      </div>
    </fieldset>
  );
}

export function SelectFilter<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly { value: T | ""; label: string }[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-lg border border-neutral-300 bg-white px-3 py-2 text-sm dark:border-neutral-700 dark:bg-neutral-950"
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
