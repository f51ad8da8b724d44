import { useQuery } from "@tanstack/react-query";
import { Spinner } from "../components/Spinner.tsx";
import { ApiError, apiFetch, errorMessage } from "../lib/api.ts";

export const NO_HISTORY = "There is no data history";

type Row = Record<string, unknown>;

/**
 * The user's offers or auctions, from the chain data the indexer keeps. Until the API serves these
 * lists (a 404 from a route that does not exist yet), the panels show the spec's empty text:
 * nothing is invented.
 */
function useHistory(kind: "offers" | "auctions") {
  return useQuery({
    queryKey: ["profile", "history", kind],
    queryFn: async () => {
      try {
        return (await apiFetch<{ data: Record<string, Row[]> }>(`/api/profile/${kind}`)).data;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return {} as Record<string, Row[]>;
        throw error;
      }
    },
    retry: false,
  });
}

function Panel({ title, rows }: { title: string; rows: Row[] }) {
  return (
    <section className="rounded-xl border border-neutral-200 p-5 dark:border-neutral-800" aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-3 text-sm text-neutral-600 dark:text-neutral-400">{NO_HISTORY}</p>
      ) : (
        <ul className="mt-3 divide-y divide-neutral-200 text-sm dark:divide-neutral-800">
          {rows.map((row, index) => (
            <li key={String(row._id ?? row.id ?? index)} className="flex justify-between gap-4 py-2">
              <span>{String(row.name ?? row.tokenId ?? "Item")}</span>
              {row.price !== undefined ? <span className="tabular-nums">{String(row.price)} ETH</span> : null}
            </li>
          ))}
        </ul>
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
    <div className="grid gap-5 lg:grid-cols-2">
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
