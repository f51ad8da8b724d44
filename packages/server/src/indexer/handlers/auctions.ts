import { AUCTION_KIND } from "@easel/contracts";
import { dateOf } from "../../db/timestamps.ts";
import { blockText, timeText, tokenKey, ZERO } from "../keys.ts";
import { activeAuction, endAuction, eth, type Handlers, kindName, setTokenStatus } from "./shared.ts";

/**
 * The market's auctions (Auctions). The token stays with its seller throughout (the platform is non-custodial):
 * its collection locks it while the auction exists. A completed auction has no event of its own: its settlement
 * logs the Transfer (seller to winner) and then its `Sale` (mechanism 2), which ends it, as a buy-now does.
 */
export const auctionHandlers = {
  AuctionCreated(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const end = String(a.end) === "0" ? null : new Date(Number(a.end) * 1000).toISOString();
    const row = b.auctions.set({
      collection,
      token_id: tokenId,
      created_block: blockText(e.blockNumber),
      created_log_index: e.logIndex,
      kind: kindName(AUCTION_KIND, a.kind),
      seller: a.seller,
      base_price: a.price,
      start_time: String(a.start) === "0" ? null : new Date(Number(a.start) * 1000).toISOString(),
      end_time: end,
      original_end_time: end,
      extended: false,
      top_bid: null,
      top_bidder: null,
      bids_count: 0,
      status: "active",
      winner: null,
      created_tx: e.txHash,
      updated_block: blockText(e.blockNumber),
    });
    b.activeAuction.set(tokenKey(collection, tokenId), b.auctions.keyOf(row));
    b.copyToToken(collection, tokenId, { auction_kind: row.kind, auction_end: end });
    // The token stays with its seller (`holder` too), locked by its collection until the auction ends; the lock
    // counts as a transfer of it (no Transfer event): its on-chain listing and every signed order are void.
    b.endListing(e, collection, tokenId, "void");
    b.bookChange(e, { kind: "transfer", collection, tokenId });
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "auction", a.price);
    b.activityRow(e, 0, "auction", collection, tokenId, a.seller, null, a.price);
    b.notifyWatchers(
      e,
      "watch_listed",
      (item) => `${item}, which you favourited, went on auction from ${eth(a.price)}.`,
      { collection, tokenId, price: a.price },
      [a.seller],
    );
    b.touch(collection, tokenId, a.seller);
  },

  AuctionBaseValueChanged(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const auction = activeAuction(b, collection, tokenId);
    if (auction) {
      auction.base_price = a.price;
      auction.updated_block = blockText(e.blockNumber);
      b.auctions.touch(auction);
    }
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "auction", a.price);
    b.notifyWatchers(
      e,
      "watch_price",
      (item) => `The auction of ${item}, which you favourited, now starts from ${eth(a.price)}.`,
      { collection, tokenId, price: a.price },
      [auction?.seller],
    );
    b.touch(collection, tokenId);
  },

  AuctionCancelled(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    endAuction(b, e, collection, tokenId, "cancelled", null);
    // The token never left its seller: the collection lifts the lock and counts it as a transfer again (no
    // Transfer event), so an order signed during the auction is void too (nothing can list it meanwhile).
    b.endListing(e, collection, tokenId, "void");
    b.bookChange(e, { kind: "transfer", collection, tokenId });
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "minted", null);
    b.activityRow(e, 0, "auction_cancelled", collection, tokenId, a.seller, null, null);
    // An operator may cancel an auction that has bids: the top bid is refunded.
    const refunded = a.refundedBidder === ZERO ? null : String(a.refundedBidder);
    if (refunded) {
      b.notify(
        e,
        refunded,
        "auction_cancelled",
        "bidActivity",
        (item) => `The auction of ${item} was cancelled; your bid of ${eth(a.refundedAmount)} was refunded.`,
        { collection, tokenId, amount: a.refundedAmount },
      );
    }
    b.touch(collection, tokenId, a.seller, refunded);
  },

  BidPlaced(b, e) {
    const a = e.args;
    const collection = String(a.collection);
    const tokenId = String(a.tokenId);
    const end = new Date(Number(a.end) * 1000).toISOString();
    // The top bid this one replaced is the auction's as the indexer holds it (the event does not repeat it):
    // refunded to its bidder, unless that bidder raised their own bid.
    const auction = activeAuction(b, collection, tokenId);
    const topBidder = auction?.top_bidder ? String(auction.top_bidder) : null;
    const previous = topBidder && topBidder !== String(a.bidder) ? topBidder : null;
    const previousAmount = previous ? (auction?.top_bid ?? null) : null;
    b.bids.push({
      block_number: blockText(e.blockNumber),
      log_index: e.logIndex,
      collection,
      token_id: tokenId,
      bidder: a.bidder,
      amount: a.amount,
      end_time: end,
      previous_bidder: previous,
      previous_amount: previousAmount,
      tx_hash: e.txHash,
      block_time: timeText(e.blockTime),
    });
    if (auction) {
      if (auction.end_time == null) {
        // A reserve auction starts with its first bid.
        auction.start_time = timeText(e.blockTime);
        auction.original_end_time = end;
      } else if (dateOf(auction.end_time).getTime() !== new Date(end).getTime()) {
        auction.extended = true;
      }
      auction.end_time = end;
      auction.top_bid = a.amount;
      auction.top_bidder = a.bidder;
      auction.bids_count = Number(auction.bids_count) + 1;
      auction.updated_block = blockText(e.blockNumber);
      b.auctions.touch(auction);
      b.copyToToken(collection, tokenId, { auction_end: end });
    }
    const token = b.token(collection, tokenId);
    if (token) setTokenStatus(b, e, token, "auction", a.amount);
    b.activityRow(e, 0, "bid", collection, tokenId, a.bidder, null, a.amount);
    const data = { collection, tokenId, amount: a.amount };
    if (previous) {
      b.activityRow(e, 1, "outbid", collection, tokenId, previous, a.bidder, previousAmount);
      b.notify(
        e,
        previous,
        "outbid",
        "bidActivity",
        (item, bidder) =>
          `You were outbid on ${item} by ${bidder}: the top bid is now ${eth(a.amount)}; ${eth(previousAmount)} was refunded.`,
        data,
        a.bidder,
      );
    }
    const seller = auction?.seller ?? token?.owner;
    b.notify(e, seller, "bid", "auction", (item) => `New bid of ${eth(a.amount)} on your ${item}.`, data);
    b.notifyWatchers(
      e,
      "watch_bid",
      (item, bidder) => `${bidder} bid ${eth(a.amount)} on ${item}, which you favourited.`,
      data,
      [a.bidder],
      a.bidder,
    );
    b.touch(collection, tokenId, a.bidder, previous, seller);
  },
} satisfies Handlers;
