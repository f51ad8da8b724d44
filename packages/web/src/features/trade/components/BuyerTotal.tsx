import type { ReactNode } from "react";
import { ethText } from "../../../lib/eth.ts";
import { UsdValue } from "../../../ui/UsdValue.tsx";
import { type GasSource, useNetworkFee } from "../../../web3/networkFee.ts";

export const TOTAL_TEXT = {
  region: "Your total",
  fee: "Network fee (estimate)",
  estimating: "Estimating…",
  unavailable: "Network fee unavailable",
  total: "Total",
  plusFee: "+ network fee",
  note: "The network fee goes to Ethereum, not to Easel or the seller; your wallet shows the exact figure before you confirm.",
} as const;

/** Fees are small: six decimals, and a floor below which the figure would read as zero. */
const FEE_DECIMALS = 6;
const FEE_FLOOR_WEI = 10n ** 12n;

/** A network fee in ETH: "0.000213 ETH", or "< 0.000001 ETH" for less. */
export const feeText = (wei: bigint) =>
  wei > 0n && wei < FEE_FLOOR_WEI ? `< ${ethText(FEE_FLOOR_WEI)}` : ethText(wei, FEE_DECIMALS);

/**
 * What a buyer pays before their wallet opens (Buy Now, Place a Bid, Make Offer, Lazy Mint and Buy): the amount
 * the transaction sends, the estimated network fee (web3/networkFee.ts), and their total, in ETH and USD. A fee
 * that cannot be estimated says so, and the total says it comes on top.
 */
export function BuyerTotal({
  label,
  wei,
  source,
  account,
}: {
  /** What the amount is: 'Price', 'Your bid', 'You send' … */
  label: string;
  /** What the transaction sends, in wei. */
  wei: bigint;
  /** What the gas is found from; null while there is nothing to estimate. */
  source: GasSource | null;
  /** Who sends it (the signed-in account). */
  account: string;
}) {
  const fee = useNetworkFee(source, account);
  const feeWei = fee.isError ? undefined : fee.data;
  const waiting = feeWei === undefined && !fee.isError;
  return (
    <section
      aria-label={TOTAL_TEXT.region}
      className="flex flex-col gap-2 rounded-xl border border-neutral-200 p-4 dark:border-neutral-800"
    >
      <dl className="flex flex-col gap-2">
        <Line term={label}>
          <Amount text={ethText(wei)} wei={wei} />
        </Line>
        <Line term={TOTAL_TEXT.fee}>
          {feeWei !== undefined ? (
            <Amount text={feeText(feeWei)} wei={feeWei} busy={fee.isPlaceholderData} />
          ) : (
            <span
              className={
                fee.isError
                  ? "font-medium text-neutral-800 dark:text-neutral-200"
                  : "text-neutral-600 dark:text-neutral-400"
              }
            >
              {fee.isError
                ? TOTAL_TEXT.unavailable
                : waiting && fee.fetchStatus === "idle"
                  ? "—"
                  : TOTAL_TEXT.estimating}
            </span>
          )}
        </Line>
        <div className="border-t border-neutral-200 dark:border-neutral-800" />
        <Line term={TOTAL_TEXT.total} strong>
          {feeWei !== undefined ? (
            <Amount text={ethText(wei + feeWei, FEE_DECIMALS)} wei={wei + feeWei} strong />
          ) : (
            <span className="font-semibold tabular-nums">
              {ethText(wei)} {TOTAL_TEXT.plusFee}
            </span>
          )}
        </Line>
      </dl>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">{TOTAL_TEXT.note}</p>
    </section>
  );
}

function Line({ term, strong, children }: { term: string; strong?: boolean; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
      <dt className={strong ? "font-semibold" : "text-sm text-neutral-600 dark:text-neutral-400"}>{term}</dt>
      <dd className="flex items-baseline gap-2">{children}</dd>
    </div>
  );
}

function Amount({
  text,
  wei,
  strong,
  busy,
}: {
  text: string;
  wei: bigint;
  strong?: boolean;
  busy?: boolean;
}) {
  return (
    <>
      <span
        className={`tabular-nums ${strong ? "text-lg font-semibold" : ""} ${busy ? "opacity-60" : ""}`}
        aria-busy={busy || undefined}
      >
        {text}
      </span>
      <UsdValue wei={wei} className="text-sm" />
    </>
  );
}
