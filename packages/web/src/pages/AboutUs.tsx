import { Link } from "react-router";
import { buttonClass } from "../ui/Button.tsx";
import { ProsePage, ProseSection } from "../ui/Prose.tsx";

/** About (Our Story). */
export function Component() {
  return (
    <ProsePage
      title="Our Story"
      lead="Easel is a marketplace for digital art on Ethereum, built for artists, collectors and artist foundations."
    >
      <ProseSection title="Where we come from">
        <p>
          Easel was established in June 2021 by people who had spent years between studios, galleries and
          software. We saw artists selling their first digital works on chain and collectors discovering them,
          and we saw how much of that experience was still noisy, confusing or built for traders rather than
          for art. We set out to make a quiet, well-lit room where the art is the loudest thing on the page.
        </p>
      </ProseSection>
      <ProseSection title="What happens on Easel">
        <ul>
          <li>
            <strong>Auctions.</strong> Standard and reserve auctions, with every bid placed and settled on the
            Ethereum network, so the outcome is public and final.
          </li>
          <li>
            <strong>Art finance.</strong> Royalties written into each token and payout splits between
            collaborators, paid automatically on every sale, so artists keep sharing in the life of their
            work.
          </li>
          <li>
            <strong>Private sales.</strong> Offers made directly to an owner, at a fixed price the seller
            sets, without an intermediary holding anyone's funds.
          </li>
        </ul>
      </ProseSection>
      <ProseSection title="How we work">
        <p>
          Easel is non-custodial: your art and your funds stay in your own wallet until a sale completes, and
          the seller always sets the price. Anyone can collect, resell and create collections; artists who
          have been verified by Easel can mint new works. Creating a collection or listing a work costs
          nothing but network gas, and Easel takes a 10% commission only on primary sales.
        </p>
      </ProseSection>
      <div className="flex flex-wrap gap-3">
        <Link to="/ExploreNFTs" className={buttonClass("primary")}>
          Browse The Market
        </Link>
        <Link to="/applyToJoin" className={buttonClass("secondary")}>
          Apply as an artist
        </Link>
      </div>
    </ProsePage>
  );
}
