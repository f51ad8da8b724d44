import { Link } from "react-router";
import type { MintFormState } from "./useMintForm.ts";

/** The form's two checkboxes: the artist owns the rights, and agrees to the Terms of Service. */
export function Agreements({ form }: Pick<MintFormState, "form">) {
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <>
      <Checkbox
        label="I own the rights to this artwork and may sell it."
        error={errors.rights?.message}
        {...register("rights")}
      />
      <Checkbox
        label={
          <>
            I agree to Easel's{" "}
            <Link to="/TermsOfServices" target="_blank" className="underline">
              Terms of Service
            </Link>
          </>
        }
        error={errors.terms?.message}
        {...register("terms")}
      />
    </>
  );
}

function Checkbox({
  label,
  error,
  ...input
}: React.InputHTMLAttributes<HTMLInputElement> & { label: React.ReactNode; error?: string | undefined }) {
  return (
    <div className="flex flex-col gap-1">
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 accent-accent-600"
          aria-invalid={error ? true : undefined}
          {...input}
        />
        <span>{label}</span>
      </label>
      {error ? <p className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
    </div>
  );
}
