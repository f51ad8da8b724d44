import type { CartItem, CartQuoteLine } from "@easel/common";
import { mediaUrl } from "@easel/common";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { errorMessage } from "../../../api/client.ts";
import { ethText } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { ExplorerLink, Stepper } from "../../../web3/tx/Stepper.tsx";
import { sentThenMined, writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { WithWallet } from "../../../web3/walletLoader.tsx";
import { useRefreshAfterTrade, useWalletBalance } from "../../trade/api/market.ts";
import { BuyerTotal } from "../../trade/components/BuyerTotal.tsx";
import { cartQuoteQueryOptions } from "../api/cart.ts";
import { buyManyCall } from "../lib/buyMany.ts";
import { type CartOutcome, cartOutcome } from "../lib/cartOutcome.ts";

const works = (n: number) => `${n} ${n === 1 ? "work" : "works"}`;

export const CHECKOUT_TEXT = {
  checking: "Checking every work on chain…",
  willBuy: (n: number) => `You will buy ${works(n)}`,
  cannotBuy: "Not bought (not for sale now)",
  nothing: "None of these works can be bought now.",
  priceLabel: (n: number) => `Price of ${works(n)}`,
  buy: (n: number) => `Buy ${works(n)} in one transaction`,
  insufficient: "Insufficient fund",
  confirm: "Confirm in your wallet",
  buying: (n: number) => `Buying ${works(n)}…`,
  stepper: "Buying the works",
  note: "One transaction: a work sold to someone else before it is mined is skipped, and its price comes back to you in the same transaction.",
  allBought: (n: number) => `You bought all ${works(n)}`,
  someBought: (k: number, n: number) => `You bought ${k} of ${works(n)}`,
  noneBought: (n: number) => `Nothing was bought: all ${works(n)} were skipped and refunded`,
  bought: "Bought",
  skipped: "Skipped and refunded",
  spent: "Spent",
  refunded: "Refunded to you",
  transaction: "Transaction",
  back: "Back",
  done: "Done",
  again: "Check again",
} as const;

/**
 * The checkout of a cart or a sweep: the server rechecks every work on chain and quotes them, the buyer sees
 * what will be bought, the total and the network fee, and ONE transaction `buyMany(listed, signed, false)`
 * sends the total through the app's transaction runner. After the receipt, what its events say: the works
 * bought and those skipped and refunded, with the amounts, and the transaction; a partial fill says so.
 */
export function Checkout(props: CheckoutProps) {
  // The header and the collection page do not load the wallet code: the checkout does, when it opens.
  return (
    <WithWallet fallback={<Loading label={CHECKOUT_TEXT.checking} />}>
      <CheckoutFlow {...props} />
    </WithWallet>
  );
}

type CheckoutProps = {
  buyer: string;
  items: readonly CartItem[];
  /** Called with the receipt's outcome (the cart drops the works bought). */
  onBought?: (outcome: CartOutcome) => void;
  onBack?: () => void;
  onRunningChange?: (running: boolean) => void;
};

function CheckoutFlow({ buyer, items, onBought, onBack, onRunningChange }: CheckoutProps) {
  const market = useMarket();
  const balance = useWalletBalance();
  const flow = useTransactionFlow();
  const refresh = useRefreshAfterTrade();
  const [outcome, setOutcome] = useState<CartOutcome | null>(null);
  // Asked afresh when the checkout opens, and kept as it is while the wallet flow runs.
  const quote = useQuery({
    ...cartQuoteQueryOptions(buyer, items),
    staleTime: 0,
    refetchOnMount: "always",
    refetchOnWindowFocus: false,
    enabled: items.length > 0 && !flow.running && outcome === null && flow.steps === null,
  });
  if (outcome) return <OutcomeView outcome={outcome} onDone={onBack} />;
  if (quote.isPending) return <Loading label={CHECKOUT_TEXT.checking} />;
  if (quote.isError)
    return (
      <div className="flex flex-col items-start gap-3">
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {errorMessage(quote.error)}
        </p>
        <Button variant="secondary" onClick={() => quote.refetch()}>
          {CHECKOUT_TEXT.again}
        </Button>
      </div>
    );
  const lines = quote.data.lines;
  const buyable = lines.filter((line) => line.priceWei !== null);
  const unavailable = lines.filter((line) => line.priceWei === null);
  const total = BigInt(quote.data.totalWei);
  const call = market && buyable.length > 0 ? buyManyCall(market, buyable, total) : null;
  const insufficient = balance.data !== undefined && balance.data.value < total;
  const buy = async () => {
    if (!call || !market) return;
    onRunningChange?.(true);
    try {
      const ok = await flow.run([
        writeStep(CHECKOUT_TEXT.buying(buyable.length), call, (receipt) => {
          const result = cartOutcome(receipt, market.address, buyer, buyable, total);
          setOutcome(result);
          onBought?.(result);
        }),
      ]);
      if (ok) void refresh();
    } finally {
      onRunningChange?.(false);
    }
  };
  return (
    <div className="flex min-w-0 flex-col gap-4">
      {buyable.length > 0 ? (
        <section aria-label={CHECKOUT_TEXT.willBuy(buyable.length)}>
          <h3 className="text-sm font-semibold">{CHECKOUT_TEXT.willBuy(buyable.length)}</h3>
          <ul className="mt-2 flex flex-col gap-2">
            {buyable.map((line) => (
              <QuoteLine key={`${line.collection}:${line.tokenId}`} line={line} />
            ))}
          </ul>
        </section>
      ) : (
        <p className="text-sm">{CHECKOUT_TEXT.nothing}</p>
      )}
      {unavailable.length > 0 ? (
        <section aria-label={CHECKOUT_TEXT.cannotBuy}>
          <h3 className="text-sm font-semibold">{CHECKOUT_TEXT.cannotBuy}</h3>
          <ul className="mt-2 flex flex-col gap-2">
            {unavailable.map((line) => (
              <QuoteLine key={`${line.collection}:${line.tokenId}`} line={line} />
            ))}
          </ul>
        </section>
      ) : null}
      {buyable.length > 0 ? (
        <>
          <BuyerTotal
            label={CHECKOUT_TEXT.priceLabel(buyable.length)}
            wei={total}
            source={call ? { call } : null}
            account={buyer}
          />
          <p className="text-xs text-neutral-600 dark:text-neutral-400">{CHECKOUT_TEXT.note}</p>
        </>
      ) : null}
      {flow.steps ? (
        <Stepper
          steps={sentThenMined(flow.steps[0], CHECKOUT_TEXT.confirm, CHECKOUT_TEXT.buying(buyable.length))}
          label={CHECKOUT_TEXT.stepper}
        />
      ) : null}
      <div className="flex flex-wrap gap-2">
        {onBack ? (
          <Button variant="secondary" onClick={onBack} disabled={flow.running}>
            {CHECKOUT_TEXT.back}
          </Button>
        ) : null}
        {buyable.length > 0 ? (
          <Button
            onClick={buy}
            disabled={!call || insufficient}
            loading={flow.running}
            loadingText={CHECKOUT_TEXT.buying(buyable.length)}
            className="flex-1"
          >
            {insufficient ? CHECKOUT_TEXT.insufficient : CHECKOUT_TEXT.buy(buyable.length)}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** A work of a quote: its picture, name, seller's price (ETH and USD), or why it cannot be bought. */
export function QuoteLine({ line }: { line: CartQuoteLine }) {
  const src = mediaUrl(line.image);
  return (
    <li className="flex min-w-0 items-center gap-3 rounded-xl border border-neutral-200 p-2 dark:border-neutral-800">
      {src ? (
        <img src={src} alt={line.name} className="size-12 shrink-0 rounded-lg object-cover" loading="lazy" />
      ) : (
        <span className="size-12 shrink-0 rounded-lg bg-neutral-100 dark:bg-neutral-800" />
      )}
      <span className="flex min-w-0 flex-1 flex-col">
        {line.path ? (
          <Link to={line.path} className="truncate text-sm font-semibold hover:underline">
            {line.name}
          </Link>
        ) : (
          <span className="truncate text-sm font-semibold">{line.name}</span>
        )}
        {line.message ? (
          <span className="text-xs text-neutral-600 dark:text-neutral-400">{line.message}</span>
        ) : null}
      </span>
      {line.priceWei ? (
        <span className="flex shrink-0 flex-col items-end text-sm">
          <span className="font-semibold tabular-nums">{ethText(line.priceWei)}</span>
          <UsdValue wei={line.priceWei} className="text-xs" />
        </span>
      ) : null}
    </li>
  );
}

/** What the receipt says: bought and skipped works with their amounts, spent and refunded, the transaction. */
function OutcomeView({ outcome, onDone }: { outcome: CartOutcome; onDone?: () => void }) {
  const { explorerUrl } = useAppConfig();
  const n = outcome.bought.length + outcome.skipped.length;
  const heading =
    outcome.skipped.length === 0
      ? CHECKOUT_TEXT.allBought(n)
      : outcome.bought.length === 0
        ? CHECKOUT_TEXT.noneBought(n)
        : CHECKOUT_TEXT.someBought(outcome.bought.length, n);
  return (
    <div className="flex min-w-0 flex-col gap-4" role="status" aria-live="polite">
      <h3 className="text-lg font-semibold">{heading}</h3>
      {outcome.bought.length > 0 ? (
        <section aria-label={CHECKOUT_TEXT.bought}>
          <h4 className="text-sm font-semibold">{CHECKOUT_TEXT.bought}</h4>
          <ul className="mt-1 flex flex-col gap-1 text-sm">
            {outcome.bought.map((work) => (
              <li key={`${work.collection}:${work.tokenId}`} className="flex justify-between gap-3">
                <WorkName name={work.name} path={work.path} />
                <span className="shrink-0 tabular-nums">{ethText(work.priceWei)}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {outcome.skipped.length > 0 ? (
        <section aria-label={CHECKOUT_TEXT.skipped}>
          <h4 className="text-sm font-semibold">{CHECKOUT_TEXT.skipped}</h4>
          <ul className="mt-1 flex flex-col gap-2 text-sm">
            {outcome.skipped.map((work) => (
              <li key={`${work.collection}:${work.tokenId}`} className="flex flex-col">
                <span className="flex justify-between gap-3">
                  <WorkName name={work.name} path={work.path} />
                  <span className="shrink-0 tabular-nums">{ethText(work.priceWei)} refunded</span>
                </span>
                <span className="text-xs text-neutral-600 dark:text-neutral-400">{work.reason}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <dl className="flex flex-col gap-1 text-sm">
        <div className="flex justify-between gap-3">
          <dt>{CHECKOUT_TEXT.spent}</dt>
          <dd className="tabular-nums">{ethText(outcome.spentWei)}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt>{CHECKOUT_TEXT.refunded}</dt>
          <dd className="tabular-nums">{ethText(outcome.refundedWei)}</dd>
        </div>
        <div className="flex flex-wrap justify-between gap-3">
          <dt>{CHECKOUT_TEXT.transaction}</dt>
          <dd className="min-w-0">
            <ExplorerLink hash={outcome.hash} explorerUrl={explorerUrl} />
          </dd>
        </div>
      </dl>
      {onDone ? (
        <Button variant="secondary" onClick={onDone} className="self-start">
          {CHECKOUT_TEXT.done}
        </Button>
      ) : null}
    </div>
  );
}

function WorkName({ name, path }: { name: string; path: string | null }) {
  return path ? (
    <Link to={path} className="min-w-0 truncate hover:underline">
      {name}
    </Link>
  ) : (
    <span className="min-w-0 truncate">{name}</span>
  );
}
