import { Link } from "react-router";
import { useSession } from "../auth/session.ts";
import { NotificationList } from "../features/settings/components/Notifications.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { buttonClass } from "../ui/Button.tsx";

/** /notification: the signed-in user's notifications, with a way to change the email they go to. */
export function Component() {
  usePageTitle("Notifications");
  const { session, profile } = useSession();
  const userKey = profile?.username || session?.address || "";
  return (
    <section className="mx-auto w-full max-w-3xl px-4 py-12">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Notifications</h1>
        <Link to={`/profile/edit/${userKey}`} className={buttonClass("secondary")}>
          Edit Your Email
        </Link>
      </div>
      <NotificationList />
    </section>
  );
}
