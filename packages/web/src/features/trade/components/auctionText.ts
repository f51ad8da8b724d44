/** Words and limits shared by the auction screens (the spec's texts where it gives them). */

export const DAY_S = 86_400;
/** The pickers' ranges (the spec's): a start up to 7 days ahead, an end up to 21 days after the start. */
export const START_MAX_DAYS = 7;
export const END_MAX_DAYS = 21;
/** The contract's longest auction. */
export const MAX_DURATION_S = 14 * DAY_S;
export const RESERVE_HOURS = 72;

export const AUCTION_TEXT = {
  approving: "Approving...",
  confirming: "Confirming...",
  finalizing: "Finalizing...",
  started: "Your auction has started.",
  reserveSet: "Reserved auction was set.",
  bidPlaced: "Your bid has been placed.",
  baseChanged: "The starting price has been updated.",
  // The item never left the seller's wallet: the cancellation lifts the auction's lock on it.
  cancelled: "Your auction has been cancelled: the item is free to list or move again.",
  // The spec's buttons (Manage Standard Auction: 'Cancel auction'; Manage Reserved Auction: 'Cancel Auction'),
  // and the question before either, worded as the fixed price's 'Are you going to unlist your item?'.
  cancelStandard: "Cancel auction",
  cancelReserved: "Cancel Auction",
  cancelQuestion: "Are you going to cancel your auction?",
  settled: "The auction is settled: the item and the payment went where they are owed.",
  notOwner: "Only the owner of this item can put it in an auction.",
  alreadyInAuction: "This item is already in an auction.",
  // An auction would void the listing on chain; the seller ends it knowingly, with the spec's Unlist.
  listed: "This item is listed at a fixed price: unlist it before putting it in an auction.",
  noAuctionKind: "This item cannot be put in an auction on Easel.",
  notSeller: "Only the seller of this auction can manage it.",
  noAuction: "This item is not in an auction.",
  ownAuction: "This is your auction: you cannot bid on it.",
  ended: "This auction has ended.",
  hasBid: "The auction has a bid: it can no longer be changed or cancelled.",
  notEnded: "This auction has not ended yet.",
  startRange: `The start must be between now and ${START_MAX_DAYS} days ahead.`,
  endRange: "The end must be after the start, within 2 weeks of it.",
  // The spec's "Your must bid at least", its evident misspelling corrected.
  mustBid: (min: string) => `You must bid at least ${min}`,
  insufficient: "Insufficient fund",
} as const;
