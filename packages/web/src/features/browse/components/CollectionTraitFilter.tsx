import { useCollectionTraits } from "../api/collectionTraits.ts";
import { SelectFilter } from "./FilterPanel.tsx";

/**
 * The collection page's trait filter: a trait type (the properties its items have), then one of its values,
 * each with how many items have it; the grid shows the items with that value, with the tab and sort chosen.
 * Not drawn for a collection whose items have no properties (and none chosen).
 */
export function CollectionTraitFilter({
  address,
  traitType,
  traitValue,
  onChange,
}: {
  /** The collection's address. */
  address: string;
  traitType: string;
  traitValue: string;
  /** A new choice: a type without a value yet filters nothing; both empty clears the filter. */
  onChange: (traitType: string, traitValue: string) => void;
}) {
  const { data } = useCollectionTraits(address);
  const traits = data?.traits ?? [];
  if (!traits.length && !traitType) return null;
  const chosen = traits.find((t) => t.trait_type === traitType);
  // A value from a link that the list no longer has (its items sold out of view) still shows as chosen.
  const values =
    chosen?.values.map((v) => ({ value: v.value, label: `${v.value} (${v.count})` })) ??
    (traitValue ? [{ value: traitValue, label: traitValue }] : []);
  if (traitValue && !values.some((v) => v.value === traitValue))
    values.unshift({ value: traitValue, label: `${traitValue} (0)` });
  const types = traits.map((t) => ({ value: t.trait_type, label: t.trait_type }));
  if (traitType && !chosen) types.unshift({ value: traitType, label: traitType });

  return (
    <fieldset className="flex flex-wrap items-center gap-3">
      <legend className="sr-only">Filter by property</legend>
      <SelectFilter
        label="Property"
        value={traitType}
        onChange={(type) => onChange(type, "")}
        options={[{ value: "", label: "All" }, ...types]}
      />
      {traitType ? (
        <SelectFilter
          label="Value"
          value={traitValue}
          onChange={(value) => onChange(traitType, value)}
          options={[{ value: "", label: "Choose a value" }, ...values]}
        />
      ) : null}
      {traitType ? (
        <button
          type="button"
          className="text-sm font-medium text-accent-700 underline dark:text-accent-300"
          onClick={() => onChange("", "")}
        >
          Clear property filter
        </button>
      ) : null}
    </fieldset>
  );
}
