import { useId, useState } from "react";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useMinimums } from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import { auctionRefusal } from "./AuctionRefusal.tsx";
import { AUCTION_TEXT, RESERVE_HOURS } from "./auctionText.ts";
import { useApprovalSteps } from "./FixedPriceScreens.tsx";
import { EthField, type Item, TradeProgress, TradeScreen, tokenOf, useTradeAction } from "./TradeScreen.tsx";

/** /Auction/setReserved: the owner sets a reserve; the first bid that meets it starts a 72-hour auction. */
export function AuctionSetReservedPage() {
  return (
    <TradeScreen title="Set Reserved Auction">
      {({ item, me }) => <SetReserved item={item} me={me} />}
    </TradeScreen>
  );
}

function SetReserved({ item, me }: { item: Item; me: string }) {
  const id = useId();
  const market = useMarket();
  const minimums = useMinimums();
  const approval = useApprovalSteps(item, me);
  const action = useTradeAction();
  const [price, setPrice] = useState("");
  const [error, setError] = useState<string | null>(null);
  if (action.steps)
    return (
      <TradeProgress steps={action.steps} label="Setting your reserve" success={action.success} item={item} />
    );
  const refusal = auctionRefusal(item, me);
  if (refusal) return refusal;
  const minimum = minimums.data?.reserveAuction ?? null;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!market || minimum === null) return;
    const problem = priceError(price, minimum);
    setError(problem);
    if (problem) return;
    await action.run(
      [
        ...approval,
        writeStep(AUCTION_TEXT.confirming, {
          ...market,
          functionName: "setReserveAuction",
          args: [...tokenOf(item), parseEthAmount(price) as bigint],
        }),
      ],
      AUCTION_TEXT.reserveSet,
      { after: afterTrade.auctionSet(me, "reserve", parseEthAmount(price) as bigint, null) },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <EthField
        id={id}
        label="Reserve price"
        value={price}
        onChange={setPrice}
        error={error}
        wei={parseEthAmount(price)}
        hint={
          minimum === null
            ? "Reading the market's minimum..."
            : `At least ${ethText(minimum)}. The auction lasts ${RESERVE_HOURS} hours from the first bid that meets it.`
        }
      />
      <Button type="submit" disabled={minimum === null}>
        Set Auction
      </Button>
    </form>
  );
}
