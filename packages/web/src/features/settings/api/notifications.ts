import type { NotificationPreferences, NotificationsResponse } from "@easel/common";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../api/client.ts";
import { headerDataKeys } from "../../../auth/headerData.ts";
import { SESSION_QUERY_KEY } from "../../../auth/session.ts";

export const notificationKeys = { all: ["notifications"] as const };

/** GET /api/profile/notifications: the signed-in user's notifications, always fresh. */
export const notificationsQuery = () =>
  queryOptions({
    queryKey: notificationKeys.all,
    queryFn: async () => (await apiFetch<NotificationsResponse>("/api/profile/notifications")).data,
    staleTime: 0,
  });

export const useNotifications = () => useQuery(notificationsQuery());

/** PUT /api/profile/notifications/seen: clears the badge in the session and the header. */
export function useMarkNotificationsSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch("/api/profile/notifications/seen", { method: "PUT", body: {} }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: headerDataKeys.all }),
      ]),
  });
}

/** PUT /api/profile/notif_allow: the preferences live in the header data. */
export function useSaveNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (flags: NotificationPreferences) =>
      apiFetch("/api/profile/notif_allow", { method: "PUT", body: flags }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: headerDataKeys.all }),
  });
}
