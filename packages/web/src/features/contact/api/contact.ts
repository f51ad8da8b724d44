import type { ContactRequest, MessageResponse } from "@easel/common";
import { apiFetch } from "../../../api/client.ts";

/** POST /api/contact: the answer's message thanks the sender. */
export function sendContactMessage(values: ContactRequest) {
  return apiFetch<MessageResponse>("/api/contact", { method: "POST", body: values });
}
