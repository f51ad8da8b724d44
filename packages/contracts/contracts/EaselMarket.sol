// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MarketCore} from "./market/MarketCore.sol";
import {Offers} from "./market/Offers.sol";
import {IEaselCollection} from "./interfaces/IEaselCollection.sol";
import {SaleInfo} from "./interfaces/IEaselTypes.sol";

/// @title EaselMarket
/// @notice The Easel market for tokens of Easel collections: fixed-price sell orders, standard and reserve
/// auctions and offers (one mixin each), with platform fees, royalties and earnings splits, push payments with
/// a withdraw fallback, and the platform's roles, settings and moderation. It creates the collection factory
/// (and through it the collection implementation and the default collection) in its constructor.
contract EaselMarket is Offers {
    /// @notice Everything a token page needs, in one call.
    struct TokenInfo {
        address owner;
        address creator;
        uint256 royaltyBps;
        bool collectionBlocked;
        bool tokenBlocked;
        // Live fixed-price listing (zeros when none or void/expired).
        address seller;
        uint256 price;
        uint256 listingExpiresAt;
        // Auction (kind 0 = none).
        uint8 auctionKind;
        address auctionSeller;
        uint256 auctionStart;
        uint256 auctionEnd;
        address topBidder;
        /// The top bid, or the start/reserve price while there is no bid.
        uint256 auctionAmount;
        uint256 minimumBid;
        // Current offer.
        address offerBuyer;
        uint256 offerAmount;
    }

    /// @param admin Receives the controller and operator roles and owns the default collection.
    /// @param signer The platform voucher signer.
    constructor(address admin, address signer) MarketCore(admin, signer) {}

    /// @notice Owner, creator, royalty, listing, auction, minimum next bid and offer of one token.
    function getTokenInfo(address collection, uint256 tokenId) external view returns (TokenInfo memory info) {
        if (!isEaselCollection(collection)) revert CollectionNotSupported(collection);
        SaleInfo memory s = IEaselCollection(collection).saleInfo(tokenId);
        info.owner = s.owner;
        info.creator = s.creator;
        info.royaltyBps = s.royaltyBps;
        info.collectionBlocked = isCollectionBlocked[collection];
        info.tokenBlocked = _sellOrders[collection][tokenId].blocked;
        (info.seller, info.price, info.listingExpiresAt) = getSellOrder(collection, tokenId);
        Auction memory a = _auctions[collection][tokenId];
        info.auctionKind = a.kind;
        info.auctionSeller = a.seller;
        info.auctionStart = a.start;
        info.auctionEnd = a.end;
        info.topBidder = a.bidder;
        info.auctionAmount = a.amount;
        info.minimumBid = minimumBid(collection, tokenId);
        Offer memory o = _offers[collection][tokenId];
        info.offerBuyer = o.buyer;
        info.offerAmount = o.amount;
    }

    /// @notice ERC-165 (AccessControl).
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
