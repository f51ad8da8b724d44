import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { useConfig } from "wagmi";
import { readContract } from "wagmi/actions";
import { dateTimeText } from "../../../lib/dates.ts";
import { ethText, parseEthAmount } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { PersonName } from "../../../ui/PersonName.tsx";
import { chainNowSeconds, useChainNow } from "../../../web3/chainTime.ts";
import { useMarket } from "../../../web3/contracts.ts";
import { writeStep } from "../../../web3/tx/steps.ts";
import {
  currentOffers,
  ITEM_ACTION_TEXT,
  isExpiredOffer,
  isInAuction,
} from "../../items/components/ItemActions.tsx";
import { useChainOffer, useMinimums, useWalletBalance } from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import {
  type ChainOffer,
  chainOfferOf,
  DEFAULT_OFFER_DAYS,
  OFFER_AMOUNT_TEXT,
  OFFER_EXPIRY_CHOICES,
  type OfferExpiryDays,
  offerAmountError,
  offerExpiry,
  offerTerms,
  tooManyDecimals,
} from "../lib/offer.ts";
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
  withdrawn: "Your expired offer has been withdrawn and refunded.",
  accepted: "You accepted the Offer successfully!",
  ownItem: "You own this item: offers are made by others.",
  beat: OFFER_AMOUNT_TEXT.beat,
  decimals: OFFER_AMOUNT_TEXT.decimals,
  noOffer: "There is no offer on this item to accept.",
  notOwner: "Only the owner of this item can accept an offer.",
  inAuction: "This item is in an auction: bid on it instead.",
  expiresLegend: "Offer expires in",
  expiredOwn: (when: string, amount: bigint) =>
    `Your offer expired on ${when}: the owner can no longer accept it. Withdraw it to get your ${ethText(amount)} back, or renew it below: it counts towards your new offer.`,
  expiredOther: (when: string) =>
    `The current offer expired on ${when}: the owner can no longer accept it, and yours need not beat it.`,
  expiredAccept: (when: string) =>
    `This offer expired on ${when}: it can no longer be accepted. Its offerer can withdraw it, or make a new one.`,
} as const;

/** The offer the market holds on an item (one per item: the highest), live or expired. */
const activeOffer = (item: Item) => currentOffers(item.nft.offers)[0] ?? null;

/** The API's active offer in `getOffer`'s shape: the form's fallback when the chain cannot be read. */
const apiOffer = (item: Item): ChainOffer | null => {
  const offer = activeOffer(item);
  if (!offer) return null;
  return {
    buyer: offer.address.toLowerCase(),
    amount: BigInt(offer.priceWei),
    // An offer made before offers expired has no expiry: it stays live.
    expiresAt: offer.expiresAt ? BigInt(Math.floor(Date.parse(offer.expiresAt) / 1000)) : 2n ** 64n,
  };
};

