import type { ItemResponse } from "@easel/common";
import { useParams } from "react-router";
import type { ItemKey } from "../api/items.ts";

type Item = ItemResponse["data"];

/** The item page URL's segments (the default collection's items have no collection segment). */
export function useItemKey(): ItemKey {
  const params = useParams();
  return { creator: params.creator ?? "", collection: params.collection, tokenId: params.id ?? "" };
}

/** `{creator}/{collection}/{id}`, or `{creator}/{id}` in the default collection. */
function itemSegments({ nft, nftCollection }: Item): string {
  const creator = nft.creator.address;
  return nftCollection.kind === "default"
    ? `${creator}/${nft.tokenId}`
    : `${creator}/${encodeURIComponent(nftCollection.slug)}/${nft.tokenId}`;
}

/** A trading route for this item (creation-and-trading, section 2's route table). */
export const tradePath = (prefix: string, item: Item) => `/${prefix}/${itemSegments(item)}`;

/** The item's own page path. */
export const itemPath = (item: Item) => `/${itemSegments(item)}`;
