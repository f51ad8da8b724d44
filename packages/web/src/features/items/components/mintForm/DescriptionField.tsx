import { MINT_DESCRIPTION_MAX, MINT_MESSAGES } from "@easel/common";
import { DescriptionEditor } from "../../../browse/components/DescriptionEditor.tsx";
import type { MintFormState } from "./useMintForm.ts";

/** The form's "Description" field: rich text with its length counted against the limit. */
export function DescriptionField({ form }: Pick<MintFormState, "form">) {
  const {
    watch,
    setValue,
    formState: { errors },
  } = form;
  return (
    <DescriptionEditor
      value={watch("description")}
      max={MINT_DESCRIPTION_MAX}
      error={errors.description?.message}
      onChange={(text) => setValue("description", text, { shouldValidate: !!errors.description })}
      counter={(length, max) =>
        length > max ? (
          <span className="text-red-700 dark:text-red-400">{MINT_MESSAGES.descriptionOver}</span>
        ) : (
          `${length} / ${max} · ${MINT_MESSAGES.descriptionMax}`
        )
      }
    />
  );
}
