import { Outlet, ScrollRestoration, useMatches, useNavigation } from "react-router";
import { AccountWatcher } from "../auth/AccountWatcher.tsx";
import { EmailConfirmation } from "../features/settings/components/EmailConfirmation.tsx";
import { AccountLive } from "../features/trade/components/AccountLive.tsx";
import { WalletDialog } from "../wallet/WalletDialog.tsx";
import { Footer } from "./Footer.tsx";
import { Header } from "./Header.tsx";
import type { RouteHandle } from "./routes.tsx";

export function Layout() {
  const matches = useMatches();
  const navigation = useNavigation();
  const hideHeader = matches.some((match) => (match.handle as RouteHandle | undefined)?.hideHeader);

  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow dark:focus:bg-neutral-900"
      >
        Skip to content
      </a>
      {navigation.state === "loading" ? (
        <div
          className="fixed inset-x-0 top-0 z-50 h-0.5 animate-pulse bg-accent-500"
          role="progressbar"
          aria-label="Loading page"
        />
      ) : null}
      {hideHeader ? null : <Header />}
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <Footer />
      <WalletDialog />
      <AccountWatcher />
      <AccountLive />
      <EmailConfirmation />
      <ScrollRestoration />
    </div>
  );
}
