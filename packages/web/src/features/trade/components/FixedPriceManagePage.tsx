import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { dateText } from "../../../lib/dates.ts";
import { Button, buttonClass } from "../../../ui/Button.tsx";
import { CONFIRM_TEXT, ConfirmQuestion } from "../../../ui/ConfirmQuestion.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { apiStep, type TransactionStep, writeStep } from "../../../web3/tx/steps.ts";
import { tradePath } from "../../items/lib/paths.ts";
import { hideSignedListing } from "../api/signedListings.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import { FIXED_PRICE_TEXT } from "./FixedPriceScreens.tsx";
import { SIGNED_LISTING_TEXT, SignedListingsPanel } from "./SignedListingsPanel.tsx";
import {
  type Item,
  PriceLine,
  TradeNotice,
  TradeProgress,
  TradeScreen,
  tokenOf,
  useTradeAction,
} from "./TradeScreen.tsx";

export const MANAGE_TEXT = {
  bySignature: "Listed by signature",
  hide: "Hide listing",
  hideNote:
    "Takes the listing off Easel at once, with no gas. Your signature stays valid on chain until you cancel it: whoever kept a copy could still buy at this price.",
  hiding: "Hiding your listing",
  hidden: "Your listing is hidden on Easel. It stays valid on chain until you cancel it.",
  changePrice: "Change the price",
  changePriceNote:
    "Sign a new price, with no gas. A higher price leaves this listing valid on chain until you cancel it: Easel offers that cancel before you sign.",
  cancelNote: "One transaction: this listing can never be used again.",
  cancelAllNote: SIGNED_LISTING_TEXT.cancelAllNote,
  cancelAllQuestion: SIGNED_LISTING_TEXT.cancelAllQuestion,
} as const;

/** /FixedPrice/manage: the owner takes the item off the market (a signed listing: hidden, or cancelled on chain). */
export function FixedPriceManagePage() {
  return (
    <TradeScreen title="Manage your listing">
      {({ item, me }) => <ManageListing item={item} me={me} />}
    </TradeScreen>
  );
}

function ManageListing({ item, me }: { item: Item; me: string }) {
  const market = useMarket();
  const action = useTradeAction();
  const [asking, setAsking] = useState<"unlist" | "all" | null>(null);
  if (action.steps) {
    return (
      <TradeProgress steps={action.steps} label="Unlisting your NFT" success={action.success} item={item} />
    );
  }
  if (item.nft.owner?.address !== me)
    return <TradeNotice item={item}>{FIXED_PRICE_TEXT.notOwner}</TradeNotice>;
  const listing = item.nft.listing;
  const [collection, tokenId] = tokenOf(item);
  if (!listing) {
    // A hidden signed listing is off the item but still fillable: its seller can still make it unusable.
    return (
      <div className="flex flex-col gap-6">
        <TradeNotice item={item}>{FIXED_PRICE_TEXT.notListed}</TradeNotice>
        <SignedListingsPanel
          title={SIGNED_LISTING_TEXT.hiddenTitle}
          token={{ collection, tokenId: item.nft.tokenId }}
          onlyHidden
        />
      </div>
    );
  }
  const run = async (steps: TransactionStep[], message: string) => {
    const ok = await action.run(steps, message, { after: afterTrade.unlisted() });
    if (!ok) setAsking(null);
  };
  const cancel = (functionName: "cancelSellOrder" | "cancelSignedListing") =>
    market &&
    run(
      [writeStep(FIXED_PRICE_TEXT.unlisting, { ...market, functionName, args: [collection, tokenId] })],
      FIXED_PRICE_TEXT.unlisted,
    );
  const cancelAll = () =>
    market &&
    run(
      [
        writeStep(FIXED_PRICE_TEXT.unlisting, {
          ...market,
          functionName: "incrementListingCounter",
          args: [],
        }),
      ],
      SIGNED_LISTING_TEXT.cancelledAll,
    );
  const hide = (id: string) =>
    run([apiStep(MANAGE_TEXT.hiding, () => hideSignedListing(id))], MANAGE_TEXT.hidden);
  const signed = listing.kind === "signed";
  const unlistQuestion = (
    <ConfirmQuestion
      label="Unlist"
      question={FIXED_PRICE_TEXT.unlistQuestion}
      onYes={() => cancel(signed ? "cancelSignedListing" : "cancelSellOrder")}
      no={CONFIRM_TEXT.keep}
      onNo={() => setAsking(null)}
    />
  );
  return (
    <div className="flex flex-col gap-4">
      <PriceLine label="Listed at" wei={listing.priceWei} />
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        {signed ? `${MANAGE_TEXT.bySignature}, until` : "Listed until"} {dateText(listing.expiresAt)}.
      </p>
      {!signed ? (
        asking === "unlist" ? (
          unlistQuestion
        ) : (
          <Button variant="secondary" className="self-start" onClick={() => setAsking("unlist")}>
            Unlist
          </Button>
        )
      ) : (
        <div className="flex flex-col gap-3">
          <Choice note={MANAGE_TEXT.changePriceNote}>
            <Link to={tradePath("FixedPrice/set", item)} className={buttonClass("secondary")}>
              {MANAGE_TEXT.changePrice}
            </Link>
          </Choice>
          <Choice note={MANAGE_TEXT.hideNote}>
            <Button
              variant="secondary"
              disabled={!listing.signedId}
              onClick={() => listing.signedId && hide(listing.signedId)}
            >
              {MANAGE_TEXT.hide}
            </Button>
          </Choice>
          <Choice note={MANAGE_TEXT.cancelNote}>
            {asking === "unlist" ? (
              unlistQuestion
            ) : (
              <Button variant="secondary" onClick={() => setAsking("unlist")}>
                {SIGNED_LISTING_TEXT.cancelOne}
              </Button>
            )}
          </Choice>
          <Choice note={MANAGE_TEXT.cancelAllNote}>
            {asking === "all" ? (
              <ConfirmQuestion
                label={SIGNED_LISTING_TEXT.cancelAll}
                question={MANAGE_TEXT.cancelAllQuestion}
                onYes={cancelAll}
                no="Keep them"
                onNo={() => setAsking(null)}
              />
            ) : (
              <Button variant="secondary" onClick={() => setAsking("all")}>
                {SIGNED_LISTING_TEXT.cancelAll}
              </Button>
            )}
          </Choice>
        </div>
      )}
    </div>
  );
}

/** One way to take a signed listing back, with what it does said beside it. */
function Choice({ note, children }: { note: string; children: ReactNode }) {
  return (
    <div className="flex flex-col items-start gap-2 rounded-xl border border-neutral-200 p-4 dark:border-neutral-800">
      {children}
      <p className="text-sm text-neutral-600 dark:text-neutral-400">{note}</p>
    </div>
  );
}
