import { MINT_MESSAGES } from "@easel/common";
import { Controller } from "react-hook-form";
import { toast } from "sonner";
import { MintDropzone } from "../MintDropzone.tsx";
import type { MintFormState } from "./useMintForm.ts";
import type { PickedArtwork } from "./usePickedArtwork.ts";

/** The form's "Upload file" field: the artwork, picked once a type is chosen, its size checked at once. */
export function UploadField({
  form,
  type,
  artwork,
}: Pick<MintFormState, "form" | "type"> & { artwork: PickedArtwork }) {
  const {
    control,
    trigger,
    setError,
    clearErrors,
    formState: { errors },
  } = form;
  return (
    <Controller
      control={control}
      name="file"
      render={({ field }) => (
        <MintDropzone
          picked={artwork.picked}
          enabled={!!type}
          error={errors.file?.message}
          inputRef={field.ref}
          onBlur={field.onBlur}
          onPick={(file) => {
            field.onChange(file);
            void trigger("file");
            clearErrors("file");
            artwork.pick(file);
          }}
          onBlocked={() => {
            setError("file", { message: MINT_MESSAGES.selectTypeFirst });
            toast.warning(MINT_MESSAGES.selectTypeFirst);
          }}
        />
      )}
    />
  );
}
