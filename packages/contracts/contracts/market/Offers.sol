// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MarketCore} from "./MarketCore.sol";
import {IEaselCollection} from "../interfaces/IEaselCollection.sol";

/// @title Offers
/// @notice One current offer per token, escrowed in ETH. Every offer states the offerer's new total: a higher
/// offer from someone else sends all of it and refunds the previous one; the current offerer raising their
/// offer sends exactly the difference. The owner accepts it (after approving the market); the offerer can
/// cancel it at any time. No offers on a token while the market holds it for an auction. The record (`Offer`)
/// is in `MarketCore`, the view (`getOffer`) in `EaselMarketAdmin`.
abstract contract Offers is MarketCore {
    uint8 private constant _MECHANISM_OFFER = 3;

    /// @notice `buyer`'s offer is now `amount`; `previousBuyer` (if another account) was refunded.
    event OfferMade(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed buyer,
        uint256 amount,
        address previousBuyer,
        uint256 previousAmount
    );
    /// @notice The offer was withdrawn and refunded.
    event OfferCancelled(address indexed collection, uint256 indexed tokenId, address indexed buyer, uint256 amount);
    /// @notice The owner accepted the offer; the payout is in the Sale event.
    event OfferAccepted(
        address indexed collection, uint256 indexed tokenId, address indexed seller, address buyer, uint256 amount
    );

    error NoOffer(address collection, uint256 tokenId);
    error NotOfferBuyer(address caller, address buyer);
    error OfferTooLow(uint256 amount, uint256 minimum);
    /// @notice An owner cannot accept an offer they made themselves before they owned the token.
    error CannotAcceptOwnOffer(address account);

    /// @notice Makes or raises an offer; `amount` is the caller's new total. It must reach the offer minimum and
    /// beat the current offer. A newcomer sends `amount`; the current offerer sends exactly the difference.
    function makeOffer(address collection, uint256 tokenId, uint256 amount) external payable nonReentrant {
        Hot storage c = _config;
        _checkOpen(c);
        _checkNotBanned(msg.sender);
        _checkCollection(collection);
        _checkTokenNotBlocked(collection, tokenId);
        address owner = IEaselCollection(collection).ownerOf(tokenId);
        if (owner == address(this)) revert TokenInAuction(collection, tokenId);
        if (owner == msg.sender) revert TokenOwnerCannotCall(msg.sender);
        Offer memory o = _offers[collection][tokenId];
        uint256 minimum = _minimum(c.offerMinimum);
        if (o.amount >= minimum) minimum = uint256(o.amount) + 1;
        if (amount < minimum) revert OfferTooLow(amount, minimum);
        if (amount > MAX_PRICE) revert PriceOutOfRange(amount, minimum, MAX_PRICE);
        bool raise = o.buyer == msg.sender;
        // amount > o.amount (checked above), so the difference cannot underflow.
        uint256 payment = raise ? amount - o.amount : amount;
        if (msg.value != payment) revert IncorrectPayment(payment, msg.value);

        _offers[collection][tokenId] = Offer(msg.sender, uint96(amount));
        if (raise || o.buyer == address(0)) {
            emit OfferMade(collection, tokenId, msg.sender, amount, address(0), 0);
        } else {
            emit OfferMade(collection, tokenId, msg.sender, amount, o.buyer, o.amount);
            _send(o.buyer, o.amount);
        }
    }

    /// @notice Cancels the caller's offer and refunds it. Allowed for banned users and while locked.
    function cancelOffer(address collection, uint256 tokenId) external nonReentrant {
        Offer memory o = _offers[collection][tokenId];
        if (o.buyer == address(0)) revert NoOffer(collection, tokenId);
        if (o.buyer != msg.sender) revert NotOfferBuyer(msg.sender, o.buyer);
        delete _offers[collection][tokenId];
        emit OfferCancelled(collection, tokenId, msg.sender, o.amount);
        _send(msg.sender, o.amount);
    }

    /// @notice Accepts the current offer: the caller owns the token and approved the market.
    /// @param minAmount The least the caller accepts (protects against a changed offer; offers only rise).
    function acceptOffer(address collection, uint256 tokenId, uint256 minAmount) external nonReentrant {
        Hot storage c = _config;
        _checkOpen(c);
        _checkNotBanned(msg.sender);
        // The collection refuses the sale itself while it is blocked; only its code hash is checked here.
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        _checkTokenNotBlocked(collection, tokenId);
        Offer memory o = _offers[collection][tokenId];
        if (o.buyer == address(0)) revert NoOffer(collection, tokenId);
        if (o.amount < minAmount) revert OfferTooLow(o.amount, minAmount);
        if (o.buyer == msg.sender) revert CannotAcceptOwnOffer(msg.sender);
        _checkNotBanned(o.buyer);
        _checkOwnerAndApproval(collection, tokenId);
        delete _offers[collection][tokenId];
        emit OfferAccepted(collection, tokenId, msg.sender, o.buyer, o.amount);
        // The transfer changes the token's transfer count, which voids any listing of it.
        uint256 terms = _deliverPurchase(collection, tokenId, o.buyer);
        _payout(c, collection, tokenId, terms, o.buyer, o.amount, _MECHANISM_OFFER);
    }
}
