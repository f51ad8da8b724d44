import { MESSAGES } from "@easel/common";
import { useSearchParams } from "react-router";
import { ConfirmLinkPage } from "../../../ui/ConfirmLinkPage.tsx";
import { useConfirmEmail } from "../../profile/api/profile.ts";

/** /email/confirm: where the profile email's link leads; the button confirms. */
export function ConfirmEmail() {
  const [params] = useSearchParams();
  const address = params.get("address");
  const email = params.get("email");
  const expires = params.get("expires");
  const sig = params.get("sig");
  const complete = !!address && !!email && !!sig && /^\d+$/.test(expires ?? "");
  return (
    <ConfirmLinkPage
      title="Confirm your email"
      values={complete ? { address, email, expires: Number(expires), sig } : null}
      incomplete={MESSAGES.emailLinkIncomplete}
      question={
        <>
          Receive your Easel profile's notifications at{" "}
          <span className="font-semibold break-all">{email}</span>?
        </>
      }
      action="Confirm email"
      confirm={useConfirmEmail()}
    />
  );
}
