import { LISTING_DAYS } from "@easel/common";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { useConfig } from "wagmi";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { CONFIRM_TEXT } from "../../../ui/ConfirmQuestion.tsx";
import { collectionContract, useMarket } from "../../../web3/contracts.ts";
import {
  apiStep,
  type StepStatus,
  sentThenMined,
  signStep,
  type TransactionStep,
  writeStep,
} from "../../../web3/tx/steps.ts";
import { isInAuction } from "../../items/components/ItemActions.tsx";
import { useMarketApproval, useMinimums, useRefreshAfterTrade, useWalletBalance } from "../api/market.ts";
import {
  fetchSignedListingFill,
  fillCall,
  type MySignedListing,
  mySignedListingsQuery,
  postSignedListing,
  signedListingsBelow,
} from "../api/signedListings.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import { signListing } from "../lib/signedListing.ts";
import { BuyerTotal } from "./BuyerTotal.tsx";
import { SIGNED_LISTING_TEXT, SignedListingsPanel } from "./SignedListingsPanel.tsx";
import {
  EthField,
  type Item,
  TradeNotice,
  TradeProgress,
  TradeScreen,
  tokenOf,
  useTradeAction,
} from "./TradeScreen.tsx";

export const FIXED_PRICE_TEXT = {
  approving: "Approving...",
  confirming: "Confirming...",
  submit: "List Your NFT",
  stepperHeading: "Complete Your Listing",
  steps: { approve: "Approve", confirm: "Confirm", finalize: "Finalize" },
  bySignature: "List by signature",
  bySignatureNote:
    "Costs no gas: your wallet signs the listing and Easel shows it. The buyer's transaction moves the NFT and pays you.",
  approvalNote:
    "This collection is not approved for Easel's market yet: that approval is one transaction, once per collection.",
  onChain: "List on chain",
  onChainNote: "One transaction, paid in gas: the listing is recorded on the market contract.",
  listed: "Your NFT has been listed.",
  buying: "Confirming...",
  // The spec's success of Buy Now: 'Congratulations!' then 'Now you are the owner of item {name}'.
  congratulations: "Congratulations!",
  bought: (name: string) => `Now you are the owner of item ${name}`,
  gone: "This listing is no longer available.",
  priceChanged: "The price of this listing has changed. Check it and buy again.",
  unlistQuestion: CONFIRM_TEXT.unlist,
  unlisting: "Unlisting...",
  unlisted: "Your NFT has been unlisted.",
  insufficient: "Insufficient fund",
  notOwner: "Only the owner of this item can do this.",
  inAuction: "This item is in an auction: it cannot be listed until the auction is settled or cancelled.",
  notListed: "This item is not listed at a fixed price.",
  ownItem: "You own this item.",
} as const;

/** Prices as a sentence lists them: "0.5 ETH", "0.5 ETH and 0.6 ETH", "0.5 ETH, 0.6 ETH and 0.7 ETH". */
const priceList = (prices: readonly string[]) =>
  prices.length < 2 ? (prices[0] ?? "") : `${prices.slice(0, -1).join(", ")} and ${prices.at(-1)}`;

/** The distinct prices of signed listings, as the raise's sentences name them (the rows come lowest first). */
const pricesOf = (rows: readonly MySignedListing[]) => [
  ...new Set(rows.map((row) => ethText(row.order.price))),
];

/**
 * A new price above one of the seller's signed listings of the item: each lower one stays valid on chain (the
 * book only hides it) until `cancelSignedListing` voids every listing of the token. Said before signing, with
 * the cancel offered in the same flow (security review I-2).
 */
export const RAISE_TEXT = {
  title: (count: number) =>
    count === 1
      ? "Your listing at a lower price is still valid"
      : "Your listings at lower prices are still valid",
  stays: (prices: readonly string[]) =>
    prices.length === 1
      ? `Your listing at ${prices[0]} stays valid until it is cancelled on chain: anyone can still buy at that price.`
      : `Your listings at ${priceList(prices)} stay valid until they are cancelled on chain: anyone can still buy at those prices.`,
  advice: (count: number, method: ListingMethod) =>
    `${count === 1 ? "Cancel it on chain first (one transaction" : "Cancel them on chain first (one transaction for all of them"}, network fee) and then ${
      method === "signed" ? "sign the new price" : "list the new price on chain"
    }.`,
  cancelThen: { signed: "Cancel on chain, then sign", chain: "Cancel on chain, then list" },
  without: { signed: "Sign without cancelling", chain: "List without cancelling" },
  checking: "Checking your listings",
  cancelStep: (prices: readonly string[]) =>
    `Cancel on chain: your listing${prices.length === 1 ? "" : "s"} at ${priceList(prices)}`,
  notCancelled: (prices: readonly string[], method: ListingMethod) =>
    `${prices.length === 1 ? "Your listing" : "Your listings"} at ${priceList(prices)} ${
      prices.length === 1 ? "was" : "were"
    } not cancelled, and nothing was ${method === "signed" ? "signed" : "listed"}.`,
  cancelledOnly: (prices: readonly string[]) =>
    `${prices.length === 1 ? "Your listing" : "Your listings"} at ${priceList(prices)} ${
      prices.length === 1 ? "is" : "are"
    } cancelled on chain, but the new price is not listed yet: press ${FIXED_PRICE_TEXT.submit} to list it.`,
} as const;

