import type { FieldErrors } from "react-hook-form";
import type { MintFormInput } from "../../lib/mintForm.ts";
import type { MintFormState } from "./useMintForm.ts";

/** The form's fields by name, as their labels read. */
const FIELD_LABELS: Record<keyof MintFormInput, string> = {
  type: "Type",
  file: "Upload file",
  collection: "Collection",
  lazy: "Collection",
  name: "Name",
  royalty: "Royalty (%)",
  description: "Description",
  tags: "Tags",
  price: "List price (ETH)",
  rights: "Rights",
  terms: "Terms of Service",
};

/** The fields to fix, in the form's order (each shows its message under it). */
function fieldsToFix(errors: FieldErrors<MintFormInput>) {
  return (Object.keys(FIELD_LABELS) as (keyof MintFormInput)[]).flatMap((name) =>
    errors[name]?.message ? [{ name, label: FIELD_LABELS[name] }] : [],
  );
}

/** After a submit that failed, the list of fields to fix above the button, each a link to its control. */
export function FieldsToFix({ form }: Pick<MintFormState, "form">) {
  const {
    setFocus,
    formState: { errors, submitCount },
  } = form;
  const problems = submitCount > 0 ? fieldsToFix(errors) : [];
  if (!problems.length) return null;
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200"
    >
      <p className="font-semibold">
        {problems.length === 1
          ? "One field needs your attention; its message says what to fix:"
          : `${problems.length} fields need your attention; each message says what to fix:`}
      </p>
      <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1">
        {problems.map(({ name, label }) => (
          <li key={name}>
            <button
              type="button"
              className="text-left underline underline-offset-2"
              onClick={(event) => {
                // The control its label names (the description and tags are not registered fields).
                const labelled = [...(event.currentTarget.form?.querySelectorAll("label") ?? [])].find(
                  (l) => l.textContent === label,
                )?.control;
                if (labelled) labelled.focus();
                else setFocus(name);
              }}
            >
              {label}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
