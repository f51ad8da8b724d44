import type {
  EmailConfirm,
  FollowResponse,
  ProfileResponse,
  ProfileUpdate,
  ProfileUpdateResponse,
} from "@easel/common";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";
import { headerDataKeys } from "../../../auth/headerData.ts";
import { SESSION_QUERY_KEY } from "../../../auth/session.ts";

export type ProfileData = ProfileResponse["data"];

/** Profiles by user key (username or address, lowercased). */
export const profileKeys = {
  all: ["profile"] as const,
  of: (userkey: string) => ["profile", userkey.toLowerCase()] as const,
};

/** GET /api/profile?userkey= (username, address or ENS-style name). */
export function useProfile(userkey: string | null | undefined) {
  return useQuery({
    queryKey: profileKeys.of(userkey ?? ""),
    queryFn: async () =>
      (await apiFetch<ProfileResponse>(`/api/profile?userkey=${encodeURIComponent(userkey ?? "")}`)).data,
    enabled: !!userkey,
    retry: false,
  });
}

/** POST /api/profile/follow: toggles following; both profiles' counts change. */
export function useFollow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userAddress: string) =>
      apiFetch<FollowResponse>("/api/profile/follow", {
        method: "POST",
        body: { userAddress },
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: profileKeys.all }),
      ]),
  });
}

/** PUT /api/profile: saves the signed-in user's profile; the session and header show its name and avatar. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: ProfileUpdate) =>
      apiFetch<ProfileUpdateResponse>("/api/profile", { method: "PUT", body: values }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: headerDataKeys.all }),
        queryClient.invalidateQueries({ queryKey: profileKeys.all }),
      ]),
  });
}

/** POST /api/profile/email/confirmation: mails the confirmation link of the user's email again. */
export function useResendEmailConfirmation() {
  return useMutation({
    mutationFn: () => apiFetch<{ message: string }>("/api/profile/email/confirmation", { method: "POST" }),
  });
}

/** POST /api/profile/email/confirm: confirms the email with the signed values of the mail's link. */
export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: EmailConfirm) =>
      apiFetch<{ message: string }>("/api/profile/email/confirm", { method: "POST", body: values }),
    // A signed-in owner sees the email confirmed in Edit Profile at once.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: profileKeys.all }),
      ]),
  });
}
