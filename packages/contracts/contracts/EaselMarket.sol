// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MarketCore} from "./market/MarketCore.sol";
import {SellOrders} from "./market/SellOrders.sol";
import {Auctions} from "./market/Auctions.sol";
import {Offers} from "./market/Offers.sol";
import {IEaselCollection} from "./interfaces/IEaselCollection.sol";
import {SaleInfo} from "./interfaces/IEaselTypes.sol";

/// @title EaselMarket
/// @notice The Easel market for tokens of Easel collections: fixed-price sell orders, standard and reserve
/// auctions and offers (one mixin each, each standing on `MarketCore` alone), with platform fees, royalties and
/// earnings splits, push payments with a withdraw fallback, and the platform's roles, settings and moderation.
/// It creates the collection factory (and through it the collection implementation and the default collection)
/// in its constructor.
contract EaselMarket is SellOrders, Auctions, Offers {
    /// @notice Everything a token page needs, in one call.
    struct TokenInfo {
        address owner;
        address creator;
        uint256 royaltyBps;
        bool primarySold;
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

    /// @param admin Receives the admin, controller and operator roles and owns the default collection.
    /// @param signer_ The platform voucher signer.
    /// @param royaltySplitterImplementation An `EaselRoyaltySplitter`, deployed before the market.
    constructor(address admin, address signer_, address royaltySplitterImplementation)
        MarketCore(admin, signer_, royaltySplitterImplementation)
    {}

    /// @notice Owner, creator, royalty, listing, auction, minimum next bid and offer of one token.
    function getTokenInfo(address collection, uint256 tokenId) external view returns (TokenInfo memory info) {
        if (!isEaselCollection(collection)) revert CollectionNotSupported(collection);
        SaleInfo memory s = IEaselCollection(collection).saleInfo(tokenId);
        info.owner = s.owner;
        info.creator = s.creator;
        info.royaltyBps = s.royaltyBps;
        info.primarySold = s.primarySold;
        info.collectionBlocked = isCollectionBlocked[collection];
        info.tokenBlocked = isTokenBlocked(collection, tokenId);
        (info.seller, info.price, info.listingExpiresAt) = getSellOrder(collection, tokenId);
        Auction memory a = getAuction(collection, tokenId);
        info.auctionKind = a.kind;
        info.auctionSeller = a.seller;
        info.auctionStart = a.start;
        info.auctionEnd = a.end;
        info.topBidder = a.bidder;
        info.auctionAmount = a.amount;
        info.minimumBid = minimumBid(collection, tokenId);
        Offer memory o = getOffer(collection, tokenId);
        info.offerBuyer = o.buyer;
        info.offerAmount = o.amount;
    }

    /// @inheritdoc MarketCore
    function _isHeldForAuction(address collection, uint256 tokenId)
        internal
        view
        override(MarketCore, Auctions)
        returns (bool)
    {
        return Auctions._isHeldForAuction(collection, tokenId);
    }

    /// @inheritdoc MarketCore
    function _afterTokenBlockSet(address collection, uint256 tokenId, bool blocked)
        internal
        override(MarketCore, Auctions)
    {
        Auctions._afterTokenBlockSet(collection, tokenId, blocked);
    }

    /// @notice ERC-165 (AccessControl).
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return super.supportsInterface(interfaceId);
    }
}
