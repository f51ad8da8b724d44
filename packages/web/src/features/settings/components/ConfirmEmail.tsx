import { MESSAGES } from "@easel/common";
import { useSearchParams } from "react-router";
import { errorMessage } from "../../../api/client.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { Button } from "../../../ui/Button.tsx";
import { useConfirmEmail } from "../../profile/api/profile.ts";

/**
 * /email/confirm: where the profile email's link leads. Opening it confirms nothing (mail scanners open
 * links); the button does. A link cut short says so in words.
 */
export function ConfirmEmail() {
  usePageTitle("Confirm your email");
  const [params] = useSearchParams();
  const address = params.get("address");
  const email = params.get("email");
  const expires = params.get("expires");
  const sig = params.get("sig");
  const confirm = useConfirmEmail();
  const complete = !!address && !!email && !!sig && /^\d+$/.test(expires ?? "");

  return (
    <section className="mx-auto flex w-full max-w-xl flex-col items-start gap-5 px-4 py-16">
      <h1 className="text-3xl font-bold tracking-tight">Confirm your email</h1>
      {!complete ? (
        <p role="alert" className="text-neutral-700 dark:text-neutral-300">
          {MESSAGES.emailLinkIncomplete}
        </p>
      ) : confirm.isSuccess ? (
        <p role="status" className="text-lg font-semibold">
          {confirm.data.message}
        </p>
      ) : (
        <>
          <p className="text-neutral-700 dark:text-neutral-300">
            Receive your Easel profile's notifications at{" "}
            <span className="font-semibold break-all">{email}</span>?
          </p>
          <Button
            loading={confirm.isPending}
            loadingText="Confirming"
            onClick={() => confirm.mutate({ address, email, expires: Number(expires), sig })}
          >
            Confirm email
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
