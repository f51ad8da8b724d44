import { MINT_PROPERTIES_MAX, MINT_PROPERTY_MAX_LENGTH } from "@easel/common";
import { useFieldArray } from "react-hook-form";
import { Button } from "../../../../ui/Button.tsx";
import { inputClass } from "../../../../ui/Field.tsx";
import type { MintFormState } from "./useMintForm.ts";

/**
 * The form's "Properties": rows of a name and a value (such as Mood: Calm), up to 20, added and removed one by
 * one. They become the token metadata's ERC-721 `attributes`, show on the item page with how rare each value
 * is, and filter the collection page. The shared schema checks them here and again on the server (non-empty,
 * at most 64 characters, each name once); each message shows under its row.
 */
export function PropertiesField({ form }: Pick<MintFormState, "form">) {
  const {
    control,
    register,
    formState: { errors },
  } = form;
  const { fields, append, remove } = useFieldArray({ control, name: "properties" });
  const rowErrors = errors.properties;
  const listError = rowErrors?.message ?? rowErrors?.root?.message;
  const full = fields.length >= MINT_PROPERTIES_MAX;

  return (
    <fieldset className="flex flex-col gap-2" data-field="properties">
      <legend className="text-sm font-semibold">Properties</legend>
      <p id="properties-hint" className="text-xs text-neutral-600 dark:text-neutral-400">
        {`Optional, up to ${MINT_PROPERTIES_MAX}: a name and a value each, such as Mood: Calm. Collectors can filter the collection by them.`}
      </p>
      {fields.length ? (
        <ul className="flex flex-col gap-2" aria-label="Properties">
          {fields.map((field, index) => {
            const nameError = rowErrors?.[index]?.name?.message;
            const valueError = rowErrors?.[index]?.value?.message;
            const errorId = `property-${field.id}-error`;
            return (
              <li key={field.id} className="flex flex-col gap-1">
                <div className="flex gap-2">
                  <input
                    aria-label={`Property ${index + 1} name`}
                    placeholder="Name"
                    autoComplete="off"
                    maxLength={MINT_PROPERTY_MAX_LENGTH * 2}
                    aria-invalid={nameError ? true : undefined}
                    aria-describedby={nameError ? errorId : undefined}
                    className={`${inputClass} min-w-0 flex-1`}
                    {...register(`properties.${index}.name`)}
                  />
                  <input
                    aria-label={`Property ${index + 1} value`}
                    placeholder="Value"
                    autoComplete="off"
                    maxLength={MINT_PROPERTY_MAX_LENGTH * 2}
                    aria-invalid={valueError ? true : undefined}
                    aria-describedby={valueError ? errorId : undefined}
                    className={`${inputClass} min-w-0 flex-1`}
                    {...register(`properties.${index}.value`)}
                  />
                  <Button
                    variant="secondary"
                    aria-label={`Remove property ${index + 1}`}
                    onClick={() => remove(index)}
                  >
                    ✕
                  </Button>
                </div>
                {nameError || valueError ? (
                  <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
                    {[nameError, valueError].filter(Boolean).join(" ")}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      <div>
        <Button
          variant="secondary"
          disabled={full}
          aria-describedby="properties-hint"
          onClick={() => append({ name: "", value: "" }, { shouldFocus: true })}
        >
          Add property
        </Button>
      </div>
      {listError ? <p className="text-sm text-red-700 dark:text-red-400">{listError}</p> : null}
    </fieldset>
  );
}
