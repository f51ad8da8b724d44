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
    // The effect may run again before the address loses the parameter (another render changes
    // setParams): one toast id per link keeps it to one message.
    const id = `link-${param}`;
    if (outcome === "confirmed") toast.success(messages.confirmed, { id });
    else toast.error(messages.invalid, { id });
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
