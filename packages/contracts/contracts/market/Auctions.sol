// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MarketCore} from "./MarketCore.sol";
import {IEaselCollection} from "../interfaces/IEaselCollection.sol";

/// @title Auctions
/// @notice Standard auctions (a start price, a start time and a duration) and reserve auctions (a reserve
/// price; the first bid at or above it starts a 72-hour auction). The token stays with its seller, locked by its
/// collection while the auction exists (no transfer, approval, burn, listing or other sale), so the winner always
/// receives it. The first bid must reach the start/reserve price,
/// later bids must beat the top bid by 10%; a bid in the last 15 minutes adds 15 minutes to the end. Every
/// bid states the bidder's new total: a newcomer sends all of it, the top bidder raising their own bid sends
/// exactly the difference. Anyone may complete an auction that ended with a winner. Cancelling
/// (`invalidateAuction`: the seller one without a bid, an operator any, refunding the top bid) is in
/// `EaselMarketAdmin`. The auction's record (`Auction`) is in `MarketCore`.
abstract contract Auctions is MarketCore {
    uint8 internal constant AUCTION_RESERVE = 2;
    /// @notice Longest standard auction and furthest start ahead.
    uint256 internal constant MAX_AUCTION_DURATION = 2 weeks;
    uint256 internal constant MAX_START_DELAY = 2 weeks;
    /// @notice Length of a reserve auction once its reserve is met.
    uint256 internal constant RESERVE_AUCTION_DURATION = 72 hours;
    /// @notice A bid with this long or less left adds this much to the end.
    uint256 internal constant EXTENSION_WINDOW = 15 minutes;
    uint8 private constant _MECHANISM_AUCTION = 2;

    /// @notice An auction was created; the token stays with its seller, locked until the auction ends (the lock
    /// counts as a transfer: every listing of it is void). `end` is 0 for a reserve auction.
    event AuctionCreated(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed seller,
        uint8 kind,
        uint256 price,
        uint256 start,
        uint256 end
    );
    /// @notice A bid of `amount` became the top bid; `end` is the (possibly extended) end time. The top bid
    /// before it, named by the previous `BidPlaced`, was refunded to its bidder, unless that bidder raised their
    /// own bid (then they paid only the difference). As Foundation's `ReserveAuctionBidPlaced`, the event does not
    /// repeat the previous bid: its two words cost every outbid 512 gas.
    event BidPlaced(
        address indexed collection, uint256 indexed tokenId, address indexed bidder, uint256 amount, uint256 end
    );

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
    /// @dev No reentrancy guard needed: the only call outside is the collection's `reserveTokenForAuction` (an Easel
    /// collection, code hash checked), which calls nothing.
    function setStandardAuction(address collection, uint256 tokenId, uint256 price, uint256 start, uint256 duration)
        external
    {
        Hot storage c = _config;
        _checkNewAuction(c, collection, tokenId);
        _checkPrice(price, _minimum(c.standardAuctionMinimum));
        if (start < block.timestamp) start = block.timestamp;
        if (start > block.timestamp + MAX_START_DELAY) revert StartTooFarAhead(start, block.timestamp + MAX_START_DELAY);
        if (duration < c.minAuctionDuration || duration > MAX_AUCTION_DURATION) {
            revert DurationOutOfRange(duration, c.minAuctionDuration, MAX_AUCTION_DURATION);
        }
        _createAuction(collection, tokenId, AUCTION_STANDARD, price, start, start + duration);
    }

    /// @notice Puts a token in a reserve auction. The first bid at or above `reservePrice` starts it for 72 hours.
    /// @param reservePrice In wei, at least the reserve minimum.
    /// @dev No reentrancy guard needed, as for `setStandardAuction`.
    function setReserveAuction(address collection, uint256 tokenId, uint256 reservePrice) external {
        Hot storage c = _config;
        _checkNewAuction(c, collection, tokenId);
        _checkPrice(reservePrice, _minimum(c.reserveAuctionMinimum));
        _createAuction(collection, tokenId, AUCTION_RESERVE, reservePrice, 0, 0);
    }

    /// @notice Bids on an auction; `amount` is the caller's new total bid. A newcomer sends `amount`; the top
    /// bidder raising their own bid sends exactly `amount` minus their current bid, so a repeated transaction
    /// or a stale page can never make them pay twice.
    function placeBid(address collection, uint256 tokenId, uint256 amount) external payable nonReentrant {
        _checkOpen(_config);
        _checkNotBanned(msg.sender);
        uint256 slot = _auctionSlot(collection, tokenId);
        (uint256 slot0, uint256 slot1) = _loadAuction(slot);
        if (uint8(slot0 >> 240) == 0) revert NoAuction(collection, tokenId);
        address seller = address(uint160(slot0));
        if (seller == msg.sender) revert TokenOwnerCannotCall(msg.sender);
        // An auction exists only for an Easel collection: the code-hash check is not needed again.
        _checkNotBanned(seller);
        _checkCollectionNotBlocked(collection);
        if (slot0 >> 248 != 0) revert TokenIsBlocked(collection, tokenId);
        uint256 start = uint40(slot0 >> 160);
        if (block.timestamp < start) revert StartTimeNotReached(start);
        uint256 storedEnd = uint40(slot0 >> 200);
        if (storedEnd != 0 && block.timestamp >= storedEnd) revert AuctionTimeFinished(storedEnd);

        address previousBidder = address(uint160(slot1));
        uint256 previousAmount = slot1 >> 160;
        uint256 minimum = previousBidder == address(0) ? previousAmount : _minNextBid(previousAmount);
        if (amount < minimum) revert BidTooLow(amount, minimum);
        if (amount > MAX_PRICE) revert PriceOutOfRange(amount, minimum, MAX_PRICE);
        bool raise = previousBidder == msg.sender;
        // amount >= minimum > previousAmount when raising, so the difference cannot underflow.
        uint256 payment = raise ? amount - previousAmount : amount;
        if (msg.value != payment) revert IncorrectPayment(payment, msg.value);

        uint256 end;
        // Timestamps: no overflow; end > block.timestamp (a stored end was checked above), no underflow.
        unchecked {
            end = storedEnd == 0 ? block.timestamp + RESERVE_AUCTION_DURATION : storedEnd;
            // In the last 15 minutes (15:00 left included), the end moves 15 minutes later.
            if (end - block.timestamp <= EXTENSION_WINDOW) end += EXTENSION_WINDOW;
        }

        // The bidder and amount share the second slot: one SSTORE (amount <= MAX_PRICE, checked above). A new end
        // (a reserve auction's first bid, or an extension) rewrites the first slot from the value read above.
        assembly ("memory-safe") {
            sstore(add(slot, 1), or(caller(), shl(160, amount)))
            if iszero(eq(end, storedEnd)) {
                sstore(slot, or(and(slot0, not(shl(200, 0xffffffffff))), shl(200, end)))
            }
        }

        _emitBidPlaced(collection, tokenId, amount, end);
        if (!raise && previousBidder != address(0)) _send(previousBidder, previousAmount);
    }

    /// @notice Completes an auction that ended with a winner: the token goes to the winner and the price is paid
    /// out. Anyone may call: the outcome is fixed, so settling only moves the token and ETH where they are owed,
    /// and nobody's absence can keep them stuck. It works while the market is locked; while the seller or the
    /// winner is banned or the token or collection blocked it is refused, and an operator decides (unblock,
    /// unban, or cancel with a refund). Its only event is the `Sale` (mechanism 2), which names the seller, the
    /// winner and the price.
    function completeAuction(address collection, uint256 tokenId) external nonReentrant {
        // In one block, as `_auctionSlot`, `_loadAuction` and `_checkNotBanned` do it, without their calls: the
        // auction's slot (`keccak256(tokenId . keccak256(collection . _auctions.slot))`), its two words, and the
        // seller's and the winner's account flags (`keccak256(account . _accounts.slot)`), read before any check
        // and checked in the same order as before (only reads: nothing is written before the checks pass).
        uint256 slot;
        uint256 slot0;
        uint256 slot1;
        uint256 sellerFlags;
        uint256 winnerFlags;
        assembly ("memory-safe") {
            mstore(0x00, collection)
            mstore(0x20, _auctions.slot)
            mstore(0x20, keccak256(0x00, 0x40))
            mstore(0x00, tokenId)
            slot := keccak256(0x00, 0x40)
            slot0 := sload(slot)
            slot1 := sload(add(slot, 1))
        }
        if (uint8(slot0 >> 240) == 0) revert NoAuction(collection, tokenId);
        address winner = address(uint160(slot1));
        if (winner == address(0)) revert AuctionHasNoWinner(collection, tokenId);
        uint256 end = uint40(slot0 >> 200);
        if (block.timestamp < end) revert AuctionNotEnded(end);
        address seller = address(uint160(slot0));
        assembly ("memory-safe") {
            mstore(0x00, seller)
            mstore(0x20, _accounts.slot)
            sellerFlags := sload(keccak256(0x00, 0x40))
            mstore(0x00, winner)
            winnerFlags := sload(keccak256(0x00, 0x40))
        }
        if (sellerFlags & BANNED != 0) revert UserIsBanned(seller);
        if (winnerFlags & BANNED != 0) revert UserIsBanned(winner);
        if (slot0 >> 248 != 0) revert TokenIsBlocked(collection, tokenId);
        // The collection refuses the sale itself while it is blocked.
        assembly ("memory-safe") {
            sstore(slot, 0)
            sstore(add(slot, 1), 0)
        }
        // The collection moves the locked token from its seller (the answer's first word) to the winner.
        uint256 terms = _deliver(collection, tokenId, winner, IEaselCollection.sellAuctioned.selector);
        _payout(_config, collection, tokenId, terms, winner, slot1 >> 160, _MECHANISM_AUCTION);
    }

    /// @dev The auction's two slots as `_createAuction` writes them (the layout is on `MarketCore.Auction`), read
    /// as words: no memory copy of the struct.
    function _loadAuction(uint256 slot) private view returns (uint256 slot0, uint256 slot1) {
        assembly ("memory-safe") {
            slot0 := sload(slot)
            slot1 := sload(add(slot, 1))
        }
    }

    /// @dev `emit BidPlaced(collection, tokenId, msg.sender, amount, end)`, encoded in place.
    function _emitBidPlaced(address collection, uint256 tokenId, uint256 amount, uint256 end) private {
        bytes32 signature = BidPlaced.selector;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, amount)
            mstore(add(m, 0x20), end)
            log4(m, 0x40, signature, collection, tokenId, caller())
        }
    }

    function _checkNewAuction(Hot storage c, address collection, uint256 tokenId) private view {
        _checkEntrance(c);
        _checkNotBanned(msg.sender);
        _checkCollection(collection);
        _checkTokenNotBlocked(collection, tokenId);
    }

    /// @dev The collection's lock itself checks that the caller holds the token and approved the market
    /// (`TransferFromIncorrectOwner`, `NotOwnerNorApproved`) and that it is in no auction yet (`TokenInAuction`),
    /// so no separate ownership read is spent.
    function _createAuction(address collection, uint256 tokenId, uint8 kind, uint256 price, uint256 start, uint256 end)
        private
    {
        Auction storage a = _auctions[collection][tokenId];
        // Both slots in one SSTORE each (a struct assignment writes field by field): seller, start, end, kind,
        // tokenBlocked = false; then bidder = none, amount = the starting price (<= MAX_PRICE, 80 bits).
        assembly ("memory-safe") {
            sstore(a.slot, or(caller(), or(shl(160, start), or(shl(200, end), shl(240, kind)))))
            sstore(add(a.slot, 1), shl(160, price))
        }
        emit AuctionCreated(collection, tokenId, msg.sender, kind, price, start, end);
        // The lock changes the token's transfer count, which voids any listing of it. Called by hand: the
        // collection is an Easel collection (code hash checked), so Solidity's code-size check is not needed.
        bytes4 selector = IEaselCollection.reserveTokenForAuction.selector;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, selector)
            mstore(add(m, 0x04), caller())
            mstore(add(m, 0x24), tokenId)
            if iszero(call(gas(), collection, 0, m, 0x44, codesize(), 0x00)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
        }
    }
}
