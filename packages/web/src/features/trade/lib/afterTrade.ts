import { type ItemResponse, minNextBid } from "@easel/common";

type Nft = ItemResponse["data"]["nft"];

/** How a mined trade changes the item, shown at once; the indexer's answer replaces it moments later. */
export type AfterTrade = (nft: Nft) => Nft;

/** An account the page knows only by address until the API names it. */
const person = (address: string) => ({ address, username: null, name: null, avatar: null });
/** The same, as rows name people (offers, the top bidder), until the indexed item brings their names. */
const named = (address: string) => ({ address, username: null, name: null, ens: null });

const wei = (amount: bigint) => amount.toString();

/** An offer the market still holds: live, or expired and not yet withdrawn. */
const held = (offer: Nft["offers"][number]) => offer.status === "active" || offer.status === "expired";

const notListed = { status: "minted", listing: null, auction: null, priceWei: null } as const;

/** The item's new state after each trade, as the item page and every trading screen read it. */
export const afterTrade = {
  listed:
    (seller: string, price: bigint, expiresAt: Date, signedId: string | null = null): AfterTrade =>
    (nft) => ({
      ...nft,
      status: "fix",
      priceWei: wei(price),
      listing: {
        kind: signedId === null ? "chain" : "signed",
        signedId,
        priceWei: wei(price),
        seller,
        expiresAt: expiresAt.toISOString(),
      },
    }),

  unlisted: (): AfterTrade => (nft) => ({ ...nft, ...notListed }),

  bought:
    (buyer: string): AfterTrade =>
    (nft) => ({
      ...nft,
      ...notListed,
      owner: person(buyer),
      lastPriceWei: nft.listing?.priceWei ?? nft.priceWei,
    }),

  lazyBought:
    (buyer: string): AfterTrade =>
    (nft) => ({ ...nft, ...notListed, lazy: false, owner: person(buyer), lastPriceWei: nft.priceWei }),

  /** A new offer or a raise (or a renewal): the offerer's offer leads until `expiresAt`; the one it beat is outbid. */
  offered:
    (buyer: string, amount: bigint, expiresAt: Date | null = null): AfterTrade =>
    (nft) => ({
      ...nft,
      offers: [
        {
          address: buyer,
          person: nft.offers.find((offer) => offer.address === buyer)?.person ?? named(buyer),
          priceWei: wei(amount),
          status: "active",
          time: new Date().toISOString(),
          expiresAt: expiresAt ? expiresAt.toISOString() : null,
        },
        ...nft.offers
          .filter((offer) => !(offer.address === buyer && held(offer)))
          .map((offer) => (held(offer) ? { ...offer, status: "outbid" } : offer)),
      ],
    }),

  offerCancelled:
    (buyer: string): AfterTrade =>
    (nft) => ({
      ...nft,
      offers: nft.offers.map((offer) =>
        offer.address === buyer && held(offer) ? { ...offer, status: "cancelled" } : offer,
      ),
    }),

  offerAccepted:
    (buyer: string, amount: bigint): AfterTrade =>
    (nft) => ({
      ...nft,
      ...notListed,
      owner: person(buyer),
      lastPriceWei: wei(amount),
      offers: nft.offers.map((offer) =>
        offer.status === "active" ? { ...offer, status: "accepted" } : offer,
      ),
    }),

  auctionSet:
    (
      seller: string,
      kind: "standard" | "reserve",
      basePrice: bigint,
      times: { start: Date; end: Date } | null,
    ): AfterTrade =>
    (nft) => ({
      ...nft,
      status: "auction",
      priceWei: wei(basePrice),
      listing: null,
      auction: {
        kind,
        seller,
        basePriceWei: wei(basePrice),
        topBidWei: null,
        topBidder: null,
        topBidderPerson: null,
        startTime: times ? times.start.toISOString() : null,
        endTime: times ? times.end.toISOString() : null,
        minBidWei: wei(basePrice),
      },
    }),

  baseChanged:
    (basePrice: bigint): AfterTrade =>
    (nft) =>
      nft.auction
        ? {
            ...nft,
            priceWei: wei(basePrice),
            auction: { ...nft.auction, basePriceWei: wei(basePrice), minBidWei: wei(basePrice) },
          }
        : nft,

  /** The bidder leads; the end moves only when the indexer reports it (the chain decides extensions). */
  bid:
    (bidder: string, amount: bigint): AfterTrade =>
    (nft) =>
      nft.auction
        ? {
            ...nft,
            priceWei: wei(amount),
            auction: {
              ...nft.auction,
              topBidWei: wei(amount),
              topBidder: bidder,
              topBidderPerson:
                nft.auction.topBidderPerson?.address === bidder ? nft.auction.topBidderPerson : named(bidder),
              minBidWei: wei(minNextBid(BigInt(nft.auction.basePriceWei), amount)),
            },
          }
        : nft,

  auctionCancelled: (): AfterTrade => (nft) => ({ ...nft, ...notListed }),

  settled: (): AfterTrade => (nft) =>
    nft.auction?.topBidder
      ? {
          ...nft,
          ...notListed,
          owner: person(nft.auction.topBidder),
          lastPriceWei: nft.auction.topBidWei,
        }
      : nft,
};
