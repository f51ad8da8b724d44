import type { DevAccountsResponse } from "@easel/common";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api/client.ts";

/** GET /api/dev/accounts (local chain only): the Dev wallet's test accounts, with their names and roles. */
export function useDevAccounts(enabled: boolean) {
  return useQuery({
    queryKey: ["dev-accounts"],
    queryFn: async () => (await apiFetch<DevAccountsResponse>("/api/dev/accounts")).data.accounts,
    enabled,
    staleTime: 30_000,
    retry: false,
  });
}
