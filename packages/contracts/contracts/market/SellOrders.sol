// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MarketCore} from "./MarketCore.sol";
import {IEaselCollection} from "../interfaces/IEaselCollection.sol";
import {SaleInfo} from "../interfaces/IEaselTypes.sol";

/// @title SellOrders
/// @notice Fixed-price listings. Non-custodial: the token stays with its owner, who approves the market. A
/// listing belongs to the token's owner at the time it was set; it is void once the token changes hands (the
/// collection records the last transfer time) and expires 100 days after it was set.
abstract contract SellOrders is MarketCore {
    /// @notice How long a listing lasts.
    uint256 public constant SELL_ORDER_DURATION = 100 days;
    uint8 internal constant _MECHANISM_BUY_NOW = 1;

    // The listings (`_sellOrders`, with the token's blocked flag) live in MarketCore. The seller is the owner: a
    // listing set before the last transfer is ignored.

    /// @notice The owner listed (or relisted) a token at `price` until `expiresAt`.
    event SellOrderSet(
        address indexed collection, uint256 indexed tokenId, address indexed seller, uint256 price, uint256 expiresAt
    );
    /// @notice The owner removed a listing.
    event SellOrderCancelled(address indexed collection, uint256 indexed tokenId, address indexed seller);

    error NoSellOrder(address collection, uint256 tokenId);
    error SellOrderExpired(uint256 expiresAt);
    error SellOrderVoid(uint256 listedAt, uint256 lastTransferAt);

    /// @notice Lists a token at a fixed price. The caller owns it and approved the market.
    /// @param price In wei, at least the listing minimum.
    function setSellOrder(address collection, uint256 tokenId, uint256 price) external nonReentrant {
        Hot memory c = _config;
        _checkListing(c, collection, tokenId);
        _checkPrice(price, c.listingMinimum);
        _checkOwnerAndApproval(collection, tokenId);
        // The token is not blocked (checked above), so the flag stays false.
        _sellOrders[collection][tokenId] = SellOrder(uint96(price), uint40(block.timestamp), false);
        emit SellOrderSet(collection, tokenId, msg.sender, price, block.timestamp + SELL_ORDER_DURATION);
    }

    /// @notice Removes the listing of a token the caller owns. Allowed for banned users and while locked.
    function cancelSellOrder(address collection, uint256 tokenId) external nonReentrant {
        if (_sellOrders[collection][tokenId].price == 0) revert NoSellOrder(collection, tokenId);
        address owner = IEaselCollection(collection).ownerOf(tokenId);
        if (owner != msg.sender) revert OnlyTokenOwner(msg.sender, owner);
        _clearSellOrder(collection, tokenId);
        emit SellOrderCancelled(collection, tokenId, msg.sender);
    }

    /// @notice Buys a listed token, sending exactly the listed price.
    function buyNow(address collection, uint256 tokenId) external payable nonReentrant {
        Hot memory c = _config;
        // _checkTrade, with the token's blocked flag read from the listing's slot.
        if (c.locked) revert MarketIsLocked();
        _checkUser(msg.sender);
        _checkCollection(collection);
        SellOrder memory order = _sellOrders[collection][tokenId];
        if (order.blocked) revert TokenIsBlocked(collection, tokenId);
        if (order.price == 0) revert NoSellOrder(collection, tokenId);
        SaleInfo memory info = IEaselCollection(collection).saleInfo(tokenId);
        address seller = info.owner;
        if (order.listedAt < info.lastTransferAt) revert SellOrderVoid(order.listedAt, info.lastTransferAt);
        uint256 expiresAt = uint256(order.listedAt) + SELL_ORDER_DURATION;
        if (block.timestamp >= expiresAt) revert SellOrderExpired(expiresAt);
        if (seller == msg.sender) revert TokenOwnerCannotCall(msg.sender);
        _checkUser(seller);
        if (msg.value != order.price) revert IncorrectPayment(order.price, msg.value);
        // Not blocked (checked above): clearing the whole slot keeps the flag false.
        delete _sellOrders[collection][tokenId];
        _settleSale(c, collection, tokenId, info, seller, seller, msg.sender, msg.value, _MECHANISM_BUY_NOW);
    }

    /// @notice The stored listing of a token, live or not (price 0 = none).
    function sellOrderOf(address collection, uint256 tokenId) external view returns (uint256 price, uint256 listedAt) {
        SellOrder memory order = _sellOrders[collection][tokenId];
        return (order.price, order.listedAt);
    }

    /// @notice The live listing of a token: price and expiry, or zeros when there is none or it is void/expired.
    function getSellOrder(address collection, uint256 tokenId)
        public
        view
        returns (address seller, uint256 price, uint256 expiresAt)
    {
        SellOrder memory order = _sellOrders[collection][tokenId];
        if (order.price == 0 || !isEaselCollection(collection)) return (address(0), 0, 0);
        try IEaselCollection(collection).saleInfo(tokenId) returns (SaleInfo memory info) {
            expiresAt = uint256(order.listedAt) + SELL_ORDER_DURATION;
            if (order.listedAt < info.lastTransferAt || block.timestamp >= expiresAt) return (address(0), 0, 0);
            return (info.owner, order.price, expiresAt);
        } catch {
            return (address(0), 0, 0);
        }
    }
}
