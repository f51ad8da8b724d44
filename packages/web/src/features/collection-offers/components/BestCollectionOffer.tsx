import { lazy } from "react";
import { useSession } from "../../../auth/session.ts";
import { dateTimeText } from "../../../lib/dates.ts";
import { ethText } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { PersonName } from "../../../ui/PersonName.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { WithWallet } from "../../../web3/walletLoader.tsx";
import { useBestCollectionOffer } from "../api/collectionOffers.ts";
import { COLLECTION_OFFER_TEXT as T } from "../lib/collectionOffer.ts";

// Accepting sends a transaction: the wallet code loads for the owner alone.
const AcceptCollectionOffer = lazy(() =>
  import("./AcceptCollectionOffer.tsx").then((m) => ({ default: m.AcceptCollectionOffer })),
);

/**
 * The item page's best collection offer: the highest live offer on any work of the collection, or on a trait
 * this work has, that its owner could accept now (none by the owner). Its owner accepts it here in one step.
 * Nothing is drawn when there is none, for a lazy item (nobody owns it yet), or for an item in an auction (its
 * collection refuses every sale but the auction's: the server has no offer for it either).
 */
export function BestCollectionOffer({
  collection,
  tokenId,
  owner,
  lazy: isLazy,
  inAuction = false,
}: {
  collection: string;
  tokenId: string;
  /** The owner's address, lowercase. */
  owner: string | null;
  lazy: boolean;
  inAuction?: boolean;
}) {
  const { session } = useSession();
  const best = useBestCollectionOffer(collection, tokenId, !isLazy && !inAuction);
  const found = best.data;
  // A cached answer from before the auction began is no offer to accept now.
  if (!found || inAuction) return null;
  const { offer } = found;
  const isOwner = !!session && !!owner && session.address.toLowerCase() === owner;
  return (
    <section
      aria-labelledby="best-collection-offer"
      className="flex flex-col gap-2 rounded-2xl border border-neutral-200 p-4 dark:border-neutral-800"
    >
      <h2 id="best-collection-offer" className="text-sm font-semibold text-neutral-600 dark:text-neutral-400">
        {T.bestHeading}
      </h2>
      <p className="flex flex-wrap items-baseline gap-2">
        <span className="text-2xl font-bold tabular-nums">{ethText(offer.terms.price)}</span>
        <UsdValue wei={offer.terms.price} className="text-sm" />
      </p>
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        From <PersonName person={offer.buyerPerson} />,{" "}
        {offer.trait
          ? `on every work with ${offer.trait.traitType}: ${offer.trait.traitValue}`
          : "on any work of the collection"}
        , for {offer.remaining} more {offer.remaining === 1 ? "work" : "works"}. It can be accepted until{" "}
        {dateTimeText(Number(offer.terms.expiresAt) * 1000)}.
      </p>
      {isOwner && session ? (
        <WithWallet fallback={<Button disabled>{T.accept}</Button>}>
          <AcceptCollectionOffer best={found} tokenId={tokenId} me={session.address} />
        </WithWallet>
      ) : null}
    </section>
  );
}
