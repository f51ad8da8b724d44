import type { Ref, SelectHTMLAttributes } from "react";
import { FieldShell, inputClass } from "../../../ui/Field.tsx";
import { useCategories } from "../api/browse.ts";

/** The artwork types (the spec's category_web2) as a labelled select, e.g. `{...register("category_web2_id")}`. */
export function CategorySelect({
  label,
  error,
  placeholder,
  ref,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  error: string | undefined;
  placeholder: string;
  ref?: Ref<HTMLSelectElement>;
}) {
  const categories = useCategories();
  return (
    <FieldShell label={label} error={error}>
      {({ id, describedBy, invalid }) => (
        <select
          ref={ref}
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={inputClass}
          {...select}
        >
          <option value="">{categories.isPending ? "Loading..." : placeholder}</option>
          {categories.data?.map((category) => (
            <option key={category._id} value={category._id}>
              {category.title}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}
