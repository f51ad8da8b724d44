import { useId, useState } from "react";
import { dateMinuteText } from "../../../lib/dates.ts";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { inputClass } from "../../../ui/Field.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useMarketConfig, useMinimums } from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
import { auctionRefusal } from "./AuctionRefusal.tsx";
import { AUCTION_TEXT, DAY_S, END_MAX_DAYS, MAX_DURATION_S, START_MAX_DAYS } from "./auctionText.ts";
import { useApprovalSteps } from "./FixedPriceScreens.tsx";
import { EthField, type Item, TradeProgress, TradeScreen, tokenOf, useTradeAction } from "./TradeScreen.tsx";

/** A datetime-local value (local time, minutes) for a date. */
const localInput = (date: Date) => {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/**
 * What is wrong with a standard auction's start and end (null when nothing), and the start and length they
 * give. The form opens with the current minute as its start (`openedAt`): that start, or any later one that
 * has passed by the time the form is sent, means now, as the contract reads a past start. Only a start
 * before the form opened is refused, so a seller who takes a while over the form is not told off for it.
 */
export function standardAuctionTimes(form: {
  start: string;
  end: string;
  openedAt: string;
  now: number;
  minDuration: number;
}) {
  const startMs = new Date(form.start).getTime();
  const endMs = new Date(form.end).getTime();
  const from = Math.max(startMs, form.now);
  const duration = Math.floor((endMs - from) / 1000);
  const start =
    Number.isNaN(startMs) ||
    startMs < new Date(form.openedAt).getTime() ||
    startMs > form.now + START_MAX_DAYS * DAY_S * 1000
      ? AUCTION_TEXT.startRange
      : null;
  const end =
    Number.isNaN(endMs) || duration > Math.min(MAX_DURATION_S, END_MAX_DAYS * DAY_S)
      ? AUCTION_TEXT.endRange
      : duration < form.minDuration
        ? `The auction must last at least ${Math.round(form.minDuration / 60)} minutes.`
        : null;
  return { start, end, startsNow: startMs <= form.now, startMs, from, duration };
}

/** /Auction/setStandard: the owner auctions the item from a starting price, between a start and an end. */
export function AuctionSetStandardPage() {
  return (
    <TradeScreen title="Set Standard Auction">
      {({ item, me }) => <SetStandard item={item} me={me} />}
    </TradeScreen>
  );
}

function SetStandard({ item, me }: { item: Item; me: string }) {
  const priceId = useId();
  const startId = useId();
  const endId = useId();
  const market = useMarket();
  const minimums = useMinimums();
  const config = useMarketConfig();
  const approval = useApprovalSteps(item, me);
  const action = useTradeAction();
  const [price, setPrice] = useState("");
  const [openedAt] = useState(() => localInput(new Date()));
  const [start, setStart] = useState(openedAt);
  const [end, setEnd] = useState(() => localInput(new Date(Date.now() + 7 * DAY_S * 1000)));
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  if (action.steps)
    return (
      <TradeProgress
        steps={action.steps}
        label="Starting your auction"
        success={action.success}
        item={item}
      />
    );
  const refusal = auctionRefusal(item, me);
  if (refusal) return refusal;
  const minimum = minimums.data?.standardAuction ?? null;
  const minDuration = config.data ? Number(config.data.minAuctionDuration) : null;
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!market || minimum === null || minDuration === null) return;
    const times = standardAuctionTimes({ start, end, openedAt, now: Date.now(), minDuration });
    const { from, duration } = times;
    const problems = { price: priceError(price, minimum), start: times.start, end: times.end };
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    await action.run(
      [
        ...approval,
        writeStep(AUCTION_TEXT.confirming, {
          ...market,
          functionName: "setStandardAuction",
          args: [
            ...tokenOf(item),
            parseEthAmount(price) as bigint,
            times.startsNow ? 0n : BigInt(Math.floor(times.startMs / 1000)),
            BigInt(duration),
          ],
        }),
      ],
      AUCTION_TEXT.started,
      {
        after: afterTrade.auctionSet(me, "standard", parseEthAmount(price) as bigint, {
          start: new Date(from),
          end: new Date(from + duration * 1000),
        }),
      },
    );
  };
  const now = new Date();
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <EthField
        id={priceId}
        label="Starting price"
        value={price}
        onChange={setPrice}
        error={errors.price ?? null}
        wei={parseEthAmount(price)}
        hint={minimum === null ? "Reading the market's minimum..." : `At least ${ethText(minimum)}.`}
      />
      <DateField
        id={startId}
        label="Starting time"
        value={start}
        onChange={setStart}
        min={openedAt}
        max={localInput(new Date(now.getTime() + START_MAX_DAYS * DAY_S * 1000))}
        error={errors.start ?? null}
      />
      <DateField
        id={endId}
        label="Ending time"
        value={end}
        onChange={setEnd}
        min={start}
        max={localInput(new Date(new Date(start).getTime() + END_MAX_DAYS * DAY_S * 1000))}
        error={errors.end ?? null}
      />
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        Each bid must top the last by 10%. A bid in the last 15 minutes adds 15 minutes. You can change the
        starting price or cancel until the first bid.
      </p>
      <Button type="submit" disabled={minimum === null}>
        List Your NFT
      </Button>
    </form>
  );
}

function DateField({
  id,
  label,
  value,
  onChange,
  min,
  max,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  min: string;
  max: string;
  error: string | null;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <input
        id={id}
        type="datetime-local"
        value={value}
        min={min}
        max={max}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-when`}
        className={`${inputClass} max-w-64`}
      />
      <p id={`${id}-when`} className="text-xs text-neutral-600 dark:text-neutral-400">
        {pickedTime(value)}
      </p>
      {error ? <p className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
    </div>
  );
}

/** The picked time as month/day/year with 12-hour time (the spec's format, whatever the browser's locale). */
const pickedTime = (value: string) => {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return `${dateMinuteText(date)}, your time`;
};
