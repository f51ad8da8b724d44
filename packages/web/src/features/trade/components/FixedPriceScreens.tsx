import { LISTING_DAYS } from "@easel/common";
import { useId, useState } from "react";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { collectionContract, useMarket } from "../../../web3/contracts.ts";
import { type TransactionStep, writeStep } from "../../../web3/tx/steps.ts";
import { useMarketApproval, useMinimums, useWalletBalance } from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
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

export const FIXED_PRICE_TEXT = {
  approving: "Approving...",
  confirming: "Confirming...",
  listed: "Your NFT has been listed.",
  buying: "Confirming...",
  bought: (name: string) => `Now you are the owner of item ${name}`,
  unlistQuestion: "Are you going to unlist your item?",
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

/** /FixedPrice/set: the owner lists the item at a price (approving the market first when needed). */
export function FixedPriceSetPage() {
  return (
    <TradeScreen title="Set a Fixed Price">
      {({ item, me }) => <SetFixedPrice item={item} me={me} />}
    </TradeScreen>
  );
}

function SetFixedPrice({ item, me }: { item: Item; me: string }) {
  const id = useId();
  const market = useMarket();
  const minimums = useMinimums();
  const approval = useApprovalSteps(item, me);
  const action = useTradeAction();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const minimum = minimums.data?.listing ?? null;
  if (action.steps) {
    return (
      <TradeProgress steps={action.steps} label="Listing your NFT" success={action.success} item={item} />
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
    await action.run(
      [
        ...approval,
        writeStep(FIXED_PRICE_TEXT.confirming, {
          ...market,
          functionName: "setSellOrder",
          args: [...tokenOf(item), price],
        }),
      ],
      FIXED_PRICE_TEXT.listed,
      { after: afterTrade.listed(me, price, new Date(Date.now() + LISTING_DAYS * 86_400_000)) },
    );
  };
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
            : `At least ${ethText(minimum)}. Listing is free apart from gas; the listing lasts 100 days.`
        }
      />
      <Button type="submit" disabled={minimum === null}>
        {approval.length ? "Approve and list" : "List for sale"}
      </Button>
    </form>
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
  const listing = item.nft.listing;
  if (action.steps) {
    return <TradeProgress steps={action.steps} label="Buying the NFT" success={action.success} item={item} />;
  }
  if (!listing) return <TradeNotice item={item}>{FIXED_PRICE_TEXT.notListed}</TradeNotice>;
  if (item.nft.owner?.address === me)
    return <TradeNotice item={item}>{FIXED_PRICE_TEXT.ownItem}</TradeNotice>;
  const price = BigInt(listing.priceWei);
  const insufficient = balance.data !== undefined && balance.data.value < price;
  const buy = async () => {
    if (!market) return;
    await action.run(
      [
        writeStep(FIXED_PRICE_TEXT.buying, {
          ...market,
          functionName: "buyNow",
          args: [...tokenOf(item)],
          value: price,
        }),
      ],
      FIXED_PRICE_TEXT.bought(item.nft.name),
      { after: afterTrade.bought(me) },
    );
  };
  return (
    <div className="flex flex-col gap-4">
      <PriceLine label="Price" wei={price} />
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
      <Button onClick={buy} disabled={insufficient || !market}>
        {insufficient ? FIXED_PRICE_TEXT.insufficient : "Buy Now"}
      </Button>
    </div>
  );
}

/** /FixedPrice/manage: the owner takes the item off the market. */
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
  const [asking, setAsking] = useState(false);
  if (action.steps) {
    return (
      <TradeProgress steps={action.steps} label="Unlisting your NFT" success={action.success} item={item} />
    );
  }
  if (item.nft.owner?.address !== me)
    return <TradeNotice item={item}>{FIXED_PRICE_TEXT.notOwner}</TradeNotice>;
  if (!item.nft.listing) return <TradeNotice item={item}>{FIXED_PRICE_TEXT.notListed}</TradeNotice>;
  const unlist = async () => {
    if (!market) return;
    const ok = await action.run(
      [
        writeStep(FIXED_PRICE_TEXT.unlisting, {
          ...market,
          functionName: "cancelSellOrder",
          args: [...tokenOf(item)],
        }),
      ],
      FIXED_PRICE_TEXT.unlisted,
      { after: afterTrade.unlisted() },
    );
    if (!ok) setAsking(false);
  };
  return (
    <div className="flex flex-col gap-4">
      <PriceLine label="Listed at" wei={item.nft.listing.priceWei} />
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        Listed until {new Date(item.nft.listing.expiresAt).toLocaleDateString("en")}.
      </p>
      {asking ? (
        <div
          className="flex flex-col gap-3 rounded-xl border border-neutral-200 p-4 dark:border-neutral-800"
          role="alertdialog"
          aria-label="Unlist"
        >
          <p className="font-semibold">{FIXED_PRICE_TEXT.unlistQuestion}</p>
          <div className="flex gap-2">
            <Button variant="danger" onClick={unlist}>
              Yes
            </Button>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              Keep it in market
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="secondary" className="self-start" onClick={() => setAsking(true)}>
          Unlist
        </Button>
      )}
    </div>
  );
}
