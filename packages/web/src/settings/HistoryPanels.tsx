import type { TradeRow } from "@easel/common";
import { shortAddress } from "@easel/common";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Spinner } from "../components/Spinner.tsx";
import { apiFetch, errorMessage } from "../lib/api.ts";

export const NO_HISTORY = "There is no data history";

type Lists = Record<string, TradeRow[]>;

/** The signed-in user's offers or auctions, from the chain tables (GET /api/profile/offers | auctions). */
function useHistory(kind: "offers" | "auctions") {
  return useQuery({
    queryKey: ["profile", "history", kind],
    queryFn: async () => (await apiFetch<{ data: Lists }>(`/api/profile/${kind}`)).data,
    retry: false,
  });
}

/** The item's name, or its token id when the chain tables have no name for it. */
function itemLabel(row: TradeRow) {
  return row.name || `#${row.tokenId}`;
}

export function TradeTable({ rows, caption }: { rows: TradeRow[]; caption: string }) {
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-neutral-500">
          <tr>
            <th className="py-2 pr-3 font-medium">Item</th>
            <th className="py-2 pr-3 font-medium">Price</th>
            <th className="py-2 pr-3 font-medium">Status</th>
            <th className="py-2 font-medium">With</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-neutral-200 dark:divide-neutral-800">
          {rows.map((row) => (
            <tr key={row._id}>
              <td className="py-2 pr-3">
                <span className="font-medium">{itemLabel(row)}</span>
                <br />
                {row.collectionName ? (
                  <Link
                    to={`/collection/${encodeURIComponent(row.collectionName)}`}
                    className="text-xs text-neutral-600 underline dark:text-neutral-400"
                  >
                    {row.collectionName}
                  </Link>
                ) : (
                  <span className="font-mono text-xs text-neutral-600 dark:text-neutral-400">
                    {shortAddress(row.collection)}
                  </span>
                )}
              </td>
              <td className="py-2 pr-3 whitespace-nowrap tabular-nums">{row.price} ETH</td>
              <td className="py-2 pr-3">
                {row.status}
                {row.kind ? ` (${row.kind})` : ""}
                {row.endTime ? (
                  <>
                    <br />
                    <span className="text-xs text-neutral-600 dark:text-neutral-400">
                      ends {new Date(row.endTime).toLocaleString("en")}
                    </span>
                  </>
                ) : null}
              </td>
              <td className="py-2 font-mono text-xs">
                {row.counterparty ? (
                  <Link to={`/profile/${row.counterparty}`} className="underline">
                    {shortAddress(row.counterparty)}
                  </Link>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Panel({ title, rows }: { title: string; rows: TradeRow[] }) {
  return (
    <section className="rounded-xl border border-neutral-200 p-5 dark:border-neutral-800" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-neutral-600 dark:text-neutral-400">{NO_HISTORY}</p>
      ) : (
        <TradeTable rows={rows} caption={title} />
      )}
    </section>
  );
}

function Panels({
  kind,
  sections,
}: {
  kind: "offers" | "auctions";
  sections: { key: string; title: string }[];
}) {
  const history = useHistory(kind);
  if (history.isPending) {
    return (
      <div role="status" aria-label={`Loading ${kind}`} className="py-10">
        <Spinner className="size-6 text-neutral-400" />
      </div>
    );
  }
  if (history.isError) return <p className="text-red-700 dark:text-red-400">{errorMessage(history.error)}</p>;
  return (
    <div className="grid gap-5 xl:grid-cols-2">
      {sections.map((section) => (
        <Panel key={section.key} title={section.title} rows={history.data[section.key] ?? []} />
      ))}
    </div>
  );
}

export function OffersPanels() {
  return (
    <Panels
      kind="offers"
      sections={[
        { key: "made", title: "Offers you made" },
        { key: "received", title: "Offers on your item" },
      ]}
    />
  );
}

export function AuctionsPanels() {
  return (
    <Panels
      kind="auctions"
      sections={[
        { key: "held", title: "The auctions you have held" },
        { key: "bidOn", title: "Auctions that you place a bid" },
      ]}
    />
  );
}
