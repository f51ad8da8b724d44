import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { formatEther } from "viem";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { PersonName } from "../../../ui/PersonName.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useMinimums, useWalletBalance } from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import { BuyerTotal } from "./BuyerTotal.tsx";
import { useApprovalSteps } from "./FixedPriceScreens.tsx";
import {
  EthField,
  type Item,
  PriceLine,
  TradeNotice,
  TradeProgress,
  TradeScreen,
  tokenOf,
  useTradeAction,
} from "./TradeScreen.tsx";

export const OFFER_TEXT = {
  confirm: "Confirming...",
  // The spec's "Your Successfully Made an Offer", its evident misspelling corrected.
  made: "You Successfully Made an Offer",
  updated: "Your offer has been updated.",
  cancelled: "Your offer has been cancelled and refunded.",
  accepted: "You accepted the Offer successfully!",
  ownItem: "You own this item: offers are made by others.",
  beat: (current: bigint) => `Your offer must be more than the current offer of ${formatEther(current)} ETH`,
  noOffer: "There is no offer on this item to accept.",
  notOwner: "Only the owner of this item can accept an offer.",
  inAuction: "This item is in an auction: bid on it instead.",
} as const;

/** The live offer on an item (the market keeps one per item: the highest). */
const activeOffer = (item: Item) => item.nft.offers.find((o) => o.status === "active") ?? null;

/** /offer: 'Make an Offer', or 'Manage Offer' when the live offer is the viewer's (raise it or cancel it). */
export function OfferPage() {
  return (
    <TradeScreen
      title={({ item, me }) => (activeOffer(item)?.address === me ? "Manage Offer" : "Make an Offer")}
    >
      {({ item, me }) => <OfferForm item={item} me={me} />}
    </TradeScreen>
  );
}

function OfferForm({ item, me }: { item: Item; me: string }) {
  const id = useId();
  const market = useMarket();
  const minimums = useMinimums();
  const balance = useWalletBalance();
  const action = useTradeAction();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  if (action.steps)
    return <TradeProgress steps={action.steps} label="Your offer" success={action.success} item={item} />;
  if (item.nft.owner?.address === me) return <TradeNotice item={item}>{OFFER_TEXT.ownItem}</TradeNotice>;
  if (item.nft.auction) return <TradeNotice item={item}>{OFFER_TEXT.inAuction}</TradeNotice>;
  const current = activeOffer(item);
  const mine = current?.address === me;
  const currentWei = current ? BigInt(current.priceWei) : null;
  const minimum = minimums.data?.offer ?? null;
  const amount = parseEthAmount(text);
  const [collection, tokenId] = tokenOf(item);
  // The total shows once the typed offer is one the form would send (the leader sends the difference).
  const sendable =
    market &&
    minimum !== null &&
    amount !== null &&
    !priceError(text, minimum) &&
    (currentWei === null || amount > currentWei);
  const sent = amount !== null && mine && currentWei !== null ? amount - currentWei : amount;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!market || minimum === null) return;
    let problem = priceError(text, minimum);
    if (!problem && currentWei !== null && (amount as bigint) <= currentWei)
      problem = OFFER_TEXT.beat(currentWei);
    setError(problem);
    if (problem || amount === null) return;
    // The leader raising their own offer sends only the difference; everyone else sends the whole amount.
    const value = mine && currentWei !== null ? amount - currentWei : amount;
    await action.run(
      [
        writeStep(OFFER_TEXT.confirm, {
          ...market,
          functionName: "makeOffer",
          args: [collection, tokenId, amount],
          value,
        }),
      ],
      mine ? OFFER_TEXT.updated : OFFER_TEXT.made,
      { after: afterTrade.offered(me, amount) },
    );
  };
  const cancel = () =>
    market &&
    action.run(
      [
        writeStep(OFFER_TEXT.confirm, {
          ...market,
          functionName: "cancelOffer",
          args: [collection, tokenId],
        }),
      ],
      OFFER_TEXT.cancelled,
      { after: afterTrade.offerCancelled(me) },
    );

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      {current ? <PriceLine label={mine ? "Your offer" : "Current offer"} wei={current.priceWei} /> : null}
      <div className="flex justify-between text-sm">
        <span className="text-neutral-600 dark:text-neutral-400">Your balance</span>
        <span className="tabular-nums">{balance.data ? ethText(balance.data.value, 5) : "—"}</span>
      </div>
      <EthField
        id={id}
        label={mine ? "Your new offer" : "Your offer"}
        value={text}
        onChange={setText}
        error={error}
        wei={amount}
        hint={
          minimum === null
            ? "Reading the market's minimum..."
            : mine && currentWei !== null && amount !== null && amount > currentWei
              ? `You send the difference: ${ethText(amount - currentWei)}.`
              : `At least ${ethText(minimum)}${currentWei !== null ? `, and more than ${ethText(currentWei)}` : ""}. The amount is held by the market until the owner accepts or you cancel.`
        }
      />
      {sendable && sent !== null ? (
        <BuyerTotal
          label={mine ? "You send" : "Your offer"}
          wei={sent}
          source={{
            call: { ...market, functionName: "makeOffer", args: [collection, tokenId, amount], value: sent },
          }}
          account={me}
        />
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={!amount || minimum === null}>
          {mine ? "Update Offer" : "Make Offer"}
        </Button>
        {mine ? (
          <Button variant="secondary" onClick={cancel}>
            Cancel offer
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** /acceptOffer: the owner accepts the live offer (approving the market first when needed) or ignores it. */
export function AcceptOfferPage() {
  return (
    <TradeScreen title="Accept Offer">{({ item, me }) => <AcceptOffer item={item} me={me} />}</TradeScreen>
  );
}

function AcceptOffer({ item, me }: { item: Item; me: string }) {
  const market = useMarket();
  const navigate = useNavigate();
  const approval = useApprovalSteps(item, me);
  const action = useTradeAction();
  if (action.steps)
    return (
      <TradeProgress steps={action.steps} label="Accepting the offer" success={action.success} item={item} />
    );
  if (item.nft.owner?.address !== me) return <TradeNotice item={item}>{OFFER_TEXT.notOwner}</TradeNotice>;
  const offer = activeOffer(item);
  if (!offer) return <TradeNotice item={item}>{OFFER_TEXT.noOffer}</TradeNotice>;
  const accept = async () => {
    if (!market) return;
    await action.run(
      [
        ...approval,
        writeStep(OFFER_TEXT.confirm, {
          ...market,
          functionName: "acceptOffer",
          // The least accepted is the offer shown: if it changed meanwhile, the transaction fails instead.
          args: [...tokenOf(item), BigInt(offer.priceWei)],
        }),
      ],
      OFFER_TEXT.accepted,
      { toast: "Succeed", after: afterTrade.offerAccepted(offer.address, BigInt(offer.priceWei)) },
    );
  };
  return (
    <div className="flex flex-col gap-4">
      <PriceLine label="Offer" wei={offer.priceWei} />
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        From <PersonName person={offer.person} />. Accepting sells the item for this amount: Easel's fee and
        the creator's royalty are paid from it.
      </p>
      <div className="flex gap-2">
        <Button onClick={accept}>Accept</Button>
        <Button variant="secondary" onClick={() => navigate(-1)}>
          Ignore
        </Button>
      </div>
    </div>
  );
}
