// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {SellOrders} from "./SellOrders.sol";
import {IEaselCollection} from "../interfaces/IEaselCollection.sol";
import {SaleInfo} from "../interfaces/IEaselTypes.sol";

/// @title Auctions
/// @notice Standard auctions (a start price, a start time and a duration) and reserve auctions (a reserve
/// price; the first bid at or above it starts a 72-hour auction). The token is escrowed in the market while
/// the auction exists, so the winner always receives it. The first bid must reach the start/reserve price,
/// later bids must beat the top bid by 10%; a bid in the last 15 minutes pushes the end to 15 minutes after it.
/// A bidder may raise their own bid by sending only the difference. Anyone may complete an auction that ended
/// with a winner; the seller (or an operator) may cancel one that has no bid.
abstract contract Auctions is SellOrders {
    uint8 public constant AUCTION_STANDARD = 1;
    uint8 public constant AUCTION_RESERVE = 2;
    /// @notice Longest standard auction and furthest start ahead.
    uint256 public constant MAX_AUCTION_DURATION = 2 weeks;
    uint256 public constant MAX_START_DELAY = 2 weeks;
    /// @notice Length of a reserve auction once its reserve is met.
    uint256 public constant RESERVE_AUCTION_DURATION = 72 hours;
    /// @notice A bid this close to the end moves the end to this long after the bid.
    uint256 public constant EXTENSION_WINDOW = 15 minutes;
    /// @notice A later bid must be at least the top bid plus this share (in basis points).
    uint256 public constant MIN_INCREMENT_BPS = 1_000;
    uint8 internal constant _MECHANISM_AUCTION = 2;

    /// @dev Two slots. `amount` is the start/reserve price until the first bid, then the top bid.
    /// `end` is 0 for a reserve auction until its first bid.
    struct Auction {
        address seller;
        uint40 start;
        uint40 end;
        uint8 kind;
        address bidder;
        uint96 amount;
    }

    mapping(address collection => mapping(uint256 tokenId => Auction)) internal _auctions;

    /// @notice An auction was created; the token is now held by the market. `end` is 0 for a reserve auction.
    event AuctionCreated(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed seller,
        uint8 kind,
        uint256 price,
        uint256 start,
        uint256 end
    );
    /// @notice The seller changed a standard auction's start price before any bid.
    event AuctionBaseValueChanged(address indexed collection, uint256 indexed tokenId, uint256 price);
    /// @notice An auction without bids was cancelled and the token returned to the seller.
    event AuctionCancelled(address indexed collection, uint256 indexed tokenId, address indexed seller);
    /// @notice A bid of `amount` became the top bid; `end` is the (possibly extended) end time. The previous
    /// top bidder (if any, and not the same bidder) was refunded `previousAmount`.
    event BidPlaced(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed bidder,
        uint256 amount,
        uint256 end,
        address previousBidder,
        uint256 previousAmount
    );
    /// @notice An auction was completed: the token went to `winner`; the payout is in the Sale event.
    event AuctionCompleted(
        address indexed collection, uint256 indexed tokenId, address indexed seller, address winner, uint256 price
    );

    error NoAuction(address collection, uint256 tokenId);
    error TokenInAuction(address collection, uint256 tokenId);
    error NotAuctionSeller(address caller, address seller);
    error NotStandardAuction(address collection, uint256 tokenId);
    error AuctionHasBid(address collection, uint256 tokenId, address bidder);
    error StartTooFarAhead(uint256 start, uint256 latest);
    error StartTimeNotReached(uint256 start);
    error AuctionTimeFinished(uint256 end);
    error AuctionNotEnded(uint256 end);
    error AuctionHasNoWinner(address collection, uint256 tokenId);
    error BidTooLow(uint256 bid, uint256 minimum);

    /// @notice Puts a token in a standard auction. The caller owns it and approved the market.
    /// @param price The start price in wei (at least the standard-auction minimum).
    /// @param start Start time in seconds; a past time means now; at most 2 weeks ahead.
    /// @param duration Seconds, between the minimum duration and 2 weeks.
    function setStandardAuction(address collection, uint256 tokenId, uint256 price, uint256 start, uint256 duration)
        external
        nonReentrant
    {
        Hot memory c = _config;
        _checkListing(c, collection, tokenId);
        _checkPrice(price, _auctionMinimums.standardAuction);
        if (start < block.timestamp) start = block.timestamp;
        if (start > block.timestamp + MAX_START_DELAY) revert StartTooFarAhead(start, block.timestamp + MAX_START_DELAY);
        if (duration < c.minAuctionDuration || duration > MAX_AUCTION_DURATION) {
            revert DurationOutOfRange(duration, c.minAuctionDuration, MAX_AUCTION_DURATION);
        }
        _createAuction(collection, tokenId, AUCTION_STANDARD, price, start, start + duration);
    }

    /// @notice Puts a token in a reserve auction. The first bid at or above `reservePrice` starts it for 72 hours.
    /// @param reservePrice In wei, at least the reserve minimum.
    function setReserveAuction(address collection, uint256 tokenId, uint256 reservePrice) external nonReentrant {
        _checkListing(_config, collection, tokenId);
        _checkPrice(reservePrice, _auctionMinimums.reserveAuction);
        _createAuction(collection, tokenId, AUCTION_RESERVE, reservePrice, 0, 0);
    }

    /// @notice Changes the start price of a standard auction that has no bid yet. Seller only.
    function changeStandardAuctionBaseValue(address collection, uint256 tokenId, uint256 price) external nonReentrant {
        Auction storage a = _auctions[collection][tokenId];
        if (a.kind != AUCTION_STANDARD) revert NotStandardAuction(collection, tokenId);
        if (a.seller != msg.sender) revert NotAuctionSeller(msg.sender, a.seller);
        if (a.bidder != address(0)) revert AuctionHasBid(collection, tokenId, a.bidder);
        _checkPrice(price, _auctionMinimums.standardAuction);
        a.amount = uint96(price);
        emit AuctionBaseValueChanged(collection, tokenId, price);
    }

    /// @notice Cancels an auction that has no bid and returns the token to the seller. The seller (banned or
    /// not) or an operator may call.
    function invalidateAuction(address collection, uint256 tokenId) external nonReentrant {
        Auction memory a = _auctions[collection][tokenId];
        if (a.kind == 0) revert NoAuction(collection, tokenId);
        if (a.seller != msg.sender && !hasRole(OPERATOR_ROLE, msg.sender)) revert NotAuctionSeller(msg.sender, a.seller);
        if (a.bidder != address(0)) revert AuctionHasBid(collection, tokenId, a.bidder);
        delete _auctions[collection][tokenId];
        emit AuctionCancelled(collection, tokenId, a.seller);
        IEaselCollection(collection).transferFrom(address(this), a.seller, tokenId);
    }

    /// @notice Bids on an auction. The first bid sends at least the start/reserve price; the top bidder raising
    /// their own bid sends only the difference.
    function placeBid(address collection, uint256 tokenId) external payable nonReentrant {
        _checkTrade(_config, msg.sender, collection, tokenId);
        Auction memory a = _auctions[collection][tokenId];
        if (a.kind == 0) revert NoAuction(collection, tokenId);
        if (a.seller == msg.sender) revert TokenOwnerCannotCall(msg.sender);
        if (block.timestamp < a.start) revert StartTimeNotReached(a.start);
        uint256 end = a.end;
        if (end != 0 && block.timestamp >= end) revert AuctionTimeFinished(end);

        address previousBidder = a.bidder;
        uint256 previousAmount = a.amount;
        uint256 bid;
        if (previousBidder == address(0)) {
            bid = msg.value;
            if (bid < previousAmount) revert BidTooLow(bid, previousAmount);
            if (end == 0) end = block.timestamp + RESERVE_AUCTION_DURATION;
        } else {
            bid = previousBidder == msg.sender ? previousAmount + msg.value : msg.value;
            uint256 minimum = _minNextBid(previousAmount);
            if (bid < minimum) revert BidTooLow(bid, minimum);
        }
        if (bid > MAX_PRICE) revert PriceOutOfRange(bid, 0, MAX_PRICE);
        if (end - block.timestamp < EXTENSION_WINDOW) end = block.timestamp + EXTENSION_WINDOW;

        Auction storage s = _auctions[collection][tokenId];
        s.bidder = msg.sender;
        s.amount = uint96(bid);
        if (end != a.end) s.end = uint40(end);

        bool refund = previousBidder != address(0) && previousBidder != msg.sender;
        _escrowTotal = _escrowTotal + msg.value - (refund ? previousAmount : 0);
        if (refund) {
            emit BidPlaced(collection, tokenId, msg.sender, bid, end, previousBidder, previousAmount);
            _send(previousBidder, previousAmount);
        } else {
            emit BidPlaced(collection, tokenId, msg.sender, bid, end, address(0), 0);
        }
    }

    /// @notice Completes an auction that ended with a winner: the token goes to the winner, the price is paid
    /// out. Anyone may call: the outcome is already fixed, so settling only moves the token and ETH where
    /// they are owed, and nobody's absence can keep them stuck. Works while locked and for banned parties.
    function completeAuction(address collection, uint256 tokenId) external nonReentrant {
        Auction memory a = _auctions[collection][tokenId];
        if (a.kind == 0) revert NoAuction(collection, tokenId);
        if (a.bidder == address(0)) revert AuctionHasNoWinner(collection, tokenId);
        if (block.timestamp < a.end) revert AuctionNotEnded(a.end);
        delete _auctions[collection][tokenId];
        _escrowTotal -= a.amount;
        emit AuctionCompleted(collection, tokenId, a.seller, a.bidder, a.amount);
        SaleInfo memory info = IEaselCollection(collection).saleInfo(tokenId);
        _settleSale(_config, collection, tokenId, info, address(this), a.seller, a.bidder, a.amount, _MECHANISM_AUCTION);
    }

    /// @notice The auction of a token (all zeros when there is none).
    function getAuction(address collection, uint256 tokenId) external view returns (Auction memory) {
        return _auctions[collection][tokenId];
    }

    /// @notice The smallest bid the auction accepts now (0 when there is no auction).
    function minimumBid(address collection, uint256 tokenId) public view returns (uint256) {
        Auction memory a = _auctions[collection][tokenId];
        if (a.kind == 0) return 0;
        return a.bidder == address(0) ? a.amount : _minNextBid(a.amount);
    }

    function _minNextBid(uint256 topBid) internal pure returns (uint256) {
        return topBid + (topBid * MIN_INCREMENT_BPS) / 10_000;
    }

    function _createAuction(address collection, uint256 tokenId, uint8 kind, uint256 price, uint256 start, uint256 end)
        private
    {
        _checkOwnerAndApproval(collection, tokenId);
        // A token is never both listed and in an auction.
        _clearSellOrder(collection, tokenId);
        _auctions[collection][tokenId] = Auction({
            seller: msg.sender,
            start: uint40(start),
            end: uint40(end),
            kind: kind,
            bidder: address(0),
            amount: uint96(price)
        });
        emit AuctionCreated(collection, tokenId, msg.sender, kind, price, start, end);
        IEaselCollection(collection).transferFrom(msg.sender, address(this), tokenId);
    }
}
