import { ACTIVITY_FILTERS, type ActivityFilter, type ActivityRow, type PersonRef } from "@easel/common";
import { useState } from "react";
import { Link } from "react-router";
import { formatEther } from "viem";
import { useAppConfig } from "../../../api/appConfig.tsx";
import { errorMessage } from "../../../api/client.ts";
import { dateTimeText } from "../../../lib/dates.ts";
import { Loading } from "../../../ui/Loading.tsx";
import { PersonName } from "../../../ui/PersonName.tsx";
import { ExplorerLink } from "../../../web3/tx/Stepper.tsx";
import { useCollectionActivity } from "../api/browse.ts";
import { SelectFilter } from "./FilterPanel.tsx";
import { LoadMore } from "./LoadMore.tsx";

/** What each chain activity kind is called in the list. */
const KIND_LABELS: Record<string, string> = {
  mint: "Minted",
  list: "Listed",
  unlist: "Unlisted",
  auction: "Auction started",
  auction_cancelled: "Auction cancelled",
  bid: "Bid",
  outbid: "Outbid",
  sale: "Sale",
  offer: "Offer",
  offer_cancelled: "Offer cancelled",
  offer_accepted: "Offer accepted",
  transfer: "Transfer",
  burn: "Burned",
};
const FILTER_LABELS: Record<ActivityFilter, string> = {
  mint: "Mints",
  list: "Listings",
  sale: "Sales",
  bid: "Bids",
  offer: "Offers",
  transfer: "Transfers",
};

/** A row's person, by the names the API sent with the row. */
const person = (named: PersonRef | null) => (named ? <PersonName person={named} /> : "—");

/** A collection's activity: every mint, listing, sale, bid, offer and transfer, with its transaction. */
export function CollectionActivity({
  address,
  itemPath,
}: {
  address: string;
  itemPath: (tokenId: string) => string;
}) {
  const [kind, setKind] = useState<ActivityFilter | undefined>();
  const query = useCollectionActivity(address, kind);
  const rows: ActivityRow[] = query.data?.pages.flatMap((p) => p.activity) ?? [];
  return (
    <section aria-labelledby="collection-activity" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="collection-activity" className="text-xl font-semibold">
          Activity
        </h2>
        <SelectFilter
          label="Show"
          value={kind ?? ""}
          onChange={(v) => setKind((v || undefined) as ActivityFilter | undefined)}
          options={[
            { value: "", label: "All activity" },
            ...ACTIVITY_FILTERS.map((f) => ({ value: f, label: FILTER_LABELS[f] })),
          ]}
        />
      </div>
      {query.isPending ? (
        <Loading label="Loading activity" />
      ) : query.isError ? (
        <p className="text-red-700 dark:text-red-400">{errorMessage(query.error)}</p>
      ) : rows.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-neutral-300 px-6 py-10 text-center text-neutral-600 dark:border-neutral-700 dark:text-neutral-400">
          No activity yet.
        </p>
      ) : (
        <div className={query.isPlaceholderData ? "opacity-60" : ""}>
          <ActivityTable rows={rows} itemPath={itemPath} caption="Collection activity, newest first" />
        </div>
      )}
      <LoadMore
        hasNextPage={query.hasNextPage}
        isFetchingNextPage={query.isFetchingNextPage}
        fetchNextPage={query.fetchNextPage}
        label="Loading more activity"
      />
    </section>
  );
}

/** Activity rows with their prices, people, dates and transactions; `itemPath` links each row's item. */
export function ActivityTable({
  rows,
  itemPath,
  caption,
}: {
  rows: ActivityRow[];
  itemPath?: (tokenId: string) => string;
  caption: string;
}) {
  const { explorerUrl } = useAppConfig();
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-neutral-500">
          <tr>
            {["Event", ...(itemPath ? ["Item"] : []), "Price", "From", "To", "Date", "Transaction"].map(
              (h) => (
                <th key={h} scope="col" className="px-3 py-2 font-medium">
                  {h}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-neutral-200 dark:divide-neutral-800">
          {rows.map((row) => (
            <tr key={`${row.txHash}:${row.kind}:${row.tokenId}:${row.from}:${row.to}:${row.priceWei}`}>
              <td className="px-3 py-2 font-medium">{KIND_LABELS[row.kind] ?? row.kind}</td>
              {itemPath ? (
                <td className="px-3 py-2">
                  {row.tokenId ? (
                    <Link to={itemPath(row.tokenId)} className="hover:underline">
                      {row.itemName}
                    </Link>
                  ) : (
                    "—"
                  )}
                </td>
              ) : null}
              <td className="px-3 py-2 tabular-nums">
                {row.priceWei ? `${formatEther(BigInt(row.priceWei))} ETH` : "—"}
              </td>
              <td className="px-3 py-2">{person(row.fromPerson)}</td>
              <td className="px-3 py-2">{person(row.toPerson)}</td>
              <td className="px-3 py-2 whitespace-nowrap">
                <time dateTime={row.time}>{dateTimeText(row.time)}</time>
              </td>
              <td className="px-3 py-2">
                <ExplorerLink hash={row.txHash} explorerUrl={explorerUrl} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
