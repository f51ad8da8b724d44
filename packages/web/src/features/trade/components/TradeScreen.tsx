import type { ItemResponse } from "@easel/common";
import { mediaUrl } from "@easel/common";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { ApiError, errorMessage } from "../../../api/client.ts";
import { useSession } from "../../../auth/session.ts";
import { ethText } from "../../../lib/eth.ts";
import { usePageTitle } from "../../../lib/usePageTitle.ts";
import { buttonClass } from "../../../ui/Button.tsx";
import { inputClass } from "../../../ui/Field.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { NotFound } from "../../../ui/NotFound.tsx";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import type { StepStatus, TransactionStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { itemKeys, useItem, useLiveItem } from "../../items/api/items.ts";
import { itemPath, useItemKey } from "../../items/lib/paths.ts";
import { useRefreshAfterTrade } from "../api/market.ts";
import type { AfterTrade } from "../lib/afterTrade.ts";

export type Item = ItemResponse["data"];

/** What a trading screen knows: the item (from its URL) and the signed-in account (lowercase). */
export type TradeContext = { item: Item; me: string };

/**
 * The frame of every trading page: loads the item its URL names (not found otherwise), shows what is being
 * traded, refuses blocked items with a notice, and hands the item and the viewer to the screen.
 */
export function TradeScreen({
  title,
  loading,
  children,
}: {
  /** The page's heading; it may depend on the item and the viewer (Make an Offer / Manage Offer). */
  title: string | ((context: TradeContext) => string);
  /** What shows while the item loads, when a spinner is not the right wait (a skeleton of the screen). */
  loading?: ReactNode;
  children: (context: TradeContext) => ReactNode;
}) {
  const key = useItemKey();
  const query = useItem(key);
  const { session } = useSession();
  const me = session?.address.toLowerCase() ?? "";
  const heading = typeof title === "string" ? title : query.data ? title({ item: query.data, me }) : "";
  usePageTitle(heading || "Trade");
  if (query.isPending) return loading ?? <Loading label="Loading the item" size="page" />;
  if (query.isError) {
    if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400))
      return <NotFound />;
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-bold">Something went wrong.</h1>
        <p className="mt-2 text-neutral-600 dark:text-neutral-400">{errorMessage(query.error)}</p>
      </section>
    );
  }
  const item = query.data;
  return <TradeFrame item={item} heading={heading} me={me} render={children} />;
}

/** The loaded item's frame; live, so a bid or a sale by someone else shows here at once. */
function TradeFrame({
  item,
  heading,
  me,
  render: children,
}: {
  item: Item;
  heading: string;
  me: string;
  render: (context: TradeContext) => ReactNode;
}) {
  useLiveItem(item);
  const thumbnail = mediaUrl(item.nft.media?.thumbnail ?? item.nft.media?.preview);
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{heading}</h1>
      <Link
        to={itemPath(item)}
        className="flex items-center gap-4 rounded-2xl border border-neutral-200 p-3 hover:bg-neutral-50 dark:border-neutral-800 dark:hover:bg-neutral-900"
      >
        {thumbnail ? (
          <img src={thumbnail} alt="" className="size-16 rounded-xl object-cover" />
        ) : (
          <span className="size-16 rounded-xl bg-neutral-100 dark:bg-neutral-800" />
        )}
        <span className="flex min-w-0 flex-col">
          <span className="truncate font-semibold">{item.nft.name}</span>
          <span className="truncate text-sm text-neutral-600 dark:text-neutral-400">
            {item.nftCollection.name}
          </span>
        </span>
      </Link>
      {item.nft.blocked ? (
        <p
          role="alert"
          className="rounded-xl bg-red-50 p-4 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
        >
          This item is blocked on Easel: it cannot be traded.
        </p>
      ) : (
        children({ item, me })
      )}
    </section>
  );
}

/** A note in place of a form: why this screen has nothing to do for this viewer, and the way back. */
export function TradeNotice({ item, children }: { item: Item; children: ReactNode }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <p className="text-neutral-700 dark:text-neutral-300">{children}</p>
      <Link to={itemPath(item)} className={buttonClass("secondary")}>
        Back to the item
      </Link>
    </div>
  );
}

