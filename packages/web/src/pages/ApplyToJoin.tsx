import { useSession } from "../auth/session.ts";
import { Application } from "../features/artist-application/components/Application.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { Button } from "../ui/Button.tsx";
import { Loading } from "../ui/Loading.tsx";
import { useWalletDialog } from "../wallet/walletDialogState.tsx";

/** Artist application: completion view -> Edit -> form -> 'Thank you! we will be in touch soon.' */
export function Component() {
  usePageTitle("Apply to join");
  const { signedIn, isPending } = useSession();
  const { openWalletDialog } = useWalletDialog();
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Apply to join as an artist</h1>
      <p className="mt-3 text-neutral-600 dark:text-neutral-400">
        Verified artists mint their works on Easel. Tell us about you and your practice; the Easel team
        reviews every application.
      </p>
      <div className="mt-8">
        {isPending ? (
          <Loading label="Loading your session" />
        ) : signedIn ? (
          <Application />
        ) : (
          <div className="rounded-2xl border border-neutral-200 p-6 dark:border-neutral-800">
            <p>Connect your wallet and sign in to apply: your application is tied to your wallet address.</p>
            <Button className="mt-4" onClick={openWalletDialog}>
              Connect your wallet
            </Button>
          </div>
        )}
      </div>
    </section>
  );
}
