import { useId, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ethText, parseEthAmount, priceError } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { inputClass } from "../../../ui/Field.tsx";
import { useChainNow } from "../../../web3/chainTime.ts";
import { useMarket } from "../../../web3/contracts.ts";
import { writeStep } from "../../../web3/tx/steps.ts";
import { endsIn } from "../../browse/components/NftCard.tsx";
import { itemPath, tradePath } from "../../items/lib/paths.ts";
import { useMarketConfig, useMinimums, useWalletBalance } from "../api/market.ts";
import { afterTrade } from "../lib/afterTrade.ts";
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

const DAY_S = 86_400;
/** The pickers' ranges (the spec's): a start up to 7 days ahead, an end up to 21 days after the start. */
const START_MAX_DAYS = 7;
const END_MAX_DAYS = 21;
/** The contract's longest auction. */
const MAX_DURATION_S = 14 * DAY_S;
const RESERVE_HOURS = 72;

export const AUCTION_TEXT = {
  approving: "Approving...",
  confirming: "Confirming...",
  finalizing: "Finalizing...",
  started: "Your auction has started.",
  reserveSet: "Your reserved auction is set: it starts with the first bid that meets the reserve.",
  bidPlaced: "Your bid has been placed.",
  baseChanged: "The starting price has been updated.",
  cancelled: "Your auction has been cancelled and the item returned to you.",
  settled: "The auction is settled: the item and the payment went where they are owed.",
  notOwner: "Only the owner of this item can put it in an auction.",
  noAuctionKind: "This item cannot be put in an auction on Easel.",
  notSeller: "Only the seller of this auction can manage it.",
  noAuction: "This item is not in an auction.",
  ownAuction: "This is your auction: you cannot bid on it.",
  ended: "This auction has ended.",
  hasBid: "The auction has a bid: it can no longer be changed or cancelled.",
  notEnded: "This auction has not ended yet.",
  startRange: `The start must be between now and ${START_MAX_DAYS} days ahead.`,
  endRange: "The end must be after the start, within 2 weeks of it.",
  mustBid: (min: string) => `Your must bid at least ${min}`,
  insufficient: "Insufficient fund",
} as const;

/** The auction kinds, as the chooser describes them (the standard one in the spec's words). */
const AUCTION_KINDS = [
  {
    flag: "auction",
    route: "Auction/setStandard",
    title: "Standard Auction",
    description: "You set the starting price, starting time, and ending time of the auction.",
  },
  {
    flag: "reserve",
    route: "Auction/setReserved",
    title: "Reserved Auction",
    description: `You set the reserve price; the first bid that meets it starts a ${RESERVE_HOURS}-hour auction.`,
  },
] as const;

/** /Auction/select: 'Select the Auction Type', offering the kinds the item's permission flags allow. */
export function AuctionSelectPage() {
  return (
    <TradeScreen title="Select the Auction Type" loading={<AuctionKindsSkeleton />}>
      {({ item, me }) => <SelectAuctionKind item={item} me={me} />}
    </TradeScreen>
  );
}

function SelectAuctionKind({ item, me }: { item: Item; me: string }) {
  if (item.nft.owner?.address !== me || item.nft.auction || item.nft.listing)
    return <TradeNotice item={item}>{AUCTION_TEXT.notOwner}</TradeNotice>;
  const kinds = AUCTION_KINDS.filter((kind) => item.permisionNft[kind.flag]);
  if (!kinds.length) return <TradeNotice item={item}>{AUCTION_TEXT.noAuctionKind}</TradeNotice>;
  return (
    <div className="flex flex-col gap-4">
      <ul className="grid gap-4 sm:grid-cols-2">
        {kinds.map((kind) => (
          <li key={kind.flag}>
            <Link
              to={tradePath(kind.route, item)}
              className="flex h-full flex-col gap-2 rounded-2xl border border-neutral-200 p-5 hover:border-accent-500 hover:bg-neutral-50 focus-visible:outline-2 dark:border-neutral-800 dark:hover:bg-neutral-900"
            >
              <span className="text-lg font-semibold">{kind.title}</span>
              <span className="text-sm text-neutral-600 dark:text-neutral-400">{kind.description}</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link
        to="/FAQ#faq-practical"
        className="self-start text-sm text-accent-700 underline dark:text-accent-300"
      >
        Read more about auction types
      </Link>
    </div>
  );
}

/** The chooser's shape while the item loads. */
function AuctionKindsSkeleton() {
  return (
    <section
      className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10"
      aria-busy="true"
      aria-label="Loading the auction types"
    >
      <div className="h-9 w-2/3 animate-pulse rounded-lg bg-neutral-200 dark:bg-neutral-800" />
      <div className="h-22 animate-pulse rounded-2xl bg-neutral-100 dark:bg-neutral-900" />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="h-28 animate-pulse rounded-2xl bg-neutral-100 dark:bg-neutral-900" />
        <div className="h-28 animate-pulse rounded-2xl bg-neutral-100 dark:bg-neutral-900" />
      </div>
    </section>
  );
}

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
  if (item.nft.owner?.address !== me || item.nft.auction)
    return <TradeNotice item={item}>{AUCTION_TEXT.notOwner}</TradeNotice>;
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
        {approval.length ? "Approve and start" : "Start auction"}
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
  return `${date.toLocaleString("en-US", {
    month: "2-digit",
    day: "2-digit",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    hour12: true,
  })}, your time`;
};

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
  if (item.nft.owner?.address !== me || item.nft.auction)
    return <TradeNotice item={item}>{AUCTION_TEXT.notOwner}</TradeNotice>;
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
        {approval.length ? "Approve and set reserve" : "Set reserve"}
      </Button>
    </form>
  );
}

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
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!market) return;
    let problem = priceError(text, minimum);
    if (problem?.startsWith("Price must")) problem = AUCTION_TEXT.mustBid(ethText(minimum, 3));
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
            : AUCTION_TEXT.mustBid(ethText(minimum, 3))
        }
      />
      <Button type="submit" disabled={insufficient || !market}>
        {insufficient ? AUCTION_TEXT.insufficient : "Place a Bid"}
      </Button>
    </form>
  );
}

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
  const cancel = () =>
    market &&
    action.run(
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
          <Button variant="danger" className="self-start" onClick={cancel}>
            Cancel auction
          </Button>
        </>
      )}
    </div>
  );
}

/** /Auction/settle: an ended auction with a winner; its payout, and Settle for whoever may settle (anyone). */
export function AuctionSettlePage() {
  return <TradeScreen title="Settle auction">{({ item }) => <Settle item={item} />}</TradeScreen>;
}

function Settle({ item }: { item: Item }) {
  const market = useMarket();
  const config = useMarketConfig();
  const action = useTradeAction();
  const auction = item.nft.auction;
  const now = useChainNow(true);
  if (action.steps)
    return (
      <TradeProgress steps={action.steps} label="Settling the auction" success={action.success} item={item} />
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
        Winner: <span className="font-mono">{auction.topBidder}</span>
      </p>
      <PriceLine label="Final price" wei={price} />
      <dl className="grid grid-cols-[1fr_auto] gap-y-1 text-sm">
        <dt className="text-neutral-600 dark:text-neutral-400">Easel's fee</dt>
        <dd className="tabular-nums">{ethText(fee)}</dd>
        {item.nft.collaborators.map((c) => (
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
