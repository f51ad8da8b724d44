import type { ItemTrait } from "@easel/common";
import { Link } from "react-router";
import { useItemTraits } from "../api/traits.ts";

/** How many of the collection's items have a value, in words: "12% have this" (never a rounded 0%). */
export function rarityText({ count, total }: Pick<ItemTrait, "count" | "total">): string {
  if (total <= 0) return "";
  const percent = (count / total) * 100;
  if (percent > 0 && percent < 1) return "Under 1% have this";
  return `${Math.round(percent)}% have this`;
}

/**
 * The item page's properties: each name and value its artist gave it, with how rare the value is in its
 * collection ("12% have this"); in a collection of its own, each leads to the collection page filtered by it.
 * Nothing is drawn for an item without properties.
 */
export function TraitsPanel({
  collection,
  tokenId,
  collectionLink,
}: {
  /** The collection's address. */
  collection: string;
  tokenId: string;
  /** The collection page (`/collection/{slug}`), or null for the default collection. */
  collectionLink: string | null;
}) {
  const { data: traits } = useItemTraits(collection, tokenId);
  if (!traits?.length) return null;
  return (
    <section aria-labelledby="item-properties" className="flex flex-col gap-3">
      <h2 id="item-properties" className="text-lg font-semibold">
        Properties
      </h2>
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3" aria-label="Properties">
        {traits.map((trait) => {
          const body = (
            <>
              <span className="block truncate text-xs font-medium text-neutral-500 uppercase dark:text-neutral-400">
                {trait.trait_type}
              </span>
              <span className="block truncate font-semibold">{trait.value}</span>
              <span
                className="block text-xs text-neutral-600 tabular-nums dark:text-neutral-400"
                title={`${trait.count} of ${trait.total} items`}
              >
                {rarityText(trait)}
              </span>
            </>
          );
          const box = "block rounded-xl border border-neutral-200 p-3 text-sm dark:border-neutral-800";
          return (
            <li key={trait.trait_type}>
              {collectionLink ? (
                <Link
                  to={`${collectionLink}?${new URLSearchParams({ traitType: trait.trait_type, traitValue: trait.value })}`}
                  className={`${box} hover:border-accent-600 dark:hover:border-accent-400`}
                  aria-label={`${trait.trait_type}: ${trait.value}, ${rarityText(trait)}. See the collection's items with it`}
                >
                  {body}
                </Link>
              ) : (
                <div className={box}>{body}</div>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
