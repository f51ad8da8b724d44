import { MESSAGES } from "@easel/common";
import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { ConfirmLinkPage } from "../../../ui/ConfirmLinkPage.tsx";
import { confirmNewsletter } from "../api/newsletter.ts";

/** /newsletter/confirm: where the newsletter's link leads; the button confirms (the footer's form subscribes again). */
export function ConfirmSubscription() {
  const [params] = useSearchParams();
  const email = params.get("email");
  const expires = params.get("expires");
  const sig = params.get("sig");
  const complete = !!email && !!sig && /^\d+$/.test(expires ?? "");
  return (
    <ConfirmLinkPage
      title="Confirm your subscription"
      values={complete ? { email, expires: Number(expires), sig } : null}
      incomplete={MESSAGES.newsletterLinkIncomplete}
      question={
        <>
          Receive the Easel newsletter at <span className="font-semibold break-all">{email}</span>?
        </>
      }
      action="Confirm subscription"
      confirm={useMutation({ mutationFn: confirmNewsletter })}
    />
  );
}