/** The approval step, when the market may not move the owner's tokens of this collection yet. */
export function useApprovalSteps(item: Item, owner: string): TransactionStep[] {
  const { chainId } = useAppConfig();
  const market = useMarket();
  const approved = useMarketApproval(item.nftCollection.contract_address, owner, chainId);
  if (!market || approved.data === true) return [];
  return [
    writeStep(FIXED_PRICE_TEXT.approving, {
      ...collectionContract(item.nftCollection.contract_address as `0x${string}`, chainId),
      functionName: "setApprovalForAll",
      args: [market.address, true],
    }),
  ];
}

export type ListingMethod = "signed" | "chain";

/**
 * The spec's listing stepper (Approve, Confirm, Finalize) over the runner's steps: Approve is the collection's
 * approval (done already when it was not needed); signed, Confirm is the wallet's signature and Finalize the
 * API storing the order; on chain, Confirm is the transaction sent and Finalize its mining.
 */
export function listingStepperSteps(
  statuses: readonly StepStatus[],
  approving: boolean,
  method: ListingMethod,
  /** A raise that cancels the lower signed listings on chain first: that transaction is the first row. */
  cancelling = false,
): StepStatus[] {
  const { approve, confirm, finalize } = FIXED_PRICE_TEXT.steps;
  const cancel = cancelling ? statuses.slice(0, 1) : [];
  const listing = cancelling ? statuses.slice(1) : statuses;
  const first = approving ? listing[0] : undefined;
  const rest = approving ? listing.slice(1) : listing;
  const approval: StepStatus = first
    ? { ...first, label: approve }
    : { id: "approve", label: approve, state: "done" };
  if (method === "chain") return [...cancel, approval, ...sentThenMined(rest[0], confirm, finalize)];
  const [sign, post] = rest;
  return [
    ...cancel,
    approval,
    { id: sign?.id ?? "confirm", label: confirm, state: sign?.state ?? "waiting" },
    { id: post?.id ?? "finalize", label: finalize, state: post?.state ?? "waiting" },
  ];
}

/** /FixedPrice/set: the owner lists the item at a price, by signature (the default, no gas) or on chain. */
export function FixedPriceSetPage() {
  return (
    <TradeScreen title="Set a Fixed Price">
      {({ item, me }) => <SetFixedPrice item={item} me={me} />}
    </TradeScreen>
  );
}

/** The lower signed listings a new price would leave valid on chain, and what the seller chose about them. */
type Raise = { price: bigint; method: ListingMethod; lower: MySignedListing[]; error: string | null };

