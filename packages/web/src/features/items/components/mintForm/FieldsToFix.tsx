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
  properties: "Properties",
  price: "List price (ETH)",
  rights: "Rights",
  terms: "Terms of Service",
};

/** Whether a field, or any part of it (a property's name or value), has a message. */
function hasError(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const message = (error as { message?: unknown }).message;
  if (typeof message === "string" && message) return true;
  // An array's errors: its rows' (by index) and its own (`root`); never the control (`ref`).
  return Object.entries(error).some(([key, part]) => key !== "ref" && hasError(part));
}

/** The fields to fix, in the form's order (each shows its message under it). */
function fieldsToFix(errors: FieldErrors<MintFormInput>) {
  return (Object.keys(FIELD_LABELS) as (keyof MintFormInput)[]).flatMap((name) =>
    hasError(errors[name]) ? [{ name, label: FIELD_LABELS[name] }] : [],
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
                // The properties: the first of their inputs with a message, or the first.
                const property =
                  name === "properties"
                    ? (event.currentTarget.form?.querySelector<HTMLInputElement>(
                        '[data-field="properties"] [aria-invalid="true"]',
                      ) ??
                      event.currentTarget.form?.querySelector<HTMLInputElement>(
                        '[data-field="properties"] input',
                      ))
                    : null;
                if (property) property.focus();
                else if (labelled) labelled.focus();
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
