import type { ArtistApplicationRequest, ArtistApplicationResponse } from "@easel/common";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";

/** The signed-in member's own artist application. */
export const myApplicationKeys = { all: ["my-artist-application"] as const };

/** GET /api/artist-applications/mine (null when they never applied). */
export function useMyApplication() {
  return useQuery({
    queryKey: myApplicationKeys.all,
    queryFn: async () =>
      (await apiFetch<ArtistApplicationResponse>("/api/artist-applications/mine")).data.application,
  });
}

/** POST /api/artist-applications */
export function useSubmitApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ArtistApplicationRequest) =>
      apiFetch("/api/artist-applications", { method: "POST", body: values }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: myApplicationKeys.all }),
  });
}
