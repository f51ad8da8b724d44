import type { NewsletterConfirm } from "@easel/common";
import { apiFetch } from "../../../api/client.ts";

/** POST /api/marketing/subscribe: sends the confirmation mail. */
export function subscribeToNewsletter(email: string) {
  return apiFetch("/api/marketing/subscribe", { method: "POST", body: { email } });
}

/** POST /api/marketing/confirm: confirms with the signed values of the mail's link. */
export function confirmNewsletter(values: NewsletterConfirm) {
  return apiFetch<{ message: string }>("/api/marketing/confirm", { method: "POST", body: values });
}
