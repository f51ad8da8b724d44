import type { TradeRow } from "@easel/common";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage } from "../../../api/client.ts";
import { Button } from "../../../ui/Button.tsx";
import { Loading } from "../../../ui/Loading.tsx";
import { useMarket } from "../../../web3/contracts.ts";
import { Stepper } from "../../../web3/tx/Stepper.tsx";
import { type TransactionStep, writeStep } from "../../../web3/tx/steps.ts";
import { useTransactionFlow } from "../../../web3/tx/useTransactionFlow.ts";
import { tradeHistoryKeys, useOpenOrders } from "../api/history.ts";
import { TradeTable } from "./TradeTable.tsx";

const itemName = (row: TradeRow) => row.name || `#${row.tokenId}`;

/**
 * What a banned user can still take back from the market: active listings, auctions without bids and live
 * offers (GET /api/profile/open-orders), each cancelled by one wallet transaction.
 */
export function OpenOrdersSection() {
  const queryClient = useQueryClient();
  const market = useMarket();
  const flow = useTransactionFlow();
  const orders = useOpenOrders();

  if (orders.isPending) {
    return <Loading label="Loading your listings and offers" />;
  }
  if (orders.isError)
    return <p className="mt-8 text-red-700 dark:text-red-400">{errorMessage(orders.error)}</p>;
  const { listings, auctions, offers } = orders.data;
  const total = listings.length + auctions.length + offers.length;

  async function cancelAll() {
    if (!market || flow.running) return;
    const cancel = (row: TradeRow, what: string, functionName: string): TransactionStep =>
      writeStep(`Cancel ${what} of ${itemName(row)}`, {
        ...market,
        functionName,
        args: [row.collection as `0x${string}`, BigInt(row.tokenId)],
      });
    const steps = [
      ...listings.map((row) => cancel(row, "listing", "cancelSellOrder")),
      ...auctions.map((row) => cancel(row, "auction", "invalidateAuction")),
      ...offers.map((row) => cancel(row, "offer", "cancelOffer")),
    ];
    const done = await flow.run(steps);
    if (done) toast.success("Your listings and offers are cancelled.");
    await queryClient.invalidateQueries({ queryKey: tradeHistoryKeys.all });
  }

  return (
    <div className="mt-10 flex flex-col gap-6">
      <h2 className="text-xl font-semibold">Your listings and offers</h2>
      {total === 0 ? (
        <p className="text-neutral-600 dark:text-neutral-400">
          You have no active listings, auctions or offers.
        </p>
      ) : (
        <>
          {listings.length > 0 ? <TradeTable rows={listings} caption="Listings" /> : null}
          {auctions.length > 0 ? <TradeTable rows={auctions} caption="Auctions without bids" /> : null}
          {offers.length > 0 ? <TradeTable rows={offers} caption="Offers" /> : null}
          <div>
            <Button onClick={cancelAll} loading={flow.running} loadingText="Cancelling" disabled={!market}>
              Cancel listing & offers
            </Button>
            <p className="mt-2 text-sm text-neutral-600 dark:text-neutral-400">
              Your wallet asks you to confirm one transaction per item.
            </p>
          </div>
        </>
      )}
      {flow.steps ? <Stepper steps={flow.steps} label="Cancellation progress" /> : null}
    </div>
  );
}
