import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { toast } from "sonner";

/**
 * A confirmation link mailed by Easel ends on `/?{param}=confirmed` (or `=invalid`): say so once, then
 * drop the parameter from the address.
 */
export function useLinkOutcome(param: string, messages: { confirmed: string; invalid: string }) {
  const [params, setParams] = useSearchParams();
  const outcome = params.get(param);
  useEffect(() => {
    if (outcome !== "confirmed" && outcome !== "invalid") return;
    if (outcome === "confirmed") toast.success(messages.confirmed);
    else toast.error(messages.invalid);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(param);
        return next;
      },
      { replace: true },
    );
  }, [outcome, param, messages.confirmed, messages.invalid, setParams]);
}
