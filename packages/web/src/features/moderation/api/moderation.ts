import type {
  AdminApplicationsResponse,
  AdminReportsResponse,
  AdminUser,
  AdminUsersResponse,
  ReportRequest,
} from "@easel/common";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";

/** The moderators' resources: reports, artist applications, users. */
export const moderationKeys = {
  reports: (status?: string) => (status ? (["reports", status] as const) : (["reports"] as const)),
  applications: (status?: string) =>
    status ? (["artist-applications", status] as const) : (["artist-applications"] as const),
  users: (q?: string, page?: number) =>
    q === undefined ? (["admin-users"] as const) : (["admin-users", q, page] as const),
};

/** GET /api/admin/reports?status=open|all */
export function useReports(status: "open" | "all") {
  return useQuery({
    queryKey: moderationKeys.reports(status),
    queryFn: async () =>
      (await apiFetch<AdminReportsResponse>(`/api/admin/reports?status=${status}`)).data.reports,
  });
}

/** PUT /api/admin/reports/:id: resolves or dismisses a report. */
export function useCloseReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, next }: { id: string; next: "resolved" | "dismissed" }) =>
      apiFetch(`/api/admin/reports/${id}`, { method: "PUT", body: { status: next } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKeys.reports() }),
  });
}

/** GET /api/admin/applications?status=pending|all */
export function useApplications(status: "pending" | "all") {
  return useQuery({
    queryKey: moderationKeys.applications(status),
    queryFn: async () =>
      (await apiFetch<AdminApplicationsResponse>(`/api/admin/applications?status=${status}`)).data
        .applications,
  });
}

/** POST /api/admin/applications/:id/approve (after the on-chain verification) */
export function approveApplication(id: string) {
  return apiFetch(`/api/admin/applications/${id}/approve`, { method: "POST", body: {} });
}

/** POST /api/admin/applications/:id/reject */
export function useRejectApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch(`/api/admin/applications/${id}/reject`, { method: "POST", body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKeys.applications() }),
  });
}

/** GET /api/admin/users?q=&page= */
export function useAdminUsers(q: string, page: number) {
  return useQuery({
    queryKey: moderationKeys.users(q, page),
    queryFn: async () =>
      (await apiFetch<AdminUsersResponse>(`/api/admin/users?q=${encodeURIComponent(q)}&page=${page}`)).data,
  });
}

/** POST /api/admin/users/:address/ban | unban: the account's standing on Easel (the chain's is set apart). */
export function setEaselBan(user: AdminUser, banned: boolean) {
  return apiFetch(`/api/admin/users/${user.address}/${banned ? "ban" : "unban"}`, {
    method: "POST",
    body: {},
  });
}

/** PUT /api/admin/users/:address/permission: how many lazy collections the user may own. */
export function useSetLazyAllowance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ address, lazyCollections }: { address: string; lazyCollections: number }) =>
      apiFetch(`/api/admin/users/${address}/permission`, { method: "PUT", body: { lazyCollections } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: moderationKeys.users() }),
  });
}

/** POST /api/reports: any member reports a profile, collection or item. */
export function submitReport(values: ReportRequest) {
  return apiFetch("/api/reports", { method: "POST", body: values });
}
