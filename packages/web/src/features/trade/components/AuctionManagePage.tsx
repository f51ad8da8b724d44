import { useId, useState } from "react";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { ConfirmQuestion } from "../../../ui/ConfirmQuestion.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useMinimums } from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import { AUCTION_TEXT } from "./auctionText.ts";
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

/** /Auction/manage and /Auction/manageReserved: before the first bid, change the start price or cancel. */
export function AuctionManagePage({ reserved }: { reserved: boolean }) {
  return (
    <TradeScreen title={reserved ? "Manage Reserved Auction" : "Manage Standard Auction"}>
      {({ item, me }) => <ManageAuction item={item} me={me} />}
    </TradeScreen>
  );
}

function ManageAuction({ item, me }: { item: Item; me: string }) {
  const id = useId();
  const market = useMarket();
  const minimums = useMinimums();
  const action = useTradeAction();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const auction = item.nft.auction;
  if (action.steps)
    return <TradeProgress steps={action.steps} label="Your auction" success={action.success} item={item} />;
  if (!auction) return <TradeNotice item={item}>{AUCTION_TEXT.noAuction}</TradeNotice>;
  if (auction.seller !== me) return <TradeNotice item={item}>{AUCTION_TEXT.notSeller}</TradeNotice>;
  const [collection, tokenId] = tokenOf(item);
  const minimum = minimums.data?.standardAuction ?? null;
  const update = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!market || minimum === null) return;
    const problem = priceError(text, minimum);
    setError(problem);
    if (problem) return;
    await action.run(
      [
        writeStep(AUCTION_TEXT.confirming, {
          ...market,
          functionName: "changeStandardAuctionBaseValue",
          args: [collection, tokenId, parseEthAmount(text) as bigint],
        }),
      ],
      AUCTION_TEXT.baseChanged,
      { after: afterTrade.baseChanged(parseEthAmount(text) as bigint) },
    );
  };
  const cancel = async () => {
    if (!market) return;
    const ok = await action.run(
      [
        writeStep(AUCTION_TEXT.confirming, {
          ...market,
          functionName: "invalidateAuction",
          args: [collection, tokenId],
        }),
      ],
      AUCTION_TEXT.cancelled,
      { after: afterTrade.auctionCancelled() },
    );
    if (!ok) setAsking(false);
  };
  const cancelLabel = auction.kind === "reserve" ? AUCTION_TEXT.cancelReserved : AUCTION_TEXT.cancelStandard;
  return (
    <div className="flex flex-col gap-5">
      <PriceLine
        label={
          auction.topBidWei ? "Top bid" : auction.kind === "reserve" ? "Reserve price" : "Starting price"
        }
        wei={auction.topBidWei ?? auction.basePriceWei}
      />
      {auction.topBidWei ? (
        <p className="text-sm text-neutral-700 dark:text-neutral-300">{AUCTION_TEXT.hasBid}</p>
      ) : (
        <>
          {auction.kind === "standard" ? (
            <form onSubmit={update} noValidate className="flex flex-col gap-3">
              <EthField
                id={id}
                label="New starting price"
                value={text}
                onChange={setText}
                error={error}
                wei={parseEthAmount(text)}
                hint={minimum === null ? "" : `At least ${ethText(minimum)}.`}
              />
              <Button type="submit" className="self-start">
                Update Starting Price
              </Button>
            </form>
          ) : null}
          {asking ? (
            <ConfirmQuestion
              label={cancelLabel}
              question={AUCTION_TEXT.cancelQuestion}
              onYes={cancel}
              onNo={() => setAsking(false)}
            />
          ) : (
            <Button variant="danger" className="self-start" onClick={() => setAsking(true)}>
              {cancelLabel}
            </Button>
          )}
        </>
      )}
    </div>
  );
}