function SetFixedPrice({ item, me }: { item: Item; me: string }) {
  const id = useId();
  const wagmiConfig = useConfig();
  const queryClient = useQueryClient();
  const market = useMarket();
  const minimums = useMinimums();
  const approval = useApprovalSteps(item, me);
  const action = useTradeAction();
  const refresh = useRefreshAfterTrade();
  const [text, setText] = useState("");
  const [method, setMethod] = useState<ListingMethod>("signed");
  const [running, setRunning] = useState<{
    method: ListingMethod;
    approving: boolean;
    cancelling: boolean;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Reading the seller's signed listings of the item before anything is signed or sent.
  const [checking, setChecking] = useState(false);
  const [raise, setRaise] = useState<Raise | null>(null);
  // What happened to the form's last attempt, when the runner's toast is not the whole story.
  const [notice, setNotice] = useState<{ text: string; failed: boolean } | null>(null);
  const minimum = minimums.data?.listing ?? null;
  if (action.steps && running) {
    return (
      <TradeProgress
        steps={listingStepperSteps(action.steps, running.approving, running.method, running.cancelling)}
        label={FIXED_PRICE_TEXT.stepperHeading}
        heading={FIXED_PRICE_TEXT.stepperHeading}
        success={action.success}
        item={item}
      />
    );
  }
  if (item.nft.owner?.address !== me)
    return <TradeNotice item={item}>{FIXED_PRICE_TEXT.notOwner}</TradeNotice>;
  if (isInAuction(item)) return <TradeNotice item={item}>{FIXED_PRICE_TEXT.inAuction}</TradeNotice>;
  const [collection, tokenId] = tokenOf(item);
  const token = { collection: item.nftCollection.contract_address, tokenId: item.nft.tokenId };

  /**
   * Lists at `price`: first, when `cancel` names the seller's lower signed listings, `cancelSignedListing`
   * voids every listing of the token on chain (the collection counts one transfer), so the new order is
   * signed over the new transfer count, read again after the cancel.
   */
  const list = async (price: bigint, how: ListingMethod, cancel: MySignedListing[] | null) => {
    if (!market) return;
    const { confirm, finalize } = FIXED_PRICE_TEXT.steps;
    const approving = approval.length > 0;
    const prices = cancel ? pricesOf(cancel) : [];
    let cancelled = false;
    const cancelSteps: TransactionStep[] = cancel
      ? [
          writeStep(
            RAISE_TEXT.cancelStep(prices),
            { ...market, functionName: "cancelSignedListing", args: [collection, tokenId] },
            () => {
              cancelled = true;
            },
          ),
        ]
      : [];
    const transferCountAbove = cancel?.reduce(
      (highest, row) =>
        BigInt(row.order.transferCount) > highest ? BigInt(row.order.transferCount) : highest,
      0n,
    );
    setNotice(null);
    setRunning({ method: how, approving, cancelling: cancelSteps.length > 0 });
    let ok: boolean;
    if (how === "chain") {
      ok = await action.run(
        [
          ...cancelSteps,
          ...approval,
          writeStep(confirm, { ...market, functionName: "setSellOrder", args: [collection, tokenId, price] }),
        ],
        FIXED_PRICE_TEXT.listed,
        { after: afterTrade.listed(me, price, new Date(Date.now() + LISTING_DAYS * 86_400_000)) },
      );
    } else {
      let signed: Awaited<ReturnType<typeof signListing>> | undefined;
      let created: Awaited<ReturnType<typeof postSignedListing>> | undefined;
      const steps: TransactionStep[] = [
        ...cancelSteps,
        ...approval,
        signStep(confirm, async () => {
          signed = await signListing(
            wagmiConfig,
            market,
            { collection, tokenId, price, seller: me as `0x${string}` },
            { transferCountAbove },
          );
        }),
        apiStep(finalize, async () => {
          if (!signed) throw new Error("The listing was not signed.");
          created = await postSignedListing(signed);
        }),
      ];
      ok = await action.run(steps, FIXED_PRICE_TEXT.listed, {
        after: (nft) =>
          afterTrade.listed(
            me,
            price,
            new Date(Number(signed?.order.expiresAt ?? 0) * 1000),
            created?.id ?? null,
          )(nft),
      });
    }
    if (ok || !cancel) return;
    // The runner has said why in a toast; the form says where that leaves the seller's listings.
    if (cancelled) {
      // The cancel is on chain: the item and the seller's listings read again without the voided ones.
      void refresh();
      setRaise(null);
      setNotice({ text: RAISE_TEXT.cancelledOnly(prices), failed: false });
    } else setRaise({ price, method: how, lower: cancel, error: RAISE_TEXT.notCancelled(prices, how) });
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!market || minimum === null || checking) return;
    const problem = priceError(text, minimum);
    setError(problem);
    if (problem) return;
    const price = parseEthAmount(text) as bigint;
    setNotice(null);
    // Read now, not from the page's load: the seller may have cancelled or listed elsewhere since.
    setChecking(true);
    let lower: MySignedListing[];
    try {
      const mine = await queryClient.fetchQuery({ ...mySignedListingsQuery(), staleTime: 0 });
      lower = signedListingsBelow(mine.data, token, price);
    } catch (failure) {
      setNotice({ text: errorMessage(failure), failed: true });
      return;
    } finally {
      setChecking(false);
    }
    // A higher price leaves the lower listings buyable: the seller chooses first. A lower one is what buyers
    // will take, so there is nothing to say.
    if (lower.length > 0) setRaise({ price, method, lower, error: null });
    else await list(price, method, null);
  };
  const approvalNeeded = approval.length > 0;
  const choose = (next: ListingMethod) => {
    setMethod(next);
    setRaise(null);
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <EthField
        id={id}
        label="Price"
        value={text}
        onChange={(value) => {
          setText(value);
          setRaise(null);
        }}
        error={error}
        wei={parseEthAmount(text)}
        hint={
          minimum === null
            ? "Reading the market's minimum..."
            : `At least ${ethText(minimum)}. The listing lasts 100 days.`
        }
      />
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold">How to list</legend>
        <ListingChoice
          name={`${id}-method`}
          value="signed"
          checked={method === "signed"}
          onChange={choose}
          title={FIXED_PRICE_TEXT.bySignature}
        >
          {FIXED_PRICE_TEXT.bySignatureNote} {approvalNeeded ? FIXED_PRICE_TEXT.approvalNote : null}
        </ListingChoice>
        <ListingChoice
          name={`${id}-method`}
          value="chain"
          checked={method === "chain"}
          onChange={choose}
          title={FIXED_PRICE_TEXT.onChain}
        >
          {FIXED_PRICE_TEXT.onChainNote} {approvalNeeded ? FIXED_PRICE_TEXT.approvalNote : null}
        </ListingChoice>
      </fieldset>
      {raise ? (
        <RaiseChoice
          raise={raise}
          onCancelFirst={() => list(raise.price, raise.method, raise.lower)}
          onWithout={() => list(raise.price, raise.method, null)}
          onBack={() => {
            setRaise(null);
            document.getElementById(id)?.focus();
          }}
        />
      ) : (
        <Button
          type="submit"
          disabled={minimum === null}
          loading={checking}
          loadingText={RAISE_TEXT.checking}
        >
          {FIXED_PRICE_TEXT.submit}
        </Button>
      )}
      {notice ? (
        <p
          role={notice.failed ? "alert" : "status"}
          className={`text-sm ${notice.failed ? "text-red-700 dark:text-red-400" : "text-neutral-700 dark:text-neutral-300"}`}
        >
          {notice.text}
        </p>
      ) : null}
      <SignedListingsPanel
        title={SIGNED_LISTING_TEXT.hiddenTitle}
        token={{ collection: item.nftCollection.contract_address, tokenId: item.nft.tokenId }}
        onlyHidden
      />
    </form>
  );
}

