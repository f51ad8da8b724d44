import type { NftCard as NftCardData, Person } from "@easel/common";
import { NftCard } from "../../browse/components/NftCard.tsx";

type Props = {
  name: string;
  /** The artwork type's title (Pixel Art draws crisp), or null before one is chosen. */
  category: string | null;
  /** The picture the card will show: the image itself, or the video's or PDF's poster. */
  picture: string | null;
  creator: Person;
  collection: { address: string; name: string; kind: string } | null;
  royalty: number;
  /** A lazy item's list price in wei; null for an item minted now (not for sale). */
  priceWei: bigint | null;
};

/**
 * The item's card as collectors will see it in explore, search and home: the shared card itself, filled in
 * live from the form. It is a picture of the card, not a place to act, so its links and heart are inert.
 */
export function MintCardPreview({ name, category, picture, creator, collection, royalty, priceWei }: Props) {
  const nft: NftCardData = {
    _id: "preview",
    collection: collection ?? { address: "", name: null, kind: "default" },
    tokenId: "0",
    name: name.trim() || "Untitled",
    creator: creator.address,
    owner: creator.address,
    category,
    status: priceWei !== null ? "fix" : "minted",
    image_cid: picture,
    royaltyBps: royalty * 100,
    collaborators: [],
    price: null,
    priceWei: priceWei?.toString() ?? null,
    lastPriceWei: null,
    creatorData: creator,
    collaboratorsData: [],
    auctionKind: null,
    endTime: null,
    offerWei: null,
    favorites: 0,
    views: 0,
    isFavorite: false,
    blocked: false,
  };
  return (
    <figure aria-labelledby="mint-card-preview" className="flex flex-col gap-2">
      <figcaption id="mint-card-preview" className="text-sm font-semibold">
        Card preview
      </figcaption>
      <div inert data-testid="card-preview" className="pointer-events-none">
        <NftCard nft={nft} priority="first" />
      </div>
      <p className="text-xs text-neutral-600 dark:text-neutral-400">
        How collectors will see it in explore and search.
      </p>
    </figure>
  );
}