const secondsText = (seconds: bigint) => dateTimeText(Number(seconds) * 1000);

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
  const wagmiConfig = useConfig();
  const minimums = useMinimums();
  const balance = useWalletBalance();
  const action = useTradeAction();
  const [collection, tokenId] = tokenOf(item);
  const chainOffer = useChainOffer(collection, tokenId);
  // The chain decides whether an offer has expired: its clock, not this computer's.
  const nowMs = useChainNow(true);
  const [text, setText] = useState("");
  const [days, setDays] = useState<OfferExpiryDays>(DEFAULT_OFFER_DAYS);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  if (action.steps)
    return <TradeProgress steps={action.steps} label="Your offer" success={action.success} item={item} />;
  if (item.nft.owner?.address === me) return <TradeNotice item={item}>{OFFER_TEXT.ownItem}</TradeNotice>;
  if (isInAuction(item)) return <TradeNotice item={item}>{OFFER_TEXT.inAuction}</TradeNotice>;
  // The market's offer (undefined while it is read); the API's when the chain cannot be read.
  const current: ChainOffer | null | undefined = chainOffer.data
    ? chainOfferOf(chainOffer.data)
    : chainOffer.isError
      ? apiOffer(item)
      : undefined;
  const terms = offerTerms(current ?? null, me, BigInt(Math.floor(nowMs / 1000)));
  const { mine, live, held } = terms;
  const currentWei = current?.amount ?? null;
  const minimum = minimums.data?.offer ?? null;
  const ready = minimum !== null && current !== undefined;
  const amount = parseEthAmount(text);
  // The total shows once the typed offer is one the form would send (the offerer sends the difference).
  const sendable = market && ready && amount !== null && !offerAmountError(text, minimum, terms, currentWei);
  const sent = amount !== null ? amount - held : null;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!market || !ready || checking) return;
    const problem = offerAmountError(text, minimum, terms, currentWei);
    setError(problem);
    if (problem || amount === null) return;
    // The expiry counts from the chain's latest block, and the offer to beat is the market's as of now.
    setChecking(true);
    const [now, fresh] = await Promise.all([
      chainNowSeconds(wagmiConfig, market.chainId).catch(() => BigInt(Math.floor(Date.now() / 1000))),
      readContract(wagmiConfig, { ...market, functionName: "getOffer", args: [collection, tokenId] })
        .then(chainOfferOf)
        .catch(() => current),
    ]);
    setChecking(false);
    const freshTerms = offerTerms(fresh, me, now);
    const late = offerAmountError(text, minimum, freshTerms, fresh?.amount ?? null);
    if (late) {
      setError(late);
      void chainOffer.refetch();
      return;
    }
    const expiresAt = offerExpiry(now, days);
    // The offerer (live or expired offer) sends only the difference; everyone else sends the whole amount.
    const value = amount - freshTerms.held;
    await action.run(
      [
        writeStep(OFFER_TEXT.confirm, {
          ...market,
          functionName: "makeOffer",
          args: [collection, tokenId, amount, expiresAt],
          value,
        }),
      ],
      freshTerms.mine ? OFFER_TEXT.updated : OFFER_TEXT.made,
      { after: afterTrade.offered(me, amount, new Date(Number(expiresAt) * 1000)) },
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
      live ? OFFER_TEXT.cancelled : OFFER_TEXT.withdrawn,
      { after: afterTrade.offerCancelled(me) },
    );

  const hint = !ready
    ? "Reading the market's minimum..."
    : mine && amount !== null && amount >= terms.floor && !tooManyDecimals(text)
      ? amount === held
        ? "You send nothing: your offer is renewed with the new expiry."
        : `You send the difference: ${ethText(amount - held)}.`
      : `At least ${ethText(minimum)}${
          live && currentWei !== null
            ? `, and more than ${ethText(currentWei)}`
            : mine && currentWei !== null
              ? `, and no less than your ${ethText(currentWei)}`
              : ""
        }, with at most 9 decimal places. The amount is held by the market until the owner accepts it or you withdraw it.`;

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      {current ? (
        <div className="flex flex-col gap-1">
          <PriceLine
            label={mine ? "Your offer" : live ? "Current offer" : "Expired offer"}
            wei={current.amount}
          />
          {live ? (
            <p className="text-right text-sm text-neutral-600 tabular-nums dark:text-neutral-400">
              Expires {secondsText(current.expiresAt)}
            </p>
          ) : (
            <p className="text-sm text-neutral-700 dark:text-neutral-300">
              {mine
                ? OFFER_TEXT.expiredOwn(secondsText(current.expiresAt), current.amount)
                : OFFER_TEXT.expiredOther(secondsText(current.expiresAt))}
            </p>
          )}
        </div>
      ) : null}
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
        hint={hint}
      />
      <OfferExpiryChoice name={`${id}-expiry`} days={days} onChange={setDays} />
      {sendable && sent !== null ? (
        <BuyerTotal
          label={mine ? "You send" : "Your offer"}
          wei={sent}
          source={{
            call: {
              ...market,
              functionName: "makeOffer",
              // For the network fee's estimate only: the expiry sent is counted from the chain at submit.
              args: [collection, tokenId, amount, offerExpiry(BigInt(Math.floor(nowMs / 1000)), days)],
              value: sent,
            },
          }}
          account={me}
        />
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={!amount || !ready} loading={checking}>
          {mine ? "Update Offer" : "Make Offer"}
        </Button>
        {mine ? (
          <Button variant="secondary" onClick={cancel}>
            {live ? "Cancel offer" : "Withdraw"}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** 'Offer expires in': a few plain durations, 7 days unless chosen otherwise. */
export function OfferExpiryChoice({
  name,
  days,
  onChange,
}: {
  name: string;
  days: OfferExpiryDays;
  onChange: (days: OfferExpiryDays) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1.5 text-sm font-semibold">{OFFER_TEXT.expiresLegend}</legend>
      <div className="flex flex-wrap gap-2">
        {OFFER_EXPIRY_CHOICES.map((choice) => {
          const checked = choice.days === days;
          return (
            <label
              key={choice.days}
              className={`flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-1.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent-600 ${
                checked ? "border-accent-600 font-semibold" : "border-neutral-300 dark:border-neutral-700"
              }`}
            >
              <input
                type="radio"
                name={name}
                value={choice.days}
                checked={checked}
                onChange={() => onChange(choice.days)}
                className="accent-accent-600"
              />
              {choice.label}
            </label>
          );
        })}
      </div>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">
        After that the owner can no longer accept it; you withdraw it to get your ETH back.
      </p>
    </fieldset>
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
  // An offer can be accepted until its expiry by the chain's clock.
  const nowMs = useChainNow(true);
  if (action.steps)
    return (
      <TradeProgress steps={action.steps} label="Accepting the offer" success={action.success} item={item} />
    );
  if (item.nft.owner?.address !== me) return <TradeNotice item={item}>{OFFER_TEXT.notOwner}</TradeNotice>;
  // An offer made before the auction stays, but the collection refuses its sale until the auction ends.
  if (isInAuction(item)) return <TradeNotice item={item}>{ITEM_ACTION_TEXT.inAuctionOffers}</TradeNotice>;
  const offer = activeOffer(item);
  if (!offer) return <TradeNotice item={item}>{OFFER_TEXT.noOffer}</TradeNotice>;
  if (isExpiredOffer(offer, nowMs) && offer.expiresAt)
    return <TradeNotice item={item}>{OFFER_TEXT.expiredAccept(dateTimeText(offer.expiresAt))}</TradeNotice>;
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
        From <PersonName person={offer.person} />.
        {offer.expiresAt ? ` It can be accepted until ${dateTimeText(offer.expiresAt)}.` : ""} Accepting sells
        the item for this amount: Easel's fee and the creator's royalty are paid from it.
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
