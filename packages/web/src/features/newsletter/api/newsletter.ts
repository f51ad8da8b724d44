import { apiFetch } from "../../../api/client.ts";

/** POST /api/marketing/subscribe: sends the confirmation mail. */
export function subscribeToNewsletter(email: string) {
  return apiFetch("/api/marketing/subscribe", { method: "POST", body: { email } });
}
