import type { SignedListingPauseReason } from "@easel/common";
import { useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { errorMessage } from "../../../api/client.ts";
import { ethText } from "../../../lib/eth.ts";
import { Button } from "../../../ui/Button.tsx";
import { CONFIRM_TEXT, ConfirmQuestion } from "../../../ui/ConfirmQuestion.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { useRefreshAfterTrade } from "../api/market.ts";
import { type MySignedListing, useMySignedListings } from "../api/signedListings.ts";

export const SIGNED_LISTING_TEXT = {
  hiddenTitle: "Hidden, but still valid on chain",
  shown: "Shown on Easel",
  hidden: "Hidden on Easel, still valid on chain until you cancel it",
  paused: "Not shown on Easel while the market refuses it, but it can still be filled on chain",
  pausedEnd: "cancel on chain to end it",
  cancelOne: "Cancel on chain",
  cancelAll: "Cancel all my signed listings",
  cancelAllNote:
    "One transaction that makes every listing you have signed so far unusable, on all your items. Listings made on chain stay.",
  cancelAllQuestion: "Cancel every listing you have signed so far?",
  cancelOneQuestion: CONFIRM_TEXT.unlist,
  cancelledAll: "All your signed listings have been cancelled.",
  cancelledOne: "Your signed listing is cancelled on chain.",
} as const;

/** The condition under which the chain fills a paused order again, in words ("…filled on chain if …"). */
export const PAUSED_CONDITION: Record<SignedListingPauseReason, string> = {
  notApproved: "if you approve the market again for this collection",
  banned: "if your account's ban is lifted",
  tokenBlocked: "if Easel unblocks this item",
  collectionBlocked: "if Easel unblocks this collection",
  priceMin: "if the listing minimum comes down to its price again",
  signature: "if your wallet accepts its signature again",
  fee: "if the market's fee comes back to the most you accepted when signing",
  refused: "if the market stops refusing it",
};

/** What a row's status means for its seller, in one sentence. */
export function signedListingState(row: Pick<MySignedListing, "status" | "pausedReason">): string {
  if (row.status === "paused") {
    const condition = PAUSED_CONDITION[row.pausedReason ?? "refused"];
    return `${SIGNED_LISTING_TEXT.paused} ${condition}; ${SIGNED_LISTING_TEXT.pausedEnd}`;
  }
  return row.status === "hidden" ? SIGNED_LISTING_TEXT.hidden : SIGNED_LISTING_TEXT.shown;
}

const rowName = (row: MySignedListing) => row.name || `#${row.order.tokenId}`;

/**
 * The seller's signed listings that can still be filled on chain (GET /api/signed-listings/mine): shown ones,
 * hidden ones and paused ones (the market refuses them for now; the chain fills them again once that ends),
 * each said plainly, with the on-chain cancels that make them unusable: one token's
 * (`cancelSignedListing`) or all at once (`incrementListingCounter`).
 */
export function SignedListingsPanel({
  title,
  token,
  onlyHidden = false,
}: {
  title: string;
  /** Only this token's orders (Manage of an item whose listing is hidden). */
  token?: { collection: string; tokenId: string };
  onlyHidden?: boolean;
}) {
  const mine = useMySignedListings();
  const market = useMarket();
  const flow = useTransactionFlow();
  const refresh = useRefreshAfterTrade();
  const [asking, setAsking] = useState(false);
  // The row whose on-chain cancel waits for its answer (the spec's question before unlisting, C38).
  const [askingRow, setAskingRow] = useState<string | null>(null);
  // A part of another screen (token or onlyHidden) stays out of the way until there is something to show.
  const aside = !!token || onlyHidden;
  if (mine.isPending) return aside ? null : <Loading label="Loading your signed listings" />;
  if (mine.isError)
    return aside ? null : <p className="text-red-700 dark:text-red-400">{errorMessage(mine.error)}</p>;
  const rows = mine.data.data.filter(
    (row) =>
      // Off the book (hidden or paused) yet still fillable on chain.
      (!onlyHidden || row.status !== "active") &&
      (!token ||
        (row.order.collection.toLowerCase() === token.collection.toLowerCase() &&
          row.order.tokenId === token.tokenId)),
  );
  if (rows.length === 0 && aside) return null;

  async function run(step: Parameters<typeof writeStep>, done: string) {
    if (flow.running) return;
    const ok = await flow.run([writeStep(...step)]);
    if (ok) toast.success(done);
    await refresh();
  }
  const cancelOne = (row: MySignedListing) =>
    market &&
    run(
      [
        `${SIGNED_LISTING_TEXT.cancelOne}: ${rowName(row)}`,
        {
          ...market,
          functionName: "cancelSignedListing",
          args: [row.order.collection as `0x${string}`, BigInt(row.order.tokenId)],
        },
      ],
      SIGNED_LISTING_TEXT.cancelledOne,
    );
  const cancelAll = () =>
    market &&
    run(
      [SIGNED_LISTING_TEXT.cancelAll, { ...market, functionName: "incrementListingCounter", args: [] }],
      SIGNED_LISTING_TEXT.cancelledAll,
    );

  return (
    <section className="flex flex-col gap-3" aria-label={title}>
      <h2 className="text-xl font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-neutral-600 dark:text-neutral-400">You have no signed listings.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-neutral-200 dark:divide-neutral-800">
          {rows.map((row) => (
            <li key={row.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <span className="flex flex-col">
                {row.path ? (
                  <Link to={row.path} className="font-semibold underline">
                    {rowName(row)}
                  </Link>
                ) : (
                  <span className="font-semibold">{rowName(row)}</span>
                )}
                <span className="text-sm text-neutral-600 dark:text-neutral-400">
                  {ethText(row.order.price)} · {signedListingState(row)}
                </span>
              </span>
              {askingRow === row.id ? (
                <ConfirmQuestion
                  label={`${SIGNED_LISTING_TEXT.cancelOne}: ${rowName(row)}`}
                  question={SIGNED_LISTING_TEXT.cancelOneQuestion}
                  busy={flow.running}
                  onYes={async () => {
                    await cancelOne(row);
                    setAskingRow(null);
                  }}
                  onNo={() => setAskingRow(null)}
                />
              ) : (
                <Button
                  variant="secondary"
                  className="px-3 py-1"
                  aria-label={`${SIGNED_LISTING_TEXT.cancelOne}: ${rowName(row)}`}
                  disabled={!market || flow.running}
                  onClick={() => setAskingRow(row.id)}
                >
                  {SIGNED_LISTING_TEXT.cancelOne}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {token ? null : (
        <div className="flex flex-col items-start gap-2">
          <p className="text-sm text-neutral-600 dark:text-neutral-400">
            {SIGNED_LISTING_TEXT.cancelAllNote}
          </p>
          {asking ? (
            <ConfirmQuestion
              label={SIGNED_LISTING_TEXT.cancelAll}
              question={SIGNED_LISTING_TEXT.cancelAllQuestion}
              no="Keep them"
              busy={flow.running}
              onYes={async () => {
                await cancelAll();
                setAsking(false);
              }}
              onNo={() => setAsking(false)}
            />
          ) : (
            <Button variant="secondary" disabled={!market || flow.running} onClick={() => setAsking(true)}>
              {SIGNED_LISTING_TEXT.cancelAll}
            </Button>
          )}
        </div>
      )}
      {flow.steps ? <Stepper steps={flow.steps} label="Cancellation progress" /> : null}
    </section>
  );
}
