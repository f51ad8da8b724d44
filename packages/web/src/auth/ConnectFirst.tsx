import { usePageTitle } from "../lib/usePageTitle.ts";
import { Button } from "../ui/Button.tsx";
import { useWalletDialog } from "../wallet/walletDialogState.tsx";

/** What a signed-out visitor sees on a page for members: the way to sign in, where they stand. */
export function ConnectFirst() {
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
