import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { useChainNow } from "../../../web3/chainTime.ts";
import { useMarket } from "../../../web3/contracts.ts";
import { writeStep } from "../../../web3/tx/steps.ts";
import { endsIn } from "../../browse/components/NftCard.tsx";
import { itemPath } from "../../items/lib/paths.ts";
import { useWalletBalance } from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import { AUCTION_TEXT, RESERVE_HOURS } from "./auctionText.ts";
import { BuyerTotal } from "./BuyerTotal.tsx";
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

/** /Auction/placeBid and /Auction/placeBidReservedAuction (and /auction/buyStandard): bid, or raise one's bid. */
export function AuctionPlaceBidPage({ reserved }: { reserved: boolean }) {
  return (
    <TradeScreen title={reserved ? "Place a Bid in a Reserved Auction" : "Place a Bid"}>
      {({ item, me }) => <PlaceBid item={item} me={me} />}
    </TradeScreen>
  );
}

function PlaceBid({ item, me }: { item: Item; me: string }) {
  const id = useId();
  const market = useMarket();
  const balance = useWalletBalance();
  const action = useTradeAction();
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const auction = item.nft.auction;
  const endMs = auction?.endTime ? new Date(auction.endTime).getTime() : null;
  const now = useChainNow(endMs !== null);
  if (action.steps)
    return <TradeProgress steps={action.steps} label="Placing your bid" success={null} item={item} />;
  if (!auction) return <TradeNotice item={item}>{AUCTION_TEXT.noAuction}</TradeNotice>;
  if (auction.seller === me) return <TradeNotice item={item}>{AUCTION_TEXT.ownAuction}</TradeNotice>;
  if (endMs !== null && endMs <= now) return <TradeNotice item={item}>{AUCTION_TEXT.ended}</TradeNotice>;
  const minimum = BigInt(auction.minBidWei);
  const leading = auction.topBidder === me && auction.topBidWei !== null;
  const current = leading ? BigInt(auction.topBidWei as string) : 0n;
  const amount = parseEthAmount(text);
  const value = amount !== null ? amount - current : null;
  const insufficient = balance.data !== undefined && value !== null && balance.data.value < value;
  const minimumLine = AUCTION_TEXT.mustBid(ethText(minimum, 3));
  // The total shows once the typed bid is one the form would send.
  const sendable = market && amount !== null && value !== null && value > 0n && !priceError(text, minimum);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!market) return;
    let problem = priceError(text, minimum);
    if (problem?.startsWith("Price must")) problem = minimumLine;
    setError(problem);
    if (problem || amount === null || value === null) return;
    const ok = await action.run(
      [
        writeStep(AUCTION_TEXT.finalizing, {
          ...market,
          functionName: "placeBid",
          args: [...tokenOf(item), amount],
          // The leader raising their bid sends only the difference.
          value,
        }),
      ],
      AUCTION_TEXT.bidPlaced,
      { after: afterTrade.bid(me, amount) },
    );
    // The spec's bid flow ends on the item page.
    if (ok) navigate(itemPath(item));
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <PriceLine
        label={
          auction.topBidWei ? "Top bid" : auction.kind === "reserve" ? "Reserve price" : "Starting price"
        }
        wei={auction.topBidWei ?? auction.basePriceWei}
      />
      {endMs !== null ? (
        <p className="font-semibold tabular-nums">
          Auction ends in {endsIn(endMs, now).replace("Ends in ", "")}
        </p>
      ) : (
        <p className="text-sm text-neutral-600 dark:text-neutral-400">
          The auction starts with the first bid that meets the reserve, and lasts {RESERVE_HOURS} hours.
        </p>
      )}
      <div className="flex justify-between text-sm">
        <span className="text-neutral-600 dark:text-neutral-400">Your balance</span>
        <span className="tabular-nums">{balance.data ? ethText(balance.data.value, 3) : "—"}</span>
      </div>
      <EthField
        id={id}
        label="Your bid"
        value={text}
        onChange={setText}
        error={error}
        wei={amount}
        hint={
          leading && amount !== null && amount > current
            ? `You lead: you send the difference, ${ethText(amount - current)}.`
            : // A bid refused for being too low says the minimum once, as its error.
              error === minimumLine
              ? null
              : minimumLine
        }
      />
      {sendable ? (
        <BuyerTotal
          label={leading ? "You send" : "Your bid"}
          wei={value}
          source={{
            call: { ...market, functionName: "placeBid", args: [...tokenOf(item), amount], value },
          }}
          account={me}
        />
      ) : null}
      <Button type="submit" disabled={insufficient || !market}>
        {insufficient ? AUCTION_TEXT.insufficient : "Place a Bid"}
      </Button>
    </form>
  );
}
