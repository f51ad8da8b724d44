import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { toast } from "sonner";
import { useChainEvents } from "../../../api/live.ts";
import { headerDataKeys } from "../../../auth/headerData.ts";
import { SESSION_QUERY_KEY, useSession } from "../../../auth/session.ts";
import { notificationKeys, notificationsQuery } from "../../settings/api/notifications.ts";
import { tradeHistoryKeys } from "../api/history.ts";

/** Notification kinds that deserve a toast while the person is online. */
const TOASTED = new Set(["outbid", "offer_outbid"]);

/**
 * While signed in, follows the chain events about the account: the badge, the notification list and the
 * trading panels refresh, and an outbid bidder or offerer is told at once (the notification stays either way).
 */
export function AccountLive() {
  const { session } = useSession();
  const queryClient = useQueryClient();
  const toasted = useRef<Set<string> | null>(null);
  const account = session?.address.toLowerCase() ?? null;

  const newNotifications = async () => {
    // The notification list's own query, so a read already under way (a chain event's invalidation starts
    // one) is shared rather than sent twice.
    const data = await queryClient.fetchQuery(notificationsQuery());
    const unseen = data.notificationsTemp.filter((n) => !n.seen);
    // The first read only learns what was there before this page opened.
    const known = toasted.current;
    toasted.current = new Set([...(known ?? []), ...unseen.map((n) => n._id)]);
    return known ? unseen.filter((n) => !known.has(n._id)) : [];
  };

  useChainEvents(account ? { account } : null, () => {
    void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    void queryClient.invalidateQueries({ queryKey: headerDataKeys.all });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    void queryClient.invalidateQueries({ queryKey: tradeHistoryKeys.all });
    newNotifications()
      .then((fresh) => {
        for (const notification of fresh)
          if (TOASTED.has(notification.kind)) toast.warning(notification.message);
      })
      .catch(() => {});
  });
  // Learn the notifications already there (once per account), so only new ones are toasted.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new account starts over
  useEffect(() => {
    toasted.current = null;
    if (account) newNotifications().catch(() => {});
  }, [account]);
  return null;
}
