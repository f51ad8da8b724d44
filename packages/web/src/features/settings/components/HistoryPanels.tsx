import type { TradeRow } from "@easel/common";
import type { UseQueryResult } from "@tanstack/react-query";
import { errorMessage } from "../../../api/client.ts";
import { Loading } from "../../../ui/Loading.tsx";
import { useAuctionHistory, useOfferHistory } from "../../trade/api/history.ts";
import { RowLink, TradeTable } from "../../trade/components/TradeTable.tsx";

export const NO_HISTORY = "There is no data history";

type RowAction = (row: TradeRow) => { label: string; to: string } | null;

function Panel({ title, rows, action }: { title: string; rows: TradeRow[]; action?: RowAction | undefined }) {
  return (
    <section className="rounded-xl border border-neutral-200 p-5 dark:border-neutral-800" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-neutral-600 dark:text-neutral-400">{NO_HISTORY}</p>
      ) : (
        <TradeTable
          rows={rows}
          caption={title}
          action={
            action
              ? (row) => {
                  const next = action(row);
                  return next ? <RowLink {...next} /> : null;
                }
              : undefined
          }
        />
      )}
    </section>
  );
}

type HistoryQuery<K extends string> = UseQueryResult<Record<K, TradeRow[]>>;

function Panels<K extends string>({
  label,
  history,
  sections,
}: {
  label: string;
  history: HistoryQuery<K>;
  sections: { key: K; title: string; action?: RowAction }[];
}) {
  if (history.isPending) {
    return <Loading label={`Loading ${label}`} />;
  }
  if (history.isError) return <p className="text-red-700 dark:text-red-400">{errorMessage(history.error)}</p>;
  return (
    <div className="grid gap-5 xl:grid-cols-2">
      {sections.map((section) => (
        <Panel
          key={section.key}
          title={section.title}
          rows={history.data[section.key]}
          action={section.action}
        />
      ))}
    </div>
  );
}

export function OffersPanels() {
  return (
    <Panels
      label="offers"
      history={useOfferHistory()}
      sections={[
        {
          key: "made",
          title: "Offers you made",
          // An expired offer stays escrowed until it is withdrawn (its page's Withdraw, or a renewal there).
          action: (row) =>
            row.path && row.status === "active"
              ? { label: "Manage Offer", to: `/offer${row.path}` }
              : row.path && row.status === "expired"
                ? { label: "Withdraw", to: `/offer${row.path}` }
                : null,
        },
        {
          key: "received",
          title: "Offers on your item",
          action: (row) =>
            row.path && row.status === "active"
              ? { label: "Accept Offer", to: `/acceptOffer${row.path}` }
              : null,
        },
      ]}
    />
  );
}

export function AuctionsPanels() {
  return (
    <Panels
      label="auctions"
      history={useAuctionHistory()}
      sections={[
        {
          key: "held",
          title: "The auctions you have held",
          action: (row) =>
            row.path && row.status === "active"
              ? {
                  label: "Manage",
                  to: `/${row.kind === "reserve" ? "Auction/manageReserved" : "Auction/manage"}${row.path}`,
                }
              : null,
        },
        {
          key: "bidOn",
          title: "Auctions that you place a bid",
          action: (row) =>
            row.path && row.status === "active"
              ? {
                  label: "Place a Bid",
                  to: `/${row.kind === "reserve" ? "Auction/placeBidReservedAuction" : "Auction/placeBid"}${row.path}`,
                }
              : null,
        },
      ]}
    />
  );
}
