import { Link } from "react-router";
import { ProsePage } from "../ui/Prose.tsx";

type Question = { q: string; a: React.ReactNode };

/** The three categories of the spec (general, technical, practical), each an accordion. */
export const FAQ_CATEGORIES: { id: string; title: string; questions: Question[] }[] = [
  {
    id: "general",
    title: "General",
    questions: [
      {
        q: "What is Easel?",
        a: "Easel is a marketplace for digital art on Ethereum. Artists mint their works as NFTs (ERC-721 tokens) and collectors buy them at a fixed price, in auctions or through offers. Every sale happens on chain, from wallet to wallet.",
      },
      {
        q: "Who can sell on Easel?",
        a: (
          <>
            Anyone with a wallet can create collections, resell works they own, bid and make offers. Minting
            new works is for verified artists: <Link to="/applyToJoin">apply to join</Link> and our team
            reviews your application.
          </>
        ),
      },
      {
        q: "What does Easel charge?",
        a: "Creating a collection and listing a work are free apart from network gas. On a work's primary sale (its first sale through Easel, whoever sells it) Easel takes a 10% commission of the final sale price; the rest goes to the artist and any collaborators in the split. Later sales pay the creator's royalty.",
      },
      {
        q: "Does Easel hold my art or my money?",
        a: "No. Easel is non-custodial: works stay in your wallet until they sell, and bids and offers are held by the market contract, not by a company account. The seller always sets the price.",
      },
    ],
  },
  {
    id: "technical",
    title: "Technical",
    questions: [
      {
        q: "Which wallet do I need?",
        a: "Any browser wallet that speaks to Ethereum, such as MetaMask. Connect it with the Connect Wallet button, then sign the welcome message. Signing costs nothing and sends no transaction; it proves that you hold the address.",
      },
      {
        q: "What is gas and why do I pay it?",
        a: "Gas is the fee the Ethereum network charges to record a transaction. Minting, listing, bidding, buying and cancelling are transactions and need gas; browsing, following, reporting and editing your profile do not.",
      },
      {
        q: "What is a lazy collection?",
        a: "In a lazy collection a work is only minted when someone buys it: the artist signs the listing, and the buyer's purchase mints the token and pays the artist in one transaction. A standard collection mints each token when it is created.",
      },
      {
        q: "Where are the images stored?",
        a: "Artwork and profile images are stored on IPFS, addressed by their content (a CID), so a file cannot be changed without its address changing too.",
      },
    ],
  },
  {
    id: "practical",
    title: "Practical",
    questions: [
      {
        q: "How do I buy my first work?",
        a: (
          <>
            Fund your wallet with ETH, open the <Link to="/ExploreNFTs">Marketplace</Link>, pick a work and
            choose Buy Now, place a bid on a live auction, or make an offer. Your wallet asks you to confirm
            every transaction.
          </>
        ),
      },
      {
        q: "What are the auction types?",
        a: "In a standard auction you set the starting price, starting time, and ending time; bids must start at the starting price. In a reserved auction you set a reserve price and nothing else: the first bid that meets it starts a 72-hour auction. In both, each new bid must beat the last by 10%.",
      },
      {
        q: "How do auctions end?",
        a: "A standard auction runs for its set time after it starts; a reserve auction starts with the first bid at or above the reserve. A bid in the last 15 minutes adds 15 minutes. When it ends, anyone can settle it, which sends the work to the winner and the funds to the seller.",
      },
      {
        q: "How do I change my profile or notifications?",
        a: "Open the account menu, choose Setting, and edit your name, username, bio, links, avatar and banner. Under Notifications you can read your notifications and choose which ones you receive.",
      },
      {
        q: "I found something that should not be here. What do I do?",
        a: (
          <>
            Use Report in the menu of the profile, collection or item. Our moderators review every report. For
            anything else, <Link to="/contactUs">get in touch</Link>.
          </>
        ),
      },
    ],
  },
];

export function Component() {
  return (
    <ProsePage title="Frequently Asked Questions" lead="Answers about Easel, wallets and collecting.">
      {FAQ_CATEGORIES.map((category) => (
        <section key={category.id} aria-labelledby={`faq-${category.id}`}>
          <h2 id={`faq-${category.id}`} className="text-xl font-semibold tracking-tight">
            {category.title}
          </h2>
          <div className="mt-3 divide-y divide-neutral-200 rounded-xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800">
            {category.questions.map((question) => (
              <details
                key={question.q}
                className="group px-4 [&_a]:text-accent-700 [&_a]:underline dark:[&_a]:text-accent-300"
              >
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 font-medium">
                  {question.q}
                  <svg
                    viewBox="0 0 24 24"
                    className="size-4 shrink-0 transition-transform group-open:rotate-180"
                    aria-hidden="true"
                  >
                    <path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" />
                  </svg>
                </summary>
                <p className="pb-4 leading-relaxed text-neutral-700 dark:text-neutral-300">{question.a}</p>
              </details>
            ))}
          </div>
        </section>
      ))}
    </ProsePage>
  );
}