/** The link back to the item under a success: 'Visit Your NFT' for the item's new or current owner. */
export const VISIT_TEXT = { yours: "Visit Your NFT", item: "View the item" } as const;

/**
 * The wallet steps while they run, then the success line with 'Visit Your NFT' (or, for someone whose NFT it
 * is not, a plain link to the item).
 */
export function TradeProgress({
  steps,
  label,
  heading,
  success,
  successHeading,
  yours = true,
  item,
}: {
  steps: readonly StepStatus[];
  label: string;
  /** A visible heading above the steps, when the spec names the stepper ('Complete Your Listing'). */
  heading?: string;
  success: string | null;
  /** A word before the success line, when the spec gives one ('Congratulations!'). */
  successHeading?: string;
  /** Whether the item is the viewer's after this: 'Visit Your NFT', else 'View the item'. */
  yours?: boolean;
  item: Item;
}) {
  return (
    <div className="flex flex-col gap-4" role="status" aria-live="polite">
      {heading ? <h2 className="text-xl font-semibold">{heading}</h2> : null}
      <Stepper steps={steps} label={label} />
      {success ? (
        <>
          {successHeading ? <p className="text-2xl font-bold">{successHeading}</p> : null}
          <p className="text-lg font-semibold">{success}</p>
          <Link to={itemPath(item)} className={buttonClass(yours ? "primary" : "secondary", "self-start")}>
            {yours ? VISIT_TEXT.yours : VISIT_TEXT.item}
          </Link>
        </>
      ) : null}
    </div>
  );
}

/** The token a trading call is about: its collection contract and id, as the market's functions take them. */
export const tokenOf = (item: Item) =>
  [item.nftCollection.contract_address as `0x${string}`, BigInt(item.nft.tokenId)] as const;

/** A price line: the amount and its USD value. */
export function PriceLine({ label, wei }: { label: string; wei: bigint | string | null | undefined }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <span className="text-sm text-neutral-600 dark:text-neutral-400">{label}</span>
      <span className="flex items-baseline gap-2">
        <span className="text-lg font-semibold tabular-nums">{ethText(wei)}</span>
        <UsdValue wei={wei} className="text-sm" />
      </span>
    </div>
  );
}

/** An ETH amount input with its USD value beside it; `error` in the spec's words. */
export function EthField({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  wei,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  hint?: ReactNode;
  /** The typed amount in wei, when it is one. */
  wei: bigint | null;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      <div className="flex items-center gap-3">
        <input
          id={id}
          inputMode="decimal"
          autoComplete="off"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          className={`${inputClass} max-w-48`}
        />
        <span className="text-sm font-semibold">ETH</span>
        <UsdValue wei={wei} className="text-sm" />
      </div>
      <p id={`${id}-hint`} className="text-xs text-neutral-600 dark:text-neutral-400">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A trading screen's wallet run: the steps through the transaction runner, then at once the success line
 * (and its toast, which some screens word differently) and the item in its new state (`after`), while every
 * view refreshes from the indexer. A failure has already been explained by the runner; the screen returns to
 * its form.
 */
export function useTradeAction() {
  const flow = useTransactionFlow();
  const refresh = useRefreshAfterTrade();
  const queryClient = useQueryClient();
  const itemKey = itemKeys.item(useItemKey());
  const [success, setSuccess] = useState<string | null>(null);
  async function run(
    steps: readonly TransactionStep[],
    message: string,
    options: {
      /** The success toast, when it words the success differently. */
      toast?: string;
      /** The item's new state, shown at once (the indexer's answer reconciles it). */
      after?: AfterTrade;
    } = {},
  ): Promise<boolean> {
    const ok = await flow.run(steps);
    if (!ok) {
      flow.reset();
      return false;
    }
    const { after } = options;
    if (after) queryClient.setQueryData<Item>(itemKey, (item) => item && { ...item, nft: after(item.nft) });
    setSuccess(message);
    toast.success(options.toast ?? message);
    // Refetched views wait for the indexer to have this transaction (api/ownWrites.ts); nothing waits here.
    void refresh();
    return true;
  }
  return { steps: flow.steps, success, run };
}
