import { LISTING_DAYS } from "@easel/common";
import { useId, useState } from "react";
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
import { useMarketApproval, useMinimums, useRefreshAfterTrade, useWalletBalance } from "../api/market.ts";
import { fetchSignedListingFill, orderArgs, postSignedListing } from "../api/signedListings.ts";
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
  notListed: "This item is not listed at a fixed price.",
  ownItem: "You own this item.",
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
): StepStatus[] {
  const { approve, confirm, finalize } = FIXED_PRICE_TEXT.steps;
  const first = approving ? statuses[0] : undefined;
  const rest = approving ? statuses.slice(1) : statuses;
  const approval: StepStatus = first
    ? { ...first, label: approve }
    : { id: "approve", label: approve, state: "done" };
  if (method === "chain") return [approval, ...sentThenMined(rest[0], confirm, finalize)];
  const [sign, post] = rest;
  return [
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

function SetFixedPrice({ item, me }: { item: Item; me: string }) {
  const id = useId();
  const wagmiConfig = useConfig();
  const market = useMarket();
  const minimums = useMinimums();
  const approval = useApprovalSteps(item, me);
  const action = useTradeAction();
  const [text, setText] = useState("");
  const [method, setMethod] = useState<ListingMethod>("signed");
  const [running, setRunning] = useState<{ method: ListingMethod; approving: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const minimum = minimums.data?.listing ?? null;
  if (action.steps && running) {
    return (
      <TradeProgress
        steps={listingStepperSteps(action.steps, running.approving, running.method)}
        label={FIXED_PRICE_TEXT.stepperHeading}
        heading={FIXED_PRICE_TEXT.stepperHeading}
        success={action.success}
        item={item}
      />
    );
  }
  if (item.nft.owner?.address !== me)
    return <TradeNotice item={item}>{FIXED_PRICE_TEXT.notOwner}</TradeNotice>;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!market || minimum === null) return;
    const problem = priceError(text, minimum);
    setError(problem);
    if (problem) return;
    const price = parseEthAmount(text) as bigint;
    const { confirm, finalize } = FIXED_PRICE_TEXT.steps;
    const approving = approval.length > 0;
    setRunning({ method, approving });
    if (method === "chain") {
      await action.run(
        [
          ...approval,
          writeStep(confirm, { ...market, functionName: "setSellOrder", args: [...tokenOf(item), price] }),
        ],
        FIXED_PRICE_TEXT.listed,
        { after: afterTrade.listed(me, price, new Date(Date.now() + LISTING_DAYS * 86_400_000)) },
      );
      return;
    }
    const [collection, tokenId] = tokenOf(item);
    let signed: Awaited<ReturnType<typeof signListing>> | undefined;
    let created: Awaited<ReturnType<typeof postSignedListing>> | undefined;
    const steps: TransactionStep[] = [
      ...approval,
      signStep(confirm, async () => {
        signed = await signListing(wagmiConfig, market, {
          collection,
          tokenId,
          price,
          seller: me as `0x${string}`,
        });
      }),
      apiStep(finalize, async () => {
        if (!signed) throw new Error("The listing was not signed.");
        created = await postSignedListing(signed);
      }),
    ];
    await action.run(steps, FIXED_PRICE_TEXT.listed, {
      after: (nft) =>
        afterTrade.listed(
          me,
          price,
          new Date(Number(signed?.order.expiresAt ?? 0) * 1000),
          created?.id ?? null,
        )(nft),
    });
  };
  const approvalNeeded = approval.length > 0;
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <EthField
        id={id}
        label="Price"
        value={text}
        onChange={setText}
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
          onChange={setMethod}
          title={FIXED_PRICE_TEXT.bySignature}
        >
          {FIXED_PRICE_TEXT.bySignatureNote} {approvalNeeded ? FIXED_PRICE_TEXT.approvalNote : null}
        </ListingChoice>
        <ListingChoice
          name={`${id}-method`}
          value="chain"
          checked={method === "chain"}
          onChange={setMethod}
          title={FIXED_PRICE_TEXT.onChain}
        >
          {FIXED_PRICE_TEXT.onChainNote} {approvalNeeded ? FIXED_PRICE_TEXT.approvalNote : null}
        </ListingChoice>
      </fieldset>
      <Button type="submit" disabled={minimum === null}>
        {FIXED_PRICE_TEXT.submit}
      </Button>
      <SignedListingsPanel
        title={SIGNED_LISTING_TEXT.hiddenTitle}
        token={{ collection: item.nftCollection.contract_address, tokenId: item.nft.tokenId }}
        onlyHidden
      />
    </form>
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
      return writeStep(FIXED_PRICE_TEXT.buying, {
        ...bound,
        functionName: "fillSignedListing",
        args: [orderArgs(fill.order), fill.signature as `0x${string}`],
        value: price,
      });
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
            return {
              ...market,
              functionName: "fillSignedListing",
              args: [orderArgs(fill.order), fill.signature as `0x${string}`],
              value: price,
            };
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
