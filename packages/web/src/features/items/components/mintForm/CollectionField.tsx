import { Button } from "../../../../ui/Button.tsx";
import { FieldShell, inputClass } from "../../../../ui/Field.tsx";
import type { MintFormState } from "./useMintForm.ts";

/** What minting into each kind of collection means, under the picker. */
const COLLECTION_HINTS: Record<string, string> = {
  default: "Easel's shared collection: the item is minted now and has no type on its page.",
  standard: "Your collection: the item is minted now, in your own contract.",
  lazy: "Your lazy collection: the item is listed at a price and minted when a buyer pays.",
};

/** The form's "Collection" field: the artist's collections for the chosen type, or a new one. */
export function CollectionField({
  form,
  type,
  collections,
  chosen,
  onCreate,
}: Pick<MintFormState, "form" | "type" | "collections" | "chosen"> & { onCreate: () => void }) {
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <FieldShell
      label="Collection"
      hint={chosen ? COLLECTION_HINTS[chosen.type] : undefined}
      error={errors.collection?.message}
    >
      {({ id, describedBy, invalid }) => (
        <div className="flex flex-wrap gap-2">
          <select
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            disabled={!type}
            className={`${inputClass} flex-1`}
            {...register("collection")}
          >
            <option value="">
              {!type
                ? "Select a type first"
                : collections.isPending
                  ? "Loading collections..."
                  : "Select a collection"}
            </option>
            {collections.data?.map((c) => (
              <option key={c.contract_address} value={c.contract_address} disabled={c.remaining === 0}>
                {c.type === "default"
                  ? `${c.name} (shared)`
                  : c.type === "lazy"
                    ? `${c.name} (lazy)`
                    : c.name}
                {c.remaining === 0 ? " — full" : ""}
              </option>
            ))}
          </select>
          <Button variant="secondary" onClick={onCreate}>
            Create new collection
          </Button>
        </div>
      )}
    </FieldShell>
  );
}
