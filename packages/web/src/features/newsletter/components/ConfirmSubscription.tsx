import { MESSAGES } from "@easel/common";
import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { errorMessage } from "../../../api/client.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { Button } from "../../../ui/Button.tsx";
import { confirmNewsletter } from "../api/newsletter.ts";

/**
 * /newsletter/confirm: where the mail's link leads. Opening it confirms nothing (mail scanners open links);
 * the button does. A link cut short says so in words (the footer's form subscribes again).
 */
export function ConfirmSubscription() {
  usePageTitle("Confirm your subscription");
  const [params] = useSearchParams();
  const email = params.get("email");
  const expires = params.get("expires");
  const sig = params.get("sig");
  const confirm = useMutation({ mutationFn: confirmNewsletter });
  const complete = !!email && !!sig && /^\d+$/.test(expires ?? "");

  return (
    <section className="mx-auto flex w-full max-w-xl flex-col items-start gap-5 px-4 py-16">
      <h1 className="text-3xl font-bold tracking-tight">Confirm your subscription</h1>
      {!complete ? (
        <p role="alert" className="text-neutral-700 dark:text-neutral-300">
          {MESSAGES.newsletterLinkIncomplete}
        </p>
      ) : confirm.isSuccess ? (
        <p role="status" className="text-lg font-semibold">
          {confirm.data.message}
        </p>
      ) : (
        <>
          <p className="text-neutral-700 dark:text-neutral-300">
            Receive the Easel newsletter at <span className="font-semibold break-all">{email}</span>?
          </p>
          <Button
            loading={confirm.isPending}
            loadingText="Confirming"
            onClick={() => confirm.mutate({ email, expires: Number(expires), sig })}
          >
            Confirm subscription
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
