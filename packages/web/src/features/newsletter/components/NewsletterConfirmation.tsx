import { MESSAGES } from "@easel/common";
import { useLinkOutcome } from "../../../lib/useLinkOutcome.ts";

/** The newsletter's confirmation link ends on `/?newsletter=confirmed` (or `=invalid`). */
export function NewsletterConfirmation() {
  useLinkOutcome("newsletter", {
    confirmed: MESSAGES.newsletterConfirmed,
    invalid: MESSAGES.newsletterLinkInvalid,
  });
  return null;
}
