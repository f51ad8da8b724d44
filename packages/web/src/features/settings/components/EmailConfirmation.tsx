import { MESSAGES } from "@easel/common";
import { useLinkOutcome } from "../../../lib/useLinkOutcome.ts";

/** The profile email's confirmation link ends on `/?email=confirmed` (or `=invalid`). */
export function EmailConfirmation() {
  useLinkOutcome("email", { confirmed: MESSAGES.emailConfirmed, invalid: MESSAGES.emailLinkInvalid });
  return null;
}
