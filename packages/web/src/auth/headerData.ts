import type { HeaderData } from "@easel/common";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../api/client.ts";
import { useSession } from "./session.ts";

/** The header's data, per signed-in address. Everything that changes the counts invalidates `all`. */
export const headerDataKeys = {
  all: ["header-data"] as const,
  of: (address: string | null) => ["header-data", address] as const,
};

/** GET /api/home/header-data: the signed-in user's summary, new notifications and admin flag. */
export function useHeaderData() {
  const { signedIn, session } = useSession();
  return useQuery({
    queryKey: headerDataKeys.of(session?.address ?? null),
    queryFn: async () => (await apiFetch<HeaderData>("/api/home/header-data")).data,
    enabled: signedIn,
    staleTime: 30_000,
  });
}
