import type { TradeRow } from "@easel/common";
import { shortAddress } from "@easel/common";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { dateTimeText } from "../../../lib/dates.ts";

/** The item's name, or its token id when the chain tables have no name for it. */
function itemLabel(row: TradeRow) {
  return row.name || `#${row.tokenId}`;
}

/** A list of trades: item and collection, price, status (with the end time), counterparty. */
export function TradeTable({
  rows,
  caption,
  action,
}: {
  rows: TradeRow[];
  caption: string;
  /** What can be done with the row now: a link to its trading screen (`RowLink`) or a button. */
  action?: ((row: TradeRow) => ReactNode) | undefined;
}) {
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-neutral-500">
          <tr>
            <th className="py-2 pr-3 font-medium">Item</th>
            <th className="py-2 pr-3 font-medium">Price</th>
            <th className="py-2 pr-3 font-medium">Status</th>
            <th className="py-2 pr-3 font-medium">With</th>
            {action ? (
              <th className="py-2 font-medium">
                <span className="sr-only">Action</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-neutral-200 dark:divide-neutral-800">
          {rows.map((row) => (
            <tr key={row._id}>
              <td className="py-2 pr-3">
                {row.path ? (
                  <Link to={row.path} className="font-medium hover:underline">
                    {itemLabel(row)}
                  </Link>
                ) : (
                  <span className="font-medium">{itemLabel(row)}</span>
                )}
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
                      ends {dateTimeText(row.endTime)}
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
              {action ? <td className="py-2">{action(row)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A row's link to its trading screen (manage, accept, bid). */
export function RowLink({ label, to }: { label: string; to: string }) {
  return (
    <Link to={to} className="text-sm font-semibold text-accent-700 underline dark:text-accent-300">
      {label}
    </Link>
  );
}
