import { Link } from "react-router";
import { ethText } from "../../../lib/eth.ts";
import { buttonClass } from "../../../ui/Button.tsx";
import type { ListableWork, BulkListingResult as Result } from "../api/bulkListings.ts";

export const BULK_RESULT_TEXT = {
  listed: (n: number) => `Listed: ${n} ${n === 1 ? "work" : "works"}`,
  refused: (n: number) => `Not listed: ${n} ${n === 1 ? "work" : "works"}`,
  manage: "Your signed listings are on each work's Manage page: hide or cancel them there, one or all.",
  again: "List more",
} as const;

/** What a bulk listing did: the works listed with their prices, and those refused with the reason in words. */
export function BulkListingResult({
  result,
  sent,
  onAgain,
}: {
  result: Result;
  /** The works in the order they were signed (a refusal names its index). */
  sent: readonly ListableWork[];
  onAgain: () => void;
}) {
  const workOf = (collection: string, tokenId: string) =>
    sent.find((w) => w.collection.toLowerCase() === collection.toLowerCase() && w.tokenId === tokenId);
  return (
    <div className="flex flex-col gap-6" aria-live="polite">
      <section aria-labelledby="bulk-listed">
        <h2 id="bulk-listed" className="text-lg font-semibold">
          {BULK_RESULT_TEXT.listed(result.stored.length)}
        </h2>
        <ul className="mt-2 flex flex-col gap-1 text-sm">
          {result.stored.map((listing) => {
            const work = workOf(listing.order.collection, listing.order.tokenId);
            return (
              <li key={listing.id} className="flex justify-between gap-4">
                {work?.path ? <Link to={work.path}>{work.name}</Link> : <span>#{listing.order.tokenId}</span>}
                <span className="tabular-nums">{ethText(listing.order.price)}</span>
              </li>
            );
          })}
        </ul>
      </section>
      {result.refused.length > 0 ? (
        <section aria-labelledby="bulk-refused">
          <h2 id="bulk-refused" className="text-lg font-semibold text-red-700 dark:text-red-400">
            {BULK_RESULT_TEXT.refused(result.refused.length)}
          </h2>
          <ul className="mt-2 flex flex-col gap-2 text-sm">
            {result.refused.map((refusal) => (
              <li key={refusal.index}>
                <span className="font-semibold">{sent[refusal.index]?.name ?? `#${refusal.tokenId}`}</span>:{" "}
                {refusal.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <p className="text-sm text-neutral-600 dark:text-neutral-400">{BULK_RESULT_TEXT.manage}</p>
      <div>
        <button type="button" className={buttonClass("secondary")} onClick={onAgain}>
          {BULK_RESULT_TEXT.again}
        </button>
      </div>
    </div>
  );
}
