import { type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes, useId } from "react";
import { ApiError } from "../api/client.ts";

export const inputClass =
  "w-full rounded-lg border border-neutral-300 bg-white px-3 py-2 text-sm dark:border-neutral-700 dark:bg-neutral-950 aria-invalid:border-red-600 disabled:opacity-60";

type FieldShellProps = {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
  className?: string;
};

/** A labelled control with its error (the spec's words) right under it, wired with aria-describedby. */
export function FieldShell({ label, error, hint, children, className = "" }: FieldShellProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {children({ id, describedBy, invalid: !!error })}
      {hint ? (
        <p id={hintId} className="text-xs text-neutral-600 dark:text-neutral-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
};

export function TextField({
  label,
  error,
  hint,
  className,
  ref,
  ...input
}: TextFieldProps & { ref?: React.Ref<HTMLInputElement> }) {
  return (
    <FieldShell label={label} error={error} hint={hint} className={className}>
      {({ id, describedBy, invalid }) => (
        <input
          ref={ref}
          id={id}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={inputClass}
          {...input}
        />
      )}
    </FieldShell>
  );
}

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
};

export function TextAreaField({
  label,
  error,
  hint,
  className,
  ref,
  ...textarea
}: TextAreaFieldProps & { ref?: React.Ref<HTMLTextAreaElement> }) {
  return (
    <FieldShell label={label} error={error} hint={hint} className={className}>
      {({ id, describedBy, invalid }) => (
        <textarea
          ref={ref}
          id={id}
          rows={4}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          className={inputClass}
          {...textarea}
        />
      )}
    </FieldShell>
  );
}

/** Puts the server's per-field messages (ApiError.fields) onto a react-hook-form form. */
export function applyServerErrors<T extends string>(
  error: unknown,
  setError: (name: T, error: { type: string; message: string }) => void,
  known: readonly string[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  let applied = false;
  for (const [name, message] of Object.entries(error.fields ?? {})) {
    const key = known.find((k) => k === name || name.startsWith(`${k}.`));
    if (!key) continue;
    setError(name as T, { type: "server", message });
    applied = true;
  }
  return applied;
}
