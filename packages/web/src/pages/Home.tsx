import { Link } from "react-router";
import { FeaturedCollections } from "../features/browse/components/FeaturedCollections.tsx";
import { usePageTitle } from "../lib/usePageTitle.ts";
import { buttonClass } from "../ui/Button.tsx";

const STEPS = [
  {
    title: "Set up your wallet",
    body: "Install a browser wallet such as MetaMask, then press Connect Wallet and sign the welcome message.",
  },
  {
    title: "Fund your wallet with ETH",
    body: "Buying, bidding and offering are paid in ETH from your own wallet; Easel never holds your funds.",
  },
  {
    title: "Browse the market",
    body: "Discover artworks and collections, then buy at a fixed price, bid in auctions or make an offer.",
  },
] as const;

export function Component() {
  usePageTitle("Easel");
  return (
    <div className="mx-auto w-full max-w-7xl px-4">
      <section className="py-16 sm:py-24">
        <h1 className="max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
          Digital art, collected on Ethereum.
        </h1>
        <p className="mt-5 max-w-2xl text-lg text-neutral-600 dark:text-neutral-400">
          Easel is a marketplace for artists, collectors and artist foundations. You keep your art and your
          funds in your own wallet; the seller sets the price.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to="/ExploreNFTs" className={buttonClass("primary", "px-6 py-3 text-base")}>
            Browse The Market
          </Link>
          <a href="#how-to-get-started" className={buttonClass("secondary", "px-6 py-3 text-base")}>
            How to Get Started
          </a>
        </div>
      </section>

      <section
        aria-labelledby="featured-heading"
        className="border-t border-neutral-200 py-12 dark:border-neutral-800"
      >
        <h2 id="featured-heading" className="text-2xl font-bold tracking-tight">
          Featured collections
        </h2>
        <FeaturedCollections />
      </section>

      <section
        id="how-to-get-started"
        aria-labelledby="start-heading"
        className="scroll-mt-20 border-t border-neutral-200 py-12 dark:border-neutral-800"
      >
        <h2 id="start-heading" className="text-2xl font-bold tracking-tight">
          How to Get Started
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li
              key={step.title}
              className="rounded-2xl border border-neutral-200 p-6 dark:border-neutral-800"
            >
              <span className="flex size-9 items-center justify-center rounded-full bg-accent-100 font-semibold text-accent-700 tabular-nums dark:bg-accent-700/30 dark:text-accent-300">
                {index + 1}
              </span>
              <h3 className="mt-4 font-semibold">{step.title}</h3>
              <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400">{step.body}</p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
