import { shortAddress } from "@easel/common";
import { lazy } from "react";
import { Link } from "react-router";
import { dateTimeText } from "../../../lib/dates.ts";
import { Button } from "../../../ui/Button.tsx";
import { WithWallet } from "../../../web3/walletLoader.tsx";
import { type CollectionOffer, useBuyerCollectionOffers } from "../api/collectionOffers.ts";
import { filledOf, offerAction, offerSummary, COLLECTION_OFFER_TEXT as T } from "../lib/collectionOffer.ts";

// Cancelling sends a transaction: the wallet code loads for the offerer alone.
const CancelCollectionOffer = lazy(() =>
  import("./CancelCollectionOffer.tsx").then((m) => ({ default: m.CancelCollectionOffer })),
);

const STATUS_LABELS: Record<CollectionOffer["status"], string> = {
  active: "Active",
  filled: "Filled",
  cancelled: "Cancelled",
  expired: "Expired",
};

/**
 * A profile's collection and trait offers (the person as buyer), newest first: the price of each work, what it
 * covers, how many were filled of how many, and its state; its owner cancels what is left of a live one or
 * withdraws an expired one. Nothing is drawn for someone without any.
 */
export function BuyerCollectionOffers({ address, isOwner }: { address: string; isOwner: boolean }) {
  const { data: offers } = useBuyerCollectionOffers(address);
  if (!offers?.length) return null;
  return (
    <section aria-labelledby="profile-collection-offers" className="mt-8 flex flex-col gap-3">
      <h2 id="profile-collection-offers" className="text-lg font-semibold">
        {T.profileHeading}
      </h2>
      <ul className="flex flex-col divide-y divide-neutral-200 rounded-2xl border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800">
        {offers.map((offer) => {
          const filled = filledOf(offer);
          const action = isOwner ? offerAction(offer, Date.now()) : null;
          return (
            <li key={offer.offerId} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="flex min-w-0 flex-col gap-0.5">
                <Link
                  to={`/collection/${offer.terms.collection}`}
                  className="font-semibold text-accent-700 hover:underline dark:text-accent-300"
                >
                  {offer.collectionName ?? shortAddress(offer.terms.collection)}
                </Link>
                <span className="text-sm tabular-nums">{offerSummary(offer)}</span>
                <span className="text-xs text-neutral-600 tabular-nums dark:text-neutral-400">
                  {STATUS_LABELS[offer.status]}
                  {filled === null ? "" : ` · ${T.filled(filled, offer.quantity)}`}
                  {offer.status === "active"
                    ? ` · until ${dateTimeText(Number(offer.terms.expiresAt) * 1000)}`
                    : ""}
                </span>
              </div>
              {action ? (
                <WithWallet
                  fallback={
                    <Button variant="secondary" disabled>
                      {action === "cancel" ? T.cancel : T.withdraw}
                    </Button>
                  }
                >
                  <CancelCollectionOffer offer={offer} action={action} />
                </WithWallet>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
