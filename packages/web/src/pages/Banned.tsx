import { Link, Navigate } from "react-router";
import { ConnectFirst } from "../auth/ConnectFirst.tsx";
import { useSession } from "../auth/session.ts";
import { OpenOrdersSection } from "../features/trade/components/OpenOrdersSection.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { buttonClass } from "../ui/Button.tsx";
import { Loading } from "../ui/Loading.tsx";

/**
 * The banned notice. A suspended account keeps its wallet and tokens and can still take back what it
 * has on the market: its active listings, auctions without bids and live offers, read from the chain
 * tables (GET /api/profile/open-orders), each cancelled by one wallet transaction.
 */
export function Component() {
  const { signedIn, profile, isPending } = useSession();
  usePageTitle(signedIn || isPending ? "Account suspended" : "Connect your wallet");
  if (isPending) return <Loading label="Loading" size="page" />;
  // A visitor may be a suspended member whose session ended: signing in shows them their notice.
  if (!signedIn) return <ConnectFirst />;
  // The notice is for suspended accounts only: active members have nothing to see here.
  if (!profile || profile.active) return <Navigate to="/" replace />;
  return (
    <section className="mx-auto w-full max-w-4xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight">Your account has been disabled</h1>
      <p className="mt-4 max-w-2xl text-neutral-700 dark:text-neutral-300">
        Easel's moderators have suspended this account for a breach of the{" "}
        <Link to="/TermsOfServices" className="text-accent-700 underline dark:text-accent-300">
          Terms of Service
        </Link>
        . You cannot list, sell, bid or make offers on Easel while it is suspended. Your tokens stay in your
        wallet, and you can still cancel your listings and offers.
      </p>
      <p className="mt-3 text-neutral-700 dark:text-neutral-300">
        If you think this is a mistake, tell us through the contact page.
      </p>
      <Link to="/contactUs" className={buttonClass("secondary", "mt-6")}>
        Contact Easel
      </Link>
      <OpenOrdersSection />
    </section>
  );
}
