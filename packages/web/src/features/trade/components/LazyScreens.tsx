import { LAZY_EDIT_MESSAGES, LAZY_PRICE_MIN_WEI } from "@easel/common";
import { useId, useState } from "react";
import { toast } from "sonner";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { collectionContract } from "../../../web3/contracts.ts";
import { lazyMintGas } from "../../../web3/networkFee.ts";
import { apiStep, sentThenMined } from "../../../web3/tx/steps.ts";
import {
  editLazyPrice,
  fetchLazyMintVoucher,
  useMarketConfig,
  useMinimums,
  useRefreshAfterTrade,
  useWalletBalance,
} from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import { BuyerTotal } from "./BuyerTotal.tsx";
import {
  EthField,
  type Item,
  PriceLine,
  TradeNotice,
  TradeProgress,
  TradeScreen,
  useTradeAction,
} from "./TradeScreen.tsx";

export const LAZY_TEXT = {
  voucher: "Preparing your purchase...",
  confirmation: "Confirmation...",
  minting: "Minting...",
  owner: "Congratulations! Now you are owner of this NFT",
  bought: "You bought item successfully",
  insufficient: "Insufficient fund",
  notLazy: "This item is already minted: it is bought from its owner now.",
  notForSale: "This item is no longer for sale.",
  yours: "You created this item: a buyer mints it.",
} as const;

/** /lazyMint/buy: a buyer mints the lazy item to their wallet, paying its price, with a voucher for them alone. */
export function LazyMintBuyPage() {
  return (
    <TradeScreen title="Lazy Mint and Buy">{({ item, me }) => <LazyBuy item={item} me={me} />}</TradeScreen>
  );
}

function LazyBuy({ item, me }: { item: Item; me: string }) {
  const { chainId } = useAppConfig();
  const balance = useWalletBalance();
  const config = useMarketConfig();
  const action = useTradeAction();
  if (action.steps) {
    const [voucher, write] = action.steps;
    const steps = [
      ...(voucher ? [voucher] : []),
      ...sentThenMined(write, LAZY_TEXT.confirmation, LAZY_TEXT.minting),
    ];
    return <TradeProgress steps={steps} label="Minting your NFT" success={action.success} item={item} />;
  }
  if (item.nft.status !== "lazy" || !item.nft.priceWei)
    return <TradeNotice item={item}>{LAZY_TEXT.notLazy}</TradeNotice>;
  if (item.nft.creator.address === me) return <TradeNotice item={item}>{LAZY_TEXT.yours}</TradeNotice>;
  const price = BigInt(item.nft.priceWei);
  const insufficient = balance.data !== undefined && balance.data.value < price;
  const feePercent = config.data ? config.data.primaryFeeBps / 100 : null;
  const collection = item.nftCollection.contract_address as `0x${string}`;
  const buy = async () => {
    let voucher: Awaited<ReturnType<typeof fetchLazyMintVoucher>> | null = null;
    await action.run(
      [
        apiStep(LAZY_TEXT.voucher, async () => {
          voucher = await fetchLazyMintVoucher(collection, item.nft.tokenId);
        }),
        {
          kind: "write",
          label: LAZY_TEXT.confirmation,
          // Built when the step runs: the voucher arrives in the step before.
          get call() {
            const v = voucher as NonNullable<typeof voucher>;
            return {
              ...collectionContract(collection, chainId),
              functionName: "lazyMint",
              args: [
                {
                  tokenId: BigInt(v.tokenId),
                  price: BigInt(v.price),
                  royaltyBps: v.royaltyBps,
                  cid: v.cid as `0x${string}`,
                  collaborators: v.collaborators.map((c) => ({
                    account: c.account as `0x${string}`,
                    share: c.share,
                  })),
                  nonce: v.nonce,
                  deadline: BigInt(v.deadline),
                  signature: v.signature as `0x${string}`,
                },
              ],
              value: BigInt(v.price),
            };
          },
        },
      ],
      LAZY_TEXT.owner,
      { toast: LAZY_TEXT.bought, after: afterTrade.lazyBought(me) },
    );
  };
  return (
    <div className="flex flex-col gap-4">
      {/* The voucher is issued when the buyer presses Mint: the fee is the measured gas of a lazy mint. */}
      <BuyerTotal
        label="Price"
        wei={price}
        source={{ gas: lazyMintGas(Math.max(1, item.nft.collaborators.length)), chainId }}
        account={me}
      />
      <div className="flex justify-between text-sm">
        <span className="text-neutral-600 dark:text-neutral-400">Your balance</span>
        <span className="tabular-nums">{balance.data ? ethText(balance.data.value, 3) : "—"}</span>
      </div>
      <ul className="list-disc space-y-1 pl-5 text-sm text-neutral-700 dark:text-neutral-300">
        <li>The item is minted straight to your wallet when you pay: you become its first owner.</li>
        <li>
          The price goes to the creator{item.nft.collaborators.length > 1 ? " and their collaborators" : ""}
          {feePercent !== null ? `, minus Easel's ${feePercent}% fee` : ""}.
        </li>
        <li>The creator's royalty of {item.nft.royalty}% applies when you resell it.</li>
      </ul>
      <Button onClick={buy} disabled={insufficient}>
        {insufficient ? LAZY_TEXT.insufficient : "Mint"}
      </Button>
    </div>
  );
}

/** /lazyMint/changePrice: the creator changes a lazy item's minting price (an Easel record, no transaction). */
export function LazyMintChangePricePage() {
  return (
    <TradeScreen title="Edit Minting Price">
      {({ item, me }) => <EditPrice item={item} me={me} />}
    </TradeScreen>
  );
}

function EditPrice({ item, me }: { item: Item; me: string }) {
  const id = useId();
  const minimums = useMinimums();
  const refresh = useRefreshAfterTrade();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);
  if (done)
    return (
      <TradeProgress steps={[]} label="Minting price" success={LAZY_EDIT_MESSAGES.updated} item={item} />
    );
  if (item.nft.status !== "lazy") return <TradeNotice item={item}>{LAZY_EDIT_MESSAGES.minted}</TradeNotice>;
  if (item.nft.creator.address !== me)
    return <TradeNotice item={item}>{LAZY_EDIT_MESSAGES.notYours}</TradeNotice>;
  const chainMinimum = minimums.data?.lazyMint ?? null;
  const minimum =
    chainMinimum !== null && chainMinimum > LAZY_PRICE_MIN_WEI ? chainMinimum : LAZY_PRICE_MIN_WEI;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const problem = priceError(text, minimum);
    setError(problem);
    if (problem) return;
    setSaving(true);
    try {
      await editLazyPrice(
        item.nftCollection.contract_address,
        item.nft.tokenId,
        parseEthAmount(text) as bigint,
      );
      setDone(true);
      toast.success(LAZY_EDIT_MESSAGES.updated);
      void refresh();
    } catch (failure) {
      setError(failure instanceof ApiError ? (failure.fields?.price ?? null) : null);
      toast.error(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <PriceLine label="Current price" wei={item.nft.priceWei} />
      <EthField
        id={id}
        label="New price"
        value={text}
        onChange={setText}
        error={error}
        wei={parseEthAmount(text)}
        hint={`At least ${ethText(minimum)}.`}
      />
      <Button type="submit" loading={saving} loadingText="Updating...">
        Update Price
      </Button>
    </form>
  );
}
