import type { heldPaymentsResponseSchema } from "@easel/common";
import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "../../../api/client.ts";

export type HeldPayments = z.infer<typeof heldPaymentsResponseSchema>;

/** Payments the market holds for banned payees (their royalties and shares), from the indexed events. */
export const heldPaymentKeys = { all: ["held-payments"] as const };

/** GET /api/admin/held (moderators only). */
export function useHeldPayments() {
  return useQuery({
    queryKey: heldPaymentKeys.all,
    queryFn: () => apiFetch<HeldPayments>("/api/admin/held"),
  });
}
