import type { ItemResponse } from "@easel/common";

export const CREATOR = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
export const COLLECTION = "0x9a676e781a523b5d0c0e43731313a708cb607508";

/** An item page's data as GET /api/nft answers it: a minted item owned by its creator unless overridden. */
export function itemFixture(
  nft: Partial<ItemResponse["data"]["nft"]> = {},
  rest: Partial<Omit<ItemResponse["data"], "nft">> = {},
): ItemResponse["data"] {
  const person = (address: string) => ({ address, username: null, name: null, avatar: null });
  return {
    nft: {
      _id: `${COLLECTION}:42`,
      tokenId: "42",
      name: "Harbour at Dawn",
      status: "minted",
      lazy: false,
      category: "Painting",
      creator: person(CREATOR),
      owner: person(CREATOR),
      collaborators: [{ ...person(CREATOR), share: 100 }],
      royalty: 10,
      description: "Oil on canvas.",
      description_ui: null,
      tags: ["sea"],
      uri_cid: "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e",
      media: null,
      priceWei: null,
      lastPriceWei: null,
      listing: null,
      auction: null,
      offers: [],
      favorites: 3,
      views: 10,
      isFavorite: false,
      blocked: false,
      mintedAt: "2026-11-01T00:00:00.000Z",
      ...nft,
    },
    nftCollection: {
      name: "Studio Works",
      contract_address: COLLECTION,
      kind: "standard",
      slug: "Studio Works",
      logo: null,
    },
    permisionNft: { auction: true, reserve: true },
    activity: [],
    priceHistory: [],
    ...rest,
  };
}

/** The item listed at a fixed price (1 ETH) by its owner, the creator. */
export function listedFixture(): ItemResponse["data"] {
  return itemFixture({
    status: "fix",
    priceWei: "1000000000000000000",
    listing: {
      kind: "chain",
      signedId: null,
      priceWei: "1000000000000000000",
      seller: CREATOR,
      expiresAt: "2027-01-01T00:00:00.000Z",
    },
  });
}
