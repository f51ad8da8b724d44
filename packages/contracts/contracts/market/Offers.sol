// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Auctions} from "./Auctions.sol";
import {IEaselCollection} from "../interfaces/IEaselCollection.sol";
import {SaleInfo} from "../interfaces/IEaselTypes.sol";

/// @title Offers
/// @notice One current offer per token, escrowed in ETH. A higher offer from someone else refunds the previous
/// one; the current offerer raises their offer by sending only the difference. The owner accepts it (after
/// approving the market); the offerer can cancel it at any time. No offers on a token while it is in an auction.
abstract contract Offers is Auctions {
    uint8 internal constant _MECHANISM_OFFER = 3;

    struct Offer {
        address buyer;
        uint96 amount;
    }

    mapping(address collection => mapping(uint256 tokenId => Offer)) internal _offers;

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

    /// @notice Makes or raises an offer. A new offer must reach the offer minimum and beat the current offer.
    function makeOffer(address collection, uint256 tokenId) external payable nonReentrant {
        Hot memory c = _config;
        _checkTrade(c, msg.sender, collection, tokenId);
        if (_auctions[collection][tokenId].kind != 0) revert TokenInAuction(collection, tokenId);
        if (IEaselCollection(collection).ownerOf(tokenId) == msg.sender) revert TokenOwnerCannotCall(msg.sender);
        Offer memory o = _offers[collection][tokenId];
        bool own = o.buyer == msg.sender;
        uint256 amount = own ? o.amount + msg.value : msg.value;
        uint256 minimum = c.offerMinimum;
        if (o.amount >= minimum) minimum = o.amount + 1;
        if (amount < minimum) revert OfferTooLow(amount, minimum);
        if (amount > MAX_PRICE) revert PriceOutOfRange(amount, minimum, MAX_PRICE);

        _offers[collection][tokenId] = Offer(msg.sender, uint96(amount));
        bool refund = !own && o.buyer != address(0);
        _escrowTotal = _escrowTotal + msg.value - (refund ? o.amount : 0);
        if (refund) {
            emit OfferMade(collection, tokenId, msg.sender, amount, o.buyer, o.amount);
            _send(o.buyer, o.amount);
        } else {
            emit OfferMade(collection, tokenId, msg.sender, amount, address(0), 0);
        }
    }

    /// @notice Cancels the caller's offer and refunds it. Allowed for banned users and while locked.
    function cancelOffer(address collection, uint256 tokenId) external nonReentrant {
        Offer memory o = _offers[collection][tokenId];
        if (o.buyer == address(0)) revert NoOffer(collection, tokenId);
        if (o.buyer != msg.sender) revert NotOfferBuyer(msg.sender, o.buyer);
        delete _offers[collection][tokenId];
        _escrowTotal -= o.amount;
        emit OfferCancelled(collection, tokenId, msg.sender, o.amount);
        _send(msg.sender, o.amount);
    }

    /// @notice Accepts the current offer: the caller owns the token and approved the market.
    /// @param minAmount The least the caller accepts (protects against a changed offer; offers only rise).
    function acceptOffer(address collection, uint256 tokenId, uint256 minAmount) external nonReentrant {
        Hot memory c = _config;
        _checkTrade(c, msg.sender, collection, tokenId);
        Offer memory o = _offers[collection][tokenId];
        if (o.buyer == address(0)) revert NoOffer(collection, tokenId);
        if (o.amount < minAmount) revert OfferTooLow(o.amount, minAmount);
        _checkUser(o.buyer);
        _checkOwnerAndApproval(collection, tokenId);
        delete _offers[collection][tokenId];
        _clearSellOrder(collection, tokenId);
        _escrowTotal -= o.amount;
        emit OfferAccepted(collection, tokenId, msg.sender, o.buyer, o.amount);
        SaleInfo memory info = IEaselCollection(collection).saleInfo(tokenId);
        _settleSale(c, collection, tokenId, info, msg.sender, msg.sender, o.buyer, o.amount, _MECHANISM_OFFER);
    }

    /// @notice The current offer on a token (zeros when there is none).
    function getOffer(address collection, uint256 tokenId) external view returns (Offer memory) {
        return _offers[collection][tokenId];
    }
}
