import type { UseMutationResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { errorMessage } from "../api/client.ts";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { Button } from "./Button.tsx";

/**
 * Where a mailed confirmation link leads (newsletter, profile email). Opening it confirms nothing (mail
 * scanners open links); the button posts the link's values. A link cut short says so in words.
 */
export function ConfirmLinkPage<Values>({
  title,
  values,
  incomplete,
  question,
  action,
  confirm,
}: {
  title: string;
  /** The link's values, or null when the link is cut short. */
  values: Values | null;
  incomplete: string;
  question: ReactNode;
  action: string;
  confirm: UseMutationResult<{ message: string }, Error, Values>;
}) {
  usePageTitle(title);
  return (
    <section className="mx-auto flex w-full max-w-xl flex-col items-start gap-5 px-4 py-16">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      {!values ? (
        <p role="alert" className="text-neutral-700 dark:text-neutral-300">
          {incomplete}
        </p>
      ) : confirm.isSuccess ? (
        <p role="status" className="text-lg font-semibold">
          {confirm.data.message}
        </p>
      ) : (
        <>
          <p className="text-neutral-700 dark:text-neutral-300">{question}</p>
          <Button loading={confirm.isPending} loadingText="Confirming" onClick={() => confirm.mutate(values)}>
            {action}
          </Button>
          {confirm.isError ? (
            <p role="alert" className="text-red-700 dark:text-red-400">
              {errorMessage(confirm.error)}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
