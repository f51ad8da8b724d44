import type { TradeRow } from "@easel/common";
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../../api/client.ts";
import { Button } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { tradeHistoryKeys, useOpenOrders } from "../api/history.ts";
import { SignedListingsPanel } from "./SignedListingsPanel.tsx";
import { TradeTable } from "./TradeTable.tsx";

const itemName = (row: TradeRow) => row.name || `#${row.tokenId}`;

/** The market call that takes each kind of open order back (the contracts let banned users make them). */
const CANCELS = {
  listing: { functionName: "cancelSellOrder", label: "Cancel listing", done: "Your listing is cancelled." },
  auction: { functionName: "invalidateAuction", label: "Cancel auction", done: "Your auction is cancelled." },
  offer: { functionName: "cancelOffer", label: "Cancel offer", done: "Your offer is cancelled." },
} as const;

type OrderKind = keyof typeof CANCELS;

/**
 * 'Cancel listing & offers': reveals what a banned user can still take back from the market, their live
 * offers and their listings (fixed price, and auctions nobody has bid in yet), from GET
 * /api/profile/open-orders, each with its own cancel button (one wallet transaction), and their signed
 * listings still valid on chain (GET /api/signed-listings/mine), shown or hidden.
 */
export function OpenOrdersSection() {
  const [shown, setShown] = useState(false);
  const panelsId = useId();
  return (
    <div className="mt-8 flex flex-col items-start gap-6">
      <Button
        variant="danger"
        aria-expanded={shown}
        aria-controls={panelsId}
        onClick={() => setShown((value) => !value)}
      >
        Cancel listing & offers
      </Button>
      {shown ? (
        <div id={panelsId} className="w-full">
          <OpenOrders />
        </div>
      ) : null}
    </div>
  );
}

function OpenOrders() {
  const queryClient = useQueryClient();
  const market = useMarket();
  const flow = useTransactionFlow();
  const orders = useOpenOrders();
  // The row being cancelled, so its button shows the wait.
  const [cancelling, setCancelling] = useState<string | null>(null);
  const panelId = useId();

  if (orders.isPending) return <Loading label="Loading your listings and offers" />;
  if (orders.isError) return <p className="text-red-700 dark:text-red-400">{errorMessage(orders.error)}</p>;
  const { listings, auctions, offers } = orders.data;

  async function cancel(row: TradeRow, kind: OrderKind) {
    if (!market || flow.running) return;
    const { functionName, label, done } = CANCELS[kind];
    setCancelling(`${kind}:${row._id}`);
    const ok = await flow.run([
      writeStep(`${label}: ${itemName(row)}`, {
        ...market,
        functionName,
        args: [row.collection as `0x${string}`, BigInt(row.tokenId)],
      }),
    ]);
    setCancelling(null);
    if (ok) toast.success(done);
    await queryClient.invalidateQueries({ queryKey: tradeHistoryKeys.all });
  }

  const cancelButton = (kind: OrderKind) => (row: TradeRow) => (
    <Button
      variant="secondary"
      className="px-3 py-1"
      aria-label={`${CANCELS[kind].label} on ${itemName(row)}`}
      loading={cancelling === `${kind}:${row._id}`}
      loadingText="Cancelling"
      disabled={!market || flow.running}
      onClick={() => cancel(row, kind)}
    >
      {CANCELS[kind].label}
    </Button>
  );

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby={`${panelId}-offers`}>
        <h2 id={`${panelId}-offers`} className="text-xl font-semibold">
          Your Offers
        </h2>
        {offers.length === 0 ? (
          <p className="mt-2 text-neutral-600 dark:text-neutral-400">You have no live offers.</p>
        ) : (
          <TradeTable rows={offers} caption="Your Offers" action={cancelButton("offer")} />
        )}
      </section>
      <section aria-labelledby={`${panelId}-listing`}>
        <h2 id={`${panelId}-listing`} className="text-xl font-semibold">
          Your Listing
        </h2>
        {listings.length + auctions.length === 0 ? (
          <p className="mt-2 text-neutral-600 dark:text-neutral-400">
            You have no active listings or auctions without bids.
          </p>
        ) : (
          <>
            {listings.length > 0 ? (
              <TradeTable
                rows={listings}
                caption="Your fixed-price listings"
                action={cancelButton("listing")}
              />
            ) : null}
            {auctions.length > 0 ? (
              <TradeTable
                rows={auctions}
                caption="Your auctions without bids"
                action={cancelButton("auction")}
              />
            ) : null}
          </>
        )}
      </section>
      {flow.steps ? <Stepper steps={flow.steps} label="Cancellation progress" /> : null}
      <SignedListingsPanel title="Your signed listings" />
    </div>
  );
}
