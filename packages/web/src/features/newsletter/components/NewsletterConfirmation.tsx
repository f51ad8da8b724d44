import { MESSAGES } from "@easel/common";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { toast } from "sonner";

/**
 * The newsletter's confirmation link ends on `/?newsletter=confirmed` (or `=invalid`): say so once, then
 * drop the parameter from the address.
 */
export function NewsletterConfirmation() {
  const [params, setParams] = useSearchParams();
  const outcome = params.get("newsletter");
  useEffect(() => {
    if (outcome !== "confirmed" && outcome !== "invalid") return;
    if (outcome === "confirmed") toast.success(MESSAGES.newsletterConfirmed);
    else toast.error(MESSAGES.newsletterLinkInvalid);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("newsletter");
        return next;
      },
      { replace: true },
    );
  }, [outcome, setParams]);
  return null;
}
