import { Link } from "react-router";
import { useSession } from "../auth/session.ts";
import { buttonClass } from "../components/Button.tsx";
import { usePageTitle } from "../components/ComingSoon.tsx";
import { AuctionsPanels, OffersPanels } from "../settings/HistoryPanels.tsx";

/**
 * The banned notice. A suspended account keeps its wallet and tokens; it can still withdraw what it has
 * on the market. Its listings and offers come from the chain data the API serves (the panels show the
 * empty text until the indexer's lists are served).
 */
export function Component() {
  usePageTitle("Account suspended");
  const { signedIn, profile } = useSession();
  const banned = signedIn && profile && !profile.active;
  return (
    <section className="mx-auto w-full max-w-4xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold tracking-tight">Your account is suspended</h1>
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
      {banned ? (
        <div className="mt-10 flex flex-col gap-5">
          <h2 className="text-xl font-semibold">Your listings and offers</h2>
          <OffersPanels />
          <AuctionsPanels />
        </div>
      ) : null}
    </section>
  );
}
