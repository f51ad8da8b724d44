import { useEffect, useRef } from "react";
import { Navigate, Outlet } from "react-router";
import { toast } from "sonner";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { Button } from "../ui/Button.tsx";
import { Loading } from "../ui/Loading.tsx";
import { useWalletDialog } from "../wallet/walletDialogState.tsx";
import { useSession } from "./session.ts";

export const NOT_REGISTERED_MESSAGE = "you are not registered!";

/**
 * Guard for signed-in-only routes (spec: redirect to / with 'you are not registered!' when the profile is
 * not active). Signed out, it asks to connect a wallet instead of showing the page.
 */
export function RequireProfile() {
  const { isPending, signedIn, profile } = useSession();
  const warned = useRef(false);
  const inactive = signedIn && !profile?.active;

  useEffect(() => {
    if (inactive && !warned.current) {
      warned.current = true;
      toast.warning(NOT_REGISTERED_MESSAGE);
    }
  }, [inactive]);

  if (isPending) {
    return <Loading label="Loading" size="page" />;
  }
  if (!signedIn) return <ConnectFirst />;
  if (inactive) return <Navigate to="/" replace />;
  return <Outlet />;
}

function ConnectFirst() {
  const { openWalletDialog } = useWalletDialog();
  usePageTitle("Connect your wallet");
  return (
    <section className="mx-auto w-full max-w-xl px-4 py-16 text-center sm:py-24">
      <h1 className="text-3xl font-bold tracking-tight">Connect your wallet</h1>
      <p className="mt-4 text-neutral-600 dark:text-neutral-400">
        This page is for signed-in members. Connect your wallet and sign the welcome message to continue.
      </p>
      <Button className="mt-8" onClick={openWalletDialog}>
        Connect your wallet
      </Button>
    </section>
  );
}
