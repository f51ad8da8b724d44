// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MarketCore} from "./MarketCore.sol";

/// @title Offers
/// @notice One current offer per token, escrowed in ETH, with an expiry. Every offer states the offerer's new
/// total: a higher offer from someone else sends all of it and refunds the previous one; the current offerer
/// raising their offer sends exactly the difference (and, once their offer has expired, may renew it at the same
/// amount with a new expiry, sending nothing). An expired offer cannot be accepted and no longer has to be
/// beaten. The owner accepts a live offer (after approving the market); the offerer can cancel it at any time,
/// and once it has expired anyone may return it to the offerer (sent, or credited if their account refuses
/// ETH). Amounts are whole numbers of gwei (the record keeps its expiry in the same slot). Making an offer does
/// not read the token (its ETH stays the offerer's to take back); accepting it checks everything a sale does.
/// The record (`Offer`) is in `MarketCore`, the view (`getOffer`) in `EaselMarketAdmin`.
abstract contract Offers is MarketCore {
    uint8 private constant _MECHANISM_OFFER = 3;

    /// @notice `buyer`'s offer is now `amount` until `expiresAt`; `previousBuyer` (if another account) was
    /// refunded.
    event OfferMade(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed buyer,
        uint256 amount,
        uint256 expiresAt,
        address previousBuyer,
        uint256 previousAmount
    );
    /// @notice The offer was withdrawn and refunded to `buyer`.
    event OfferCancelled(address indexed collection, uint256 indexed tokenId, address indexed buyer, uint256 amount);
    /// @notice The owner accepted the offer; the payout is in the Sale event.
    event OfferAccepted(
        address indexed collection, uint256 indexed tokenId, address indexed seller, address buyer, uint256 amount
    );

    error NoOffer(address collection, uint256 tokenId);
    error NotOfferBuyer(address caller, address buyer);
    error OfferTooLow(uint256 amount, uint256 minimum);
    /// @notice An offer must be a whole number of gwei (10^9 wei).
    error AmountNotWholeGwei(uint256 amount);

    /// @notice Makes or raises an offer; `amount` is the caller's new total, a whole number of gwei. It must
    /// reach the offer minimum and beat the current live offer. A newcomer sends `amount`; the current offerer
    /// sends exactly the difference.
    /// @param expiresAt Unix seconds, after now and at most 100 days ahead.
    function makeOffer(address collection, uint256 tokenId, uint256 amount, uint256 expiresAt)
        external
        payable
        nonReentrant
    {
        Hot storage c = _config;
        _checkOpen(c);
        _checkNotBanned(msg.sender);
        _checkCollection(collection);
        _checkOfferExpiry(expiresAt);
        // The token is not read: what the offer buys is checked when it is accepted (its owner, its block, the
        // market's approval), as for a collection offer. Until then the ETH is the offerer's to take back.
        Offer memory o = _offers[collection][tokenId];
        uint256 current = uint256(o.amountGwei) * 1 gwei;
        bool live = block.timestamp < o.expiresAt;
        bool own = o.buyer == msg.sender;
        uint256 minimum = _minimum(c.offerMinimum);
        // A live offer must be beaten; the offerer's own expired offer may be renewed at the same amount (its
        // escrow counts towards the new total).
        uint256 floor = live ? current + 1 gwei : (own ? current : 0);
        if (floor > minimum) minimum = floor;
        if (amount < minimum) revert OfferTooLow(amount, minimum);
        if (amount > MAX_PRICE) revert PriceOutOfRange(amount, minimum, MAX_PRICE);
        if (amount % 1 gwei != 0) revert AmountNotWholeGwei(amount);
        // amount >= current for the offerer (checked above), so the difference cannot underflow.
        uint256 payment = own ? amount - current : amount;
        if (msg.value != payment) revert IncorrectPayment(payment, msg.value);

        _offers[collection][tokenId] = Offer(msg.sender, uint40(expiresAt), uint56(amount / 1 gwei));
        if (own || o.buyer == address(0)) {
            emit OfferMade(collection, tokenId, msg.sender, amount, expiresAt, address(0), 0);
        } else {
            emit OfferMade(collection, tokenId, msg.sender, amount, expiresAt, o.buyer, current);
            _send(o.buyer, current);
        }
    }

    /// @notice Cancels an offer and refunds it to its offerer: the offerer's at any time (allowed for banned
    /// users and while locked), anyone's once it has expired.
    function cancelOffer(address collection, uint256 tokenId) external nonReentrant {
        Offer memory o = _offers[collection][tokenId];
        if (o.buyer == address(0)) revert NoOffer(collection, tokenId);
        if (o.buyer != msg.sender && block.timestamp < o.expiresAt) revert NotOfferBuyer(msg.sender, o.buyer);
        delete _offers[collection][tokenId];
        uint256 amount = uint256(o.amountGwei) * 1 gwei;
        emit OfferCancelled(collection, tokenId, o.buyer, amount);
        _send(o.buyer, amount);
    }

    /// @notice Accepts the current offer before it expires: the caller owns the token and approved the market.
    /// @param minAmount The least the caller accepts (protects against a changed offer).
    function acceptOffer(address collection, uint256 tokenId, uint256 minAmount) external nonReentrant {
        Hot storage c = _config;
        _checkOpen(c);
        _checkNotBanned(msg.sender);
        // The collection refuses the sale itself while it or the token is blocked (its copy of the token's block);
        // only its code hash is checked here.
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        Offer memory o = _offers[collection][tokenId];
        if (o.buyer == address(0)) revert NoOffer(collection, tokenId);
        if (block.timestamp >= o.expiresAt) revert OfferExpired(o.expiresAt);
        uint256 amount = uint256(o.amountGwei) * 1 gwei;
        if (amount < minAmount) revert OfferTooLow(amount, minAmount);
        if (o.buyer == msg.sender) revert CannotAcceptOwnOffer(msg.sender);
        _checkNotBanned(o.buyer);
        delete _offers[collection][tokenId];
        emit OfferAccepted(collection, tokenId, msg.sender, o.buyer, amount);
        // The transfer changes the token's transfer count, which voids any listing of it.
        uint256 terms = _deliverFrom(collection, tokenId, msg.sender, o.buyer);
        _payout(c, collection, tokenId, terms, o.buyer, amount, _MECHANISM_OFFER);
    }
}
