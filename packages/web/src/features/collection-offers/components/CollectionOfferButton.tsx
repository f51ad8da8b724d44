import { lazy, useState } from "react";
import { useSession } from "../../../auth/session.ts";
import { buttonClass } from "../../../ui/Button.tsx";
import { useWalletDialog } from "../../../wallet/walletDialogState.tsx";
import { WithWallet } from "../../../web3/walletLoader.tsx";
import { COLLECTION_OFFER_TEXT } from "../lib/collectionOffer.ts";
import type { CollectionOfferTarget } from "./CollectionOfferDialog.tsx";

// The dialog sends a transaction: it loads with the wallet code, when opened.
const CollectionOfferDialog = lazy(() =>
  import("./CollectionOfferDialog.tsx").then((m) => ({ default: m.CollectionOfferDialog })),
);

/**
 * "Make collection offer" on a collection page, or "Offer on every work with this trait" beside its trait
 * filter: opens the offer form (signing in first when needed).
 */
export function CollectionOfferButton({
  target,
  variant = "secondary",
}: {
  target: CollectionOfferTarget;
  variant?: "primary" | "secondary";
}) {
  const { session } = useSession();
  const { openWalletDialog } = useWalletDialog();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={buttonClass(variant)}
        onClick={() => (session ? setOpen(true) : openWalletDialog())}
      >
        {target.trait ? COLLECTION_OFFER_TEXT.traitButton : COLLECTION_OFFER_TEXT.make}
      </button>
      {open && session ? (
        <WithWallet fallback={null}>
          <CollectionOfferDialog target={target} me={session.address} open onOpenChange={setOpen} />
        </WithWallet>
      ) : null}
    </>
  );
}
