import { lazy, useState } from "react";
import { Outlet, ScrollRestoration, useMatches, useNavigation } from "react-router";
import { AccountWatcher } from "../auth/AccountWatcher.tsx";
import { AccountLive } from "../features/trade/components/AccountLive.tsx";
import { useWalletDialog } from "../wallet/walletDialogState.tsx";
import { WithWallet } from "../web3/walletLoader.tsx";
import { Footer } from "./Footer.tsx";
import { Header } from "./Header.tsx";

/** Route handle: pages that hide the header (spec: "The header is hidden on edit pages"). */
export type RouteHandle = { hideHeader?: boolean };

// The wallet dialog (sign-in messages, the Dev wallet) loads the first time someone opens it.
const WalletDialog = lazy(() =>
  import("../wallet/WalletDialog.tsx").then((m) => ({ default: m.WalletDialog })),
);

/** Mounts the wallet dialog once it has been opened, and keeps it mounted after. */
function LazyWalletDialog() {
  const { open } = useWalletDialog();
  const [opened, setOpened] = useState(false);
  if (open && !opened) setOpened(true);
  if (!open && !opened) return null;
  return (
    <WithWallet fallback={null}>
      <WalletDialog />
    </WithWallet>
  );
}

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
      {/* At least a screen tall: the footer starts below the fold, so pages filling in do not push it (layout shift). */}
      <main id="main" className="flex min-h-dvh flex-1 flex-col">
        <Outlet />
      </main>
      <Footer />
      <LazyWalletDialog />
      <AccountWatcher />
      <AccountLive />
      <ScrollRestoration />
    </div>
  );
}
