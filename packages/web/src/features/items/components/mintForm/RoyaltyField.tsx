import { ROYALTY_SUGGESTIONS } from "@easel/common";
import { useId } from "react";
import { Button } from "../../../../ui/Button.tsx";
import { inputClass } from "../../../../ui/Field.tsx";
import type { MintFormState } from "./useMintForm.ts";

/** The form's "Royalty (%)" field: 0 to 20, typed or picked from the suggestions. */
export function RoyaltyField({ form }: Pick<MintFormState, "form">) {
  const {
    register,
    setValue,
    formState: { errors },
  } = form;
  const royaltyId = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={royaltyId} className="text-sm font-semibold">
        Royalty (%)
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={royaltyId}
          type="number"
          min={0}
          max={20}
          step={1}
          inputMode="numeric"
          aria-invalid={errors.royalty ? true : undefined}
          className={`${inputClass} w-28`}
          {...register("royalty")}
        />
        {ROYALTY_SUGGESTIONS.map((value) => (
          <Button
            key={value}
            variant="secondary"
            className="px-3 py-1.5"
            onClick={() => setValue("royalty", value, { shouldValidate: true })}
          >
            {value}%
          </Button>
        ))}
      </div>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">Paid to you on every resale, 0 to 20%.</p>
      {errors.royalty ? (
        <p className="text-sm text-red-700 dark:text-red-400">{errors.royalty.message}</p>
      ) : null}
    </div>
  );
}
