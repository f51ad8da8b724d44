/**
 * The fixed choices people pick from on browse and profile pages: sorts, statuses, activity kinds, chart
 * ranges, social networks and report reasons. No schema code here, so a page that only shows the choices
 * loads none; the request schemas (browse.ts, accounts.ts) check against these same lists.
 */

export const ITEM_SORTS = [
  "none",
  "recentlyListed",
  "recentlyCreated",
  "recentlySold",
  "priceLowToHigh",
  "priceHighToLow",
  "mostViewed",
  "mostFavorited",
  /** Live auctions with an end time, ending soonest first (reserve auctions waiting for a bid have none). */
  "endingSoon",
] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];
export const ITEM_SORT_LABELS: Record<ItemSort, string> = {
  none: "None",
  recentlyListed: "Recently Listed",
  recentlyCreated: "Recently Created",
  recentlySold: "Recently Sold",
  priceLowToHigh: "Price low to high",
  priceHighToLow: "Price high to low",
  mostViewed: "Most viewed",
  mostFavorited: "Most favorited",
  endingSoon: "Ending soon",
};

/** What the collection activity list shows (the chain's activity kinds, grouped as people name them). */
export const ACTIVITY_FILTERS = ["mint", "list", "sale", "bid", "offer", "transfer"] as const;
export type ActivityFilter = (typeof ACTIVITY_FILTERS)[number];

export const HISTORY_RANGES = ["7d", "30d", "90d", "all"] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

export const COLLECTION_SORTS = [
  "owners",
  "floorPriceHighest",
  "floorPriceLowest",
  "newest",
  "oldest",
] as const;
export type CollectionSort = (typeof COLLECTION_SORTS)[number];
export const COLLECTION_SORT_LABELS: Record<CollectionSort, string> = {
  owners: "Most owners",
  floorPriceHighest: "Floor price: highest",
  floorPriceLowest: "Floor price: lowest",
  newest: "Newest",
  oldest: "Oldest",
};

export const ITEM_STATUSES = ["buyNow", "liveAuction", "reserveNotMet", "hasOffers", "lazy"] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
export const ITEM_STATUS_LABELS: Record<ItemStatus, string> = {
  buyNow: "Buy now",
  liveAuction: "Live auction",
  reserveNotMet: "Reserve not yet met",
  hasOffers: "Has offers",
  lazy: "Lazy minted",
};

export const SOCIAL_NETWORKS = ["instagram", "twitter", "facebook", "website", "discord"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
/** How each social network reads on screen. */
export const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  instagram: "Instagram",
  twitter: "Twitter",
  facebook: "Facebook",
  website: "Website",
  discord: "Discord",
};

export const REPORT_REASONS = [
  "Intellectual Property",
  "Counterfeit Artwork",
  "Graphic Sexual Content",
  "Hateful or Abusive Content",
  "Other Suspicious Activity",
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/**
 * What the market-wide activity feed (`/activity`) shows: sales, listings (auctions started included), bids
 * and offers.
 */
export const FEED_KINDS = ["sale", "list", "bid", "offer"] as const;
export type FeedKind = (typeof FEED_KINDS)[number];