/**
 * In place of the submit button, before anything is signed or sent: the seller's lower listings stay valid on
 * chain after a raise, in words, and the choice. Cancelling them on chain first is the primary answer (focus
 * lands on it); listing without cancelling keeps them buyable; Escape goes back to the price.
 */
function RaiseChoice({
  raise,
  onCancelFirst,
  onWithout,
  onBack,
}: {
  raise: Raise;
  onCancelFirst: () => void;
  onWithout: () => void;
  onBack: () => void;
}) {
  const id = useId();
  const primary = useRef<HTMLButtonElement>(null);
  useEffect(() => primary.current?.focus(), []);
  const prices = pricesOf(raise.lower);
  return (
    <div
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text${raise.error ? ` ${id}-error` : ""}`}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onBack();
        }
      }}
      className="flex flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <p id={`${id}-title`} className="font-semibold">
        {RAISE_TEXT.title(prices.length)}
      </p>
      <p id={`${id}-text`}>
        {RAISE_TEXT.stays(prices)} {RAISE_TEXT.advice(prices.length, raise.method)}
      </p>
      {raise.error ? (
        <p id={`${id}-error`} role="alert" className="font-semibold text-red-700 dark:text-red-300">
          {raise.error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button ref={primary} onClick={onCancelFirst}>
          {RAISE_TEXT.cancelThen[raise.method]}
        </Button>
        <Button variant="secondary" onClick={onWithout}>
          {RAISE_TEXT.without[raise.method]}
        </Button>
      </div>
    </div>
  );
}

/** One way to list: a radio named by its title, with what it costs said under it. */
function ListingChoice({
  name,
  value,
  checked,
  onChange,
  title,
  children,
}: {
  name: string;
  value: ListingMethod;
  checked: boolean;
  onChange: (value: ListingMethod) => void;
  title: string;
  children: React.ReactNode;
}) {
  const noteId = `${name}-${value}-note`;
  return (
    <label
      className={`flex items-start gap-3 rounded-xl border p-3 text-sm ${
        checked ? "border-accent-600" : "border-neutral-200 dark:border-neutral-800"
      }`}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={() => onChange(value)}
        aria-describedby={noteId}
        className="mt-1 accent-accent-600"
      />
      <span className="flex flex-col gap-1">
        <span className="font-semibold">{title}</span>
        <span id={noteId} className="text-neutral-600 dark:text-neutral-400">
          {children}
        </span>
      </span>
    </label>
  );
}

/** /FixedPrice/buy: anyone but the owner buys the listed item at its price. */
export function FixedPriceBuyPage() {
  return <TradeScreen title="Buy Now">{({ item, me }) => <BuyNow item={item} me={me} />}</TradeScreen>;
}

function BuyNow({ item, me }: { item: Item; me: string }) {
  const market = useMarket();
  const balance = useWalletBalance();
  const action = useTradeAction();
  const refresh = useRefreshAfterTrade();
  const [checking, setChecking] = useState(false);
  const [gone, setGone] = useState(false);
  const listing = item.nft.listing;
  if (action.steps) {
    return (
      <TradeProgress
        steps={action.steps}
        label="Buying the NFT"
        successHeading={FIXED_PRICE_TEXT.congratulations}
        success={action.success}
        item={item}
      />
    );
  }
  if (gone) return <TradeNotice item={item}>{FIXED_PRICE_TEXT.gone}</TradeNotice>;
  if (!listing) return <TradeNotice item={item}>{FIXED_PRICE_TEXT.notListed}</TradeNotice>;
  if (item.nft.owner?.address === me)
    return <TradeNotice item={item}>{FIXED_PRICE_TEXT.ownItem}</TradeNotice>;
  const price = BigInt(listing.priceWei);
  const insufficient = balance.data !== undefined && balance.data.value < price;
  /** A signed order is rechecked by the API right before the wallet opens: a stale one never reaches it. */
  const fillStep = async (bound: NonNullable<typeof market>) => {
    setChecking(true);
    try {
      const fill = await fetchSignedListingFill(item.nftCollection.contract_address, item.nft.tokenId);
      if (BigInt(fill.order.price) !== price) {
        toast.error(FIXED_PRICE_TEXT.priceChanged);
        void refresh();
        return null;
      }
      return writeStep(FIXED_PRICE_TEXT.buying, { ...bound, ...fillCall(fill), value: price });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        setGone(true);
        toast.error(FIXED_PRICE_TEXT.gone);
        void refresh();
      } else toast.error(errorMessage(error));
      return null;
    } finally {
      setChecking(false);
    }
  };
  const buy = async () => {
    if (!market) return;
    const step =
      listing.kind === "signed"
        ? await fillStep(market)
        : writeStep(FIXED_PRICE_TEXT.buying, {
            ...market,
            functionName: "buyNow",
            args: [...tokenOf(item)],
            value: price,
          });
    if (!step) return;
    await action.run([step], FIXED_PRICE_TEXT.bought(item.nft.name), {
      toast: `${FIXED_PRICE_TEXT.congratulations} ${FIXED_PRICE_TEXT.bought(item.nft.name)}`,
      after: afterTrade.bought(me),
    });
  };
  // The fee of the very call the wallet will get: a signed order is fetched (read only) to be estimated.
  const feeSource = !market
    ? null
    : listing.kind === "signed"
      ? {
          key: `fillSignedListing:${item.nftCollection.contract_address}:${item.nft.tokenId}:${price}`,
          makeCall: async () => {
            const fill = await fetchSignedListingFill(item.nftCollection.contract_address, item.nft.tokenId);
            return { ...market, ...fillCall(fill), value: price };
          },
        }
      : { call: { ...market, functionName: "buyNow", args: [...tokenOf(item)], value: price } };
  return (
    <div className="flex flex-col gap-4">
      <BuyerTotal label="Price" wei={price} source={feeSource} account={me} />
      <div className="flex justify-between text-sm">
        <span className="text-neutral-600 dark:text-neutral-400">Your balance</span>
        <span className="tabular-nums">{balance.data ? ethText(balance.data.value, 3) : "—"}</span>
      </div>
      <div className="flex justify-between text-sm">
        <span className="text-neutral-600 dark:text-neutral-400">Creator royalty on resales</span>
        <span className="tabular-nums">{item.nft.royalty}%</span>
      </div>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">
        By buying you agree to Easel's Terms of Service. The payment goes to the seller, the creator's royalty
        and Easel's fee in the same transaction.
      </p>
      <Button
        onClick={buy}
        disabled={insufficient || !market}
        loading={checking}
        loadingText="Checking the listing"
      >
        {insufficient ? FIXED_PRICE_TEXT.insufficient : "Buy Now"}
      </Button>
    </div>
  );
}
