import { Link } from "react-router";
import { ProsePage, ProseSection } from "../ui/Prose.tsx";

/** The guides of the Help Center, in the order a newcomer meets them. */
export const HELP_GUIDES = [
  { id: "wallet", title: "Set up a wallet" },
  { id: "buying", title: "Buy a work" },
  { id: "auctions", title: "Bid in an auction" },
  { id: "offers", title: "Make an offer" },
  { id: "selling", title: "Sell a work you own" },
  { id: "creating", title: "Create and mint as an artist" },
  { id: "payments", title: "Fees, royalties and payments" },
  { id: "account", title: "Your account and safety" },
] as const;

/** /help: step-by-step guides (the FAQ answers single questions; this page walks through each task). */
export function Component() {
  const [wallet, buying, auctions, offers, selling, creating, payments, account] = HELP_GUIDES;
  return (
    <ProsePage
      title="Help Center"
      lead={
        <>
          Step-by-step guides to collecting and selling on Easel. Looking for a quick answer? Try the{" "}
          <Link to="/FAQ" className="text-accent-700 underline dark:text-accent-300">
            FAQs
          </Link>
          .
        </>
      }
    >
      <nav aria-label="Guides">
        <ul className="grid gap-2 sm:grid-cols-2">
          {HELP_GUIDES.map((guide) => (
            <li key={guide.id}>
              <a href={`#${guide.id}`} className="text-accent-700 underline dark:text-accent-300">
                {guide.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <ProseSection id={wallet.id} title={wallet.title}>
        <p>
          Easel works with a browser wallet such as MetaMask. Install it, create or import an account, and
          fund it with ETH. Then choose Connect Wallet at the top of any page and sign the message your wallet
          shows: the signature proves the address is yours and costs nothing.
        </p>
      </ProseSection>
      <ProseSection id={buying.id} title={buying.title}>
        <ul>
          <li>
            Open the <Link to="/ExploreNFTs">Marketplace</Link> and filter by Buy Now, price or category.
          </li>
          <li>
            On the work's page choose Buy Now, check the price and your balance, and confirm in your wallet.
          </li>
          <li>When the transaction is mined the work is yours; it shows on your profile at once.</li>
        </ul>
      </ProseSection>
      <ProseSection id={auctions.id} title={auctions.title}>
        <ul>
          <li>
            A standard auction starts at its starting price; a reserved auction starts with the first bid that
            meets the reserve and then runs for 72 hours.
          </li>
          <li>Every new bid must beat the last one by 10%. Your bid is held by the market contract.</li>
          <li>A bid in the last 15 minutes adds 15 minutes, so nobody wins by bidding in the last second.</li>
          <li>If someone outbids you, your bid comes back to your wallet at once and Easel notifies you.</li>
          <li>When the auction ends, the winner, the seller or anyone else can settle it.</li>
        </ul>
      </ProseSection>
      <ProseSection id={offers.id} title={offers.title}>
        <p>
          On a work that is not for sale, choose Make an Offer and how long it lasts (1 to 30 days; 7 unless
          you choose otherwise). The amount is held by the market until the owner accepts it or you cancel it.
          Raising your offer sends only the difference; a higher offer from someone else returns yours to your
          wallet. Once an offer expires the owner can no longer accept it: withdraw it to get your ETH back,
          or renew it.
        </p>
      </ProseSection>
      <ProseSection id={selling.id} title={selling.title}>
        <ul>
          <li>
            On a work you own, choose Set a Fixed Price or Start an Auction. The first time, your wallet asks
            you to approve the market for the collection; the work stays in your wallet until it sells.
          </li>
          <li>
            During an auction the work stays in your wallet, locked: it cannot be moved, listed or sold
            another way until the auction is settled or cancelled.
          </li>
          <li>Listings last 100 days. You can unlist, or cancel an auction until its first bid.</li>
          <li>To accept an offer, open the work and choose Accept Offer.</li>
        </ul>
      </ProseSection>
      <ProseSection id={creating.id} title={creating.title}>
        <p>
          Minting new works is for verified artists: <Link to="/applyToJoin">apply to join</Link>. Once
          approved, create a collection, then mint from the Create page, at once or lazily (the buyer mints
          the work when buying it). You can split the earnings of a work among up to five people and set a
          royalty.
        </p>
      </ProseSection>
      <ProseSection id={payments.id} title={payments.title}>
        <p>
          Easel takes a 10% commission on a work's first sale through the market. Later sales pay the
          creator's royalty. Payments go straight to the wallets; if a wallet refuses a payment, it waits for
          its owner as a credit under Setting, Offers, with a Withdraw button.
        </p>
      </ProseSection>
      <ProseSection id={account.id} title={account.title}>
        <p>
          Edit your profile and choose your notifications under Setting. Easel never asks for your recovery
          phrase. To report a profile, collection or work, use Report in its menu; for anything else,{" "}
          <Link to="/contactUs">contact us</Link>.
        </p>
      </ProseSection>
    </ProsePage>
  );
}
