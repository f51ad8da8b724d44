import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  NOTIFICATION_FLAGS,
  type NotificationFlag,
  type NotificationPreferences,
} from "@easel/common";
import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { errorMessage } from "../../../api/client.ts";
import { useHeaderData } from "../../../auth/headerData.ts";
import { dateTimeText } from "../../../lib/dates.ts";
import { Button } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import {
  useMarkNotificationsSeen,
  useNotifications,
  useSaveNotificationPreferences,
} from "../api/notifications.ts";

/**
 * The notification list. Spec: loaded, then a seen update is dispatched (the header badge clears);
 * the entries that were new when the list opened keep their "New" marker while it is open. Each entry with
 * a page (the item sold, bid on or listed; a new follower's profile) is a link to it.
 */
export function NotificationList() {
  const list = useNotifications();
  const { mutate: markSeen } = useMarkNotificationsSeen();
  const markedFor = useRef<unknown>(null);
  useEffect(() => {
    if (!list.data || markedFor.current === list.data) return;
    markedFor.current = list.data;
    if (list.data.numberOfNewNotif === 0) return;
    // A failure is not worth a toast: the badge stays until the next visit.
    markSeen();
  }, [list.data, markSeen]);

  if (list.isPending) {
    return <Loading label="Loading notifications" />;
  }
  if (list.isError) return <p className="text-red-700 dark:text-red-400">{errorMessage(list.error)}</p>;
  const items = list.data.notificationsTemp;
  if (items.length === 0) {
    return <p className="text-neutral-600 dark:text-neutral-400">You have no notifications yet.</p>;
  }
  return (
    <ul
      className="divide-y divide-neutral-200 rounded-xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800"
      aria-label="Notifications"
    >
      {items.map((item) => (
        <li key={item._id} className="flex items-start gap-3 px-4 py-3">
          <span
            className={`mt-2 size-2 shrink-0 rounded-full ${item.seen ? "bg-transparent" : "bg-red-600"}`}
            aria-hidden="true"
          />
          <div className="flex-1">
            <p className="text-sm">
              {item.seen ? null : <span className="sr-only">New: </span>}
              {item.link ? (
                <Link to={item.link} className="hover:underline focus-visible:underline">
                  {item.message}
                </Link>
              ) : (
                item.message
              )}
            </p>
            <time
              dateTime={new Date(item.time * 1000).toISOString()}
              className="text-xs text-neutral-600 tabular-nums dark:text-neutral-400"
            >
              {dateTimeText(item.time * 1000)}
            </time>
          </div>
        </li>
      ))}
    </ul>
  );
}

export const FLAG_LABELS: Record<NotificationFlag, string> = {
  auction: "Auctions: bids, outbids and results of the auctions you take part in",
  fix: "Fixed price: sales and purchases at a fixed price, and new listings",
  offer: "Offers: offers on your items, and yours outbid or accepted",
  profile: "Profile: new followers, your artist application, your ENS name",
  favorite:
    "Favourites: when someone favourites one of your items, and when an item you favourited is listed, gets a bid, changes price or has an hour left at auction",
  ens: "ENS: when Easel removes an ENS name that no longer names your wallet",
  itemSold: "Item sold: when one of your items sells",
  bidActivity: "Bid activity: bids on your items",
  successfulPurchase: "Successful purchase: when your purchase completes",
  NewFollowerNotification: "New follower: when someone follows you",
  newNftListing: "New listing: when someone you follow lists an item",
  ownedItemUpdate: "Owned item update: offers and changes on items you own",
  email: "Also send my notifications by email (to the email in your profile)",
};

/** Manage Notification: the preference flags, saved with PUT /api/profile/notif_allow. */
export function ManageNotifications() {
  const header = useHeaderData();
  if (header.isPending) {
    return <Loading label="Loading preferences" />;
  }
  return <PreferencesForm initial={header.data?.notifAllow ?? DEFAULT_NOTIFICATION_PREFERENCES} />;
}

function PreferencesForm({ initial }: { initial: Record<string, boolean> }) {
  const [flags, setFlags] = useState<NotificationPreferences>({
    ...DEFAULT_NOTIFICATION_PREFERENCES,
    ...initial,
  });
  const save = useSaveNotificationPreferences();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(flags, {
          onSuccess: () => toast.success("Your notification settings are saved."),
          onError: (error) => toast.error(errorMessage(error)),
        });
      }}
      className="flex flex-col gap-5"
    >
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm text-neutral-600 dark:text-neutral-400">
          Choose which notifications you receive.
        </legend>
        {NOTIFICATION_FLAGS.map((flag) => (
          <label key={flag} className="flex items-start gap-3 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-accent-600"
              checked={flags[flag]}
              onChange={(event) => setFlags((current) => ({ ...current, [flag]: event.target.checked }))}
            />
            {FLAG_LABELS[flag]}
          </label>
        ))}
      </fieldset>
      <div>
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
      </div>
    </form>
  );
}
