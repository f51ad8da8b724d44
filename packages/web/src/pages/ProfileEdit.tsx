import { useState } from "react";
import { Link, useLocation } from "react-router";
import { useAppConfig } from "../api/appConfig.tsx";
import { errorMessage } from "../api/client.ts";
import { useSession } from "../auth/session.ts";
import { useSignOut } from "../auth/useSignOut.ts";
import { useProfile } from "../features/profile/api/profile.ts";
import { EditProfileForm } from "../features/settings/components/EditProfileForm.tsx";
import { AuctionsPanels, OffersPanels } from "../features/settings/components/HistoryPanels.tsx";
import { ManageNotifications, NotificationList } from "../features/settings/components/Notifications.tsx";
import { CreditsPanel } from "../features/trade/components/CreditsPanel.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { Loading } from "../ui/Loading.tsx";
import { Logo } from "../ui/Logo.tsx";

type Section = "edit" | "offers" | "auctions" | "notifications" | "manageNotifications";

const TITLES: Record<Section, string> = {
  edit: "Edit Profile",
  offers: "Offers",
  auctions: "Auctions",
  notifications: "Notification List",
  manageNotifications: "Manage Notification",
};

/**
 * Profile settings (/profile/edit/{username or address}); opened with the navigation state
 * "listNotification" it starts on the notification list. The route is guarded, and the page always
 * edits the signed-in user's own profile (the server allows nothing else).
 */
export function Component() {
  const location = useLocation();
  const [section, setSection] = useState<Section>(
    location.state === "listNotification" ? "notifications" : "edit",
  );
  const [lastState, setLastState] = useState(location.key);
  if (lastState !== location.key) {
    // The header's Notification entry can be used while already on this page.
    setLastState(location.key);
    setSection(location.state === "listNotification" ? "notifications" : "edit");
  }
  usePageTitle(TITLES[section]);
  const signOut = useSignOut();

  const item = (key: Section, label: string, nested = false) => (
    <li>
      <button
        type="button"
        aria-current={section === key ? "page" : undefined}
        onClick={() => setSection(key)}
        className={`w-full rounded-lg px-3 py-2 text-left text-sm font-medium ${nested ? "pl-6" : ""} ${
          section === key
            ? "bg-accent-50 text-accent-700 dark:bg-accent-500/15 dark:text-accent-300"
            : "text-neutral-700 hover:bg-neutral-100 dark:text-neutral-300 dark:hover:bg-neutral-800"
        }`}
      >
        {label}
      </button>
    </li>
  );

  return (
    <div className="w-full">
      <div className="border-b border-neutral-200 dark:border-neutral-800">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4">
          <Logo />
          <Link
            to="/profile"
            className="text-sm font-medium text-accent-700 hover:underline dark:text-accent-300"
          >
            Back to profile
          </Link>
        </div>
      </div>
      <div className="mx-auto grid w-full max-w-7xl gap-8 px-4 py-10 md:grid-cols-[14rem_1fr]">
        <nav aria-label="Settings">
          <ul className="flex flex-col gap-1">
            {item("edit", "Edit Profile")}
            {item("offers", "Offers")}
            {item("auctions", "Auctions")}
            <li>
              <p className="px-3 pt-2 pb-1 text-sm font-medium text-neutral-500">Notifications</p>
              <ul className="flex flex-col gap-1">
                {item("notifications", "Notification List", true)}
                {item("manageNotifications", "Manage Notification", true)}
              </ul>
            </li>
            <li>
              <button
                type="button"
                onClick={() => void signOut()}
                className="w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10"
              >
                Log Out
              </button>
            </li>
          </ul>
        </nav>
        <section aria-labelledby="settings-title" className="min-w-0">
          <h1 id="settings-title" className="mb-6 text-2xl font-bold tracking-tight">
            {TITLES[section]}
          </h1>
          {section === "edit" ? <OwnProfileForm /> : null}
          {section === "offers" ? (
            <div className="flex flex-col gap-6">
              <OffersPanels />
              <CreditsPanel />
            </div>
          ) : null}
          {section === "auctions" ? <AuctionsPanels /> : null}
          {section === "notifications" ? <NotificationList /> : null}
          {section === "manageNotifications" ? <ManageNotifications /> : null}
        </section>
      </div>
    </div>
  );
}

function OwnProfileForm() {
  const { session } = useSession();
  const { ens } = useAppConfig();
  const profile = useProfile(session?.address);
  if (profile.isPending) {
    return <Loading label="Loading profile" />;
  }
  if (profile.isError) return <p className="text-red-700 dark:text-red-400">{errorMessage(profile.error)}</p>;
  return (
    <EditProfileForm
      key={profile.data.user._id ?? profile.data.user.address}
      user={profile.data.user}
      ensAvailable={ens}
    />
  );
}
