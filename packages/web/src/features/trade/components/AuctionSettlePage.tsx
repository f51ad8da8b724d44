import { useState } from "react";
import { ethText } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { PersonName } from "../../../ui/PersonName.tsx";
import { useChainNow } from "../../../web3/chainTime.ts";
import { useMarket } from "../../../web3/contracts.ts";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useMarketConfig } from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import { AUCTION_TEXT } from "./auctionText.ts";
import {
  type Item,
  PriceLine,
  TradeNotice,
  TradeProgress,
  TradeScreen,
  tokenOf,
  useTradeAction,
} from "./TradeScreen.tsx";

/** /Auction/settle: an ended auction with a winner; its payout, and Settle for whoever may settle (anyone). */
export function AuctionSettlePage() {
  return <TradeScreen title="Settle auction">{({ item, me }) => <Settle item={item} me={me} />}</TradeScreen>;
}

function Settle({ item, me }: { item: Item; me: string }) {
  const market = useMarket();
  const config = useMarketConfig();
  const action = useTradeAction();
  const auction = item.nft.auction;
  const now = useChainNow(true);
  // The NFT is the winner's once settled: anyone else who settles is sent to the item, not to "Your NFT".
  // Kept from the press: the settled item has no auction left to tell.
  const [winner, setWinner] = useState(false);
  if (action.steps)
    return (
      <TradeProgress
        steps={action.steps}
        label="Settling the auction"
        success={action.success}
        yours={winner}
        item={item}
      />
    );
  if (!auction?.topBidWei || !auction.topBidder)
    return <TradeNotice item={item}>{AUCTION_TEXT.noAuction}</TradeNotice>;
  const endMs = auction.endTime ? new Date(auction.endTime).getTime() : null;
  if (endMs === null || endMs > now) return <TradeNotice item={item}>{AUCTION_TEXT.notEnded}</TradeNotice>;
  const price = BigInt(auction.topBidWei);
  // The market's rule: the token's first sale through the market pays the primary commission, whoever
  // sells it; a royalty is owed whenever the seller is not the creator.
  const primary = item.priceHistory.length === 0;
  const feeBps = config.data
    ? BigInt(primary ? config.data.primaryFeeBps : config.data.secondaryFeeBps)
    : null;
  const fee = feeBps === null ? null : (price * feeBps) / 10_000n;
  const royalty =
    auction.seller === item.nft.creator.address
      ? 0n
      : (price * BigInt(Math.round(item.nft.royalty * 100))) / 10_000n;
  const proceeds = fee === null ? null : price - fee - royalty;
  const settle = async () => {
    if (!market) return;
    setWinner(auction.topBidder?.toLowerCase() === me);
    await action.run(
      [
        writeStep(AUCTION_TEXT.finalizing, {
          ...market,
          functionName: "completeAuction",
          args: [...tokenOf(item)],
        }),
      ],
      AUCTION_TEXT.settled,
      { after: afterTrade.settled() },
    );
  };
  return (
    <div className="flex flex-col gap-4">
      <p>
        Winner: <PersonName person={auction.topBidderPerson ?? { address: auction.topBidder }} you={me} />
      </p>
      <PriceLine label="Final price" wei={price} />
      <dl className="grid grid-cols-[1fr_auto] gap-y-1 text-sm">
        <dt className="text-neutral-600 dark:text-neutral-400">Easel's fee</dt>
        <dd className="tabular-nums">{ethText(fee)}</dd>
        {/* A primary sale (the creator sells) owes no royalty: no line of 0 ETH for it. */}
        {royalty === 0n
          ? null
          : item.nft.collaborators.map((c) => (
              <div key={c.address} className="contents">
                <dt className="text-neutral-600 dark:text-neutral-400">
                  Royalty to {c.username ?? c.address.slice(0, 8)} ({c.share}%)
                </dt>
                <dd className="tabular-nums">{ethText((royalty * BigInt(c.share)) / 100n)}</dd>
              </div>
            ))}
        <dt className="font-semibold">Seller receives</dt>
        <dd className="font-semibold tabular-nums">{ethText(proceeds)}</dd>
      </dl>
      <Button onClick={settle} className="self-start">
        Settle
      </Button>
    </div>
  );
}
