// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MarketCore} from "./MarketCore.sol";
import {IEaselCollection} from "../interfaces/IEaselCollection.sol";

/// @title SellOrders
/// @notice Fixed-price listings. Non-custodial: the token stays with its owner, who approves the market. A
/// listing records the token's transfer count when it was set and is void as soon as the token changes hands
/// (any transfer, even in the same block or transaction, even if it comes back), and it expires 100 days
/// after it was set. Its views (`getSellOrder`, `sellOrderOf`) are in `EaselMarketAdmin`.
abstract contract SellOrders is MarketCore {
    uint8 private constant _MECHANISM_BUY_NOW = 1;

    // The listing lives in the core's per-token slot (`TokenSlot.listPrice/listedAt/listTransferCount`),
    // beside the token's block flag, so that `buyNow` reads both in one cold access.

    /// @notice The owner listed (or relisted) a token at `price` until `expiresAt`.
    event SellOrderSet(
        address indexed collection, uint256 indexed tokenId, address indexed seller, uint256 price, uint256 expiresAt
    );
    /// @notice The owner removed a listing.
    event SellOrderCancelled(address indexed collection, uint256 indexed tokenId, address indexed seller);

    error NoSellOrder(address collection, uint256 tokenId);

    /// @notice Lists a token at a fixed price. The caller owns it and approved the market.
    /// @param price In wei, at least the listing minimum.
    /// @dev Only a view is called outside: no reentrancy guard needed.
    function setSellOrder(address collection, uint256 tokenId, uint256 price) external {
        Hot storage c = _config;
        _checkEntrance(c);
        _checkNotBanned(msg.sender);
        _checkCollection(collection);
        TokenSlot storage slot = _tokenSlot(collection, tokenId);
        if (slot.blocked) revert TokenIsBlocked(collection, tokenId);
        _checkPrice(price, _minimum(c.listingMinimum));
        uint256 transferCount = _checkOwnerAndApproval(collection, tokenId);
        // Not blocked (checked above): writing the whole slot keeps the flag false.
        _writeListing(slot, price, block.timestamp, transferCount, false);
        emit SellOrderSet(collection, tokenId, msg.sender, price, block.timestamp + SELL_ORDER_DURATION);
    }

    /// @notice Removes the listing of a token the caller owns. Allowed for banned users and while locked.
    /// @dev Only a view is called outside: no reentrancy guard needed.
    function cancelSellOrder(address collection, uint256 tokenId) external {
        TokenSlot storage slot = _tokenSlot(collection, tokenId);
        if (slot.listPrice == 0) revert NoSellOrder(collection, tokenId);
        address owner = IEaselCollection(collection).ownerOf(tokenId);
        if (owner != msg.sender) revert OnlyTokenOwner(msg.sender, owner);
        _writeListing(slot, 0, 0, 0, slot.blocked);
        emit SellOrderCancelled(collection, tokenId, msg.sender);
    }

    /// @notice Buys a listed token, sending exactly the listed price.
    function buyNow(address collection, uint256 tokenId) external payable nonReentrant {
        _buyListed(collection, tokenId, msg.value, msg.sender);
    }

    /// @dev Buys a listed token for `buyer`, who paid `paid` (exactly the listed price, or it reverts).
    function _buyListed(address collection, uint256 tokenId, uint256 paid, address buyer) internal {
        Hot storage c = _config;
        _checkOpen(c);
        _checkNotBanned(buyer);
        // The collection refuses the sale itself while it is blocked; only its code hash is checked here.
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        TokenSlot storage slot = _tokenSlot(collection, tokenId);
        TokenSlot memory order = slot;
        if (order.blocked) revert TokenIsBlocked(collection, tokenId);
        if (order.listPrice == 0) revert NoSellOrder(collection, tokenId);
        uint256 expiresAt = uint256(order.listedAt) + SELL_ORDER_DURATION;
        if (block.timestamp >= expiresAt) revert SellOrderExpired(expiresAt);
        if (paid != order.listPrice) revert IncorrectPayment(order.listPrice, paid);
        // Not blocked: clearing the whole slot keeps the flag false.
        _writeListing(slot, 0, 0, 0, false);
        // The transfer and the checks below are one atomic step: a failed check undoes the transfer.
        uint256 terms = _deliverPurchase(collection, tokenId, buyer);
        uint256 transferCount = _termsWord(terms, 3);
        if (transferCount != order.listTransferCount) revert SellOrderVoid(order.listTransferCount, transferCount);
        address seller = address(uint160(_termsWord(terms, 0)));
        if (seller == buyer) revert TokenOwnerCannotCall(buyer);
        _checkNotBanned(seller);
        _payout(c, collection, tokenId, terms, buyer, paid, _MECHANISM_BUY_NOW);
    }

    /// @dev Writes the whole slot in one SSTORE (field-by-field assignment costs one per field).
    /// `price` <= MAX_PRICE (80 bits), a timestamp fits 40 bits and a transfer count 39 (the collection's).
    function _writeListing(TokenSlot storage slot, uint256 price, uint256 listedAt, uint256 transferCount, bool blocked)
        private
    {
        assembly ("memory-safe") {
            sstore(slot.slot, or(or(price, shl(80, listedAt)), or(shl(120, transferCount), shl(160, blocked))))
        }
    }
}
