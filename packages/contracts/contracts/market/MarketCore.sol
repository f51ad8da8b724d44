// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";
import {EaselFactory} from "../EaselFactory.sol";
import {EaselPayments} from "../libraries/EaselPayments.sol";
import {IEaselCollection} from "../interfaces/IEaselCollection.sol";
import {SaleInfo} from "../interfaces/IEaselTypes.sol";

/// @title MarketCore
/// @notice Roles, settings, moderation (bans, blocks, locks, verified artists), the Easel-collection check and
/// the sale payout shared by every sale mechanism.
/// @dev Roles: the controller sets fees, minimums, the auction minimum duration, the platform signer and the
/// roles; the operator bans users, blocks tokens and collections, verifies artists and locks the market.
abstract contract MarketCore is AccessControl, EaselPayments {
    bytes32 public constant CONTROLLER_ROLE = keccak256("CONTROLLER_ROLE");
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");

    /// @notice Highest price, bid or offer: 2^80 - 1 wei (about 1.2 million ETH).
    uint256 public constant MAX_PRICE = type(uint80).max;
    /// @notice Highest primary commission (20%) and secondary fee (10%) the controller may set.
    uint256 public constant MAX_PRIMARY_FEE_BPS = 2_000;
    uint256 public constant MAX_SECONDARY_FEE_BPS = 1_000;

    /// @notice The settings, as `config()` returns them.
    struct Config {
        address signer;
        uint16 primaryFeeBps;
        uint16 secondaryFeeBps;
        uint32 minAuctionDuration;
        bool locked;
        bool entranceLocked;
    }

    /// @dev What every trade reads, packed in one slot: fees, duration, locks and the listing and offer minimums.
    struct Hot {
        uint16 primaryFeeBps;
        uint16 secondaryFeeBps;
        uint32 minAuctionDuration;
        bool locked;
        bool entranceLocked;
        uint64 listingMinimum;
        uint64 offerMinimum;
    }

    /// @dev What lazy mints and the factory read, in one slot: the signer and a copy of the primary commission.
    struct SignerConfig {
        address signer;
        uint16 primaryFeeBps;
    }

    /// @dev Read by auctions only.
    struct AuctionMinimums {
        uint64 standardAuction;
        uint64 reserveAuction;
    }

    /// @notice Minimum prices in wei, read by the UI from chain.
    struct Minimums {
        uint64 listing;
        uint64 offer;
        uint64 standardAuction;
        uint64 reserveAuction;
    }

    /// @notice The collection factory created with the market.
    EaselFactory public immutable factory;
    /// @dev Runtime code hash shared by every Easel collection clone.
    bytes32 private immutable _collectionCodeHash;

    Hot internal _config;
    SignerConfig internal _signerConfig;
    AuctionMinimums internal _auctionMinimums;
    /// @dev ETH held for live bids and offers; fees = balance - escrow - credits.
    uint256 internal _escrowTotal;

    mapping(address account => bool) public isBanned;
    mapping(address account => bool) public isVerifiedArtist;
    mapping(address collection => bool) public isCollectionBlocked;

    /// @dev A token's listing and its blocked flag, in one slot: a sale reads the listing anyway, so the block
    /// check costs no extra storage read. Clearing a listing keeps the flag (`_clearSellOrder`).
    struct SellOrder {
        uint96 price;
        uint40 listedAt;
        bool blocked;
    }

    mapping(address collection => mapping(uint256 tokenId => SellOrder)) internal _sellOrders;

    event UserBanned(address indexed account, bool banned);
    event ArtistVerified(address indexed account, bool verified);
    event CollectionBlocked(address indexed collection, bool blocked);
    event TokenBlocked(address indexed collection, uint256 indexed tokenId, bool blocked);
    event MarketLockSet(bool locked);
    event EntranceLockSet(bool locked);
    event FeesSet(uint256 primaryFeeBps, uint256 secondaryFeeBps);
    event MinimumsSet(uint256 listing, uint256 offer, uint256 standardAuction, uint256 reserveAuction);
    event MinAuctionDurationSet(uint256 duration);
    event SignerSet(address indexed signer);
    event FeesWithdrawn(address indexed to, uint256 amount);

    error UserIsBanned(address account);
    error CollectionIsBlocked(address collection);
    error TokenIsBlocked(address collection, uint256 tokenId);
    error MarketIsLocked();
    error MarketEntranceIsLocked();
    error CollectionNotSupported(address collection);
    error OnlyTokenOwner(address caller, address owner);
    error TokenOwnerCannotCall(address caller);
    error MarketNotApproved(address collection, uint256 tokenId);
    error PriceOutOfRange(uint256 price, uint256 min, uint256 max);
    error IncorrectPayment(uint256 required, uint256 sent);
    error FeeTooHigh(uint256 feeBps, uint256 maxFeeBps);
    error DurationOutOfRange(uint256 duration, uint256 min, uint256 max);

    /// @notice A token was sold: `price` = `fee` (platform) + `royalty` (collaborators) + `proceeds` (seller or,
    /// on a primary sale, the collaborators). `mechanism` 1 = buy now, 2 = auction, 3 = offer.
    event Sale(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed seller,
        address buyer,
        uint8 mechanism,
        uint256 price,
        uint256 fee,
        uint256 royalty,
        uint256 proceeds,
        bool primary
    );

    /// @param admin Receives the controller and operator roles and owns the default collection.
    /// @param signer The platform voucher signer.
    constructor(address admin, address signer) {
        if (admin == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(CONTROLLER_ROLE, admin);
        _grantRole(OPERATOR_ROLE, admin);
        _setRoleAdmin(CONTROLLER_ROLE, CONTROLLER_ROLE);
        _setRoleAdmin(OPERATOR_ROLE, CONTROLLER_ROLE);
        if (msg.sender != admin) {
            // The deployer keeps the roles only for setup; the deploy script renounces them.
            _grantRole(CONTROLLER_ROLE, msg.sender);
            _grantRole(OPERATOR_ROLE, msg.sender);
        }
        _config = Hot({
            primaryFeeBps: 1_000,
            secondaryFeeBps: 0,
            minAuctionDuration: 15 minutes,
            locked: false,
            entranceLocked: false,
            listingMinimum: 0.05 ether,
            offerMinimum: 0.05 ether
        });
        _signerConfig = SignerConfig({signer: signer, primaryFeeBps: 1_000});
        _auctionMinimums = AuctionMinimums({standardAuction: 1 ether, reserveAuction: 0.1 ether});
        EaselFactory f = new EaselFactory(admin);
        factory = f;
        // Every collection is a minimal clone of the same implementation, so all share the default
        // collection's code hash.
        _collectionCodeHash = f.defaultCollection().codehash;
    }

    /// @notice Whether the operator blocked one token.
    function isTokenBlocked(address collection, uint256 tokenId) external view returns (bool) {
        return _sellOrders[collection][tokenId].blocked;
    }

    /// @notice Accepts platform fees swept from lazy collections.
    receive() external payable {}

    // ---------------------------------------------------------------- settings (views)

    /// @notice The platform signer and the primary commission, read by lazy collections and the factory.
    function lazyMintConfig() external view returns (address signer, uint16 primaryFeeBps) {
        SignerConfig memory s = _signerConfig;
        return (s.signer, s.primaryFeeBps);
    }

    /// @notice All hot settings.
    function config() external view returns (Config memory) {
        Hot memory c = _config;
        return Config({
            signer: _signerConfig.signer,
            primaryFeeBps: c.primaryFeeBps,
            secondaryFeeBps: c.secondaryFeeBps,
            minAuctionDuration: c.minAuctionDuration,
            locked: c.locked,
            entranceLocked: c.entranceLocked
        });
    }

    /// @notice Minimum listing, offer, standard-auction and reserve prices in wei.
    function minimums() external view returns (Minimums memory) {
        Hot memory c = _config;
        AuctionMinimums memory a = _auctionMinimums;
        return Minimums(c.listingMinimum, c.offerMinimum, a.standardAuction, a.reserveAuction);
    }

    /// @notice Whether `collection` is an Easel collection (a clone of the factory's implementation).
    function isEaselCollection(address collection) public view returns (bool) {
        return collection.codehash == _collectionCodeHash;
    }

    /// @notice ETH held for live bids and offers.
    function escrowTotal() external view returns (uint256) {
        return _escrowTotal;
    }

    /// @notice Platform fees held by the market, ready for withdrawFees.
    function feesAvailable() public view returns (uint256) {
        return address(this).balance - _escrowTotal - totalCredits();
    }

    // ---------------------------------------------------------------- controller

    /// @notice Sets the primary commission and the secondary fee, in basis points.
    function setFees(uint16 primaryFeeBps, uint16 secondaryFeeBps) external onlyRole(CONTROLLER_ROLE) {
        if (primaryFeeBps > MAX_PRIMARY_FEE_BPS) revert FeeTooHigh(primaryFeeBps, MAX_PRIMARY_FEE_BPS);
        if (secondaryFeeBps > MAX_SECONDARY_FEE_BPS) revert FeeTooHigh(secondaryFeeBps, MAX_SECONDARY_FEE_BPS);
        _config.primaryFeeBps = primaryFeeBps;
        _config.secondaryFeeBps = secondaryFeeBps;
        _signerConfig.primaryFeeBps = primaryFeeBps;
        emit FeesSet(primaryFeeBps, secondaryFeeBps);
    }

    /// @notice Sets the minimum prices in wei.
    function setMinimums(uint64 listing, uint64 offer, uint64 standardAuction, uint64 reserveAuction)
        external
        onlyRole(CONTROLLER_ROLE)
    {
        _config.listingMinimum = listing;
        _config.offerMinimum = offer;
        _auctionMinimums = AuctionMinimums(standardAuction, reserveAuction);
        emit MinimumsSet(listing, offer, standardAuction, reserveAuction);
    }

    /// @notice Sets the shortest standard auction, between 1 minute and 1 day.
    function setMinAuctionDuration(uint32 duration) external onlyRole(CONTROLLER_ROLE) {
        if (duration < 1 minutes || duration > 1 days) revert DurationOutOfRange(duration, 1 minutes, 1 days);
        _config.minAuctionDuration = duration;
        emit MinAuctionDurationSet(duration);
    }

    /// @notice Sets the platform signer of lazy vouchers.
    function setSigner(address signer) external onlyRole(CONTROLLER_ROLE) {
        if (signer == address(0)) revert ZeroAddress();
        _signerConfig.signer = signer;
        emit SignerSet(signer);
    }

    /// @notice Sends the collected platform fees to `to`.
    function withdrawFees(address to) external onlyRole(CONTROLLER_ROLE) nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = feesAvailable();
        emit FeesWithdrawn(to, amount);
        SafeTransferLib.safeTransferETH(to, amount);
    }

    // ---------------------------------------------------------------- operator

    /// @notice Bans or unbans a user. Banned users may still cancel their listings and offers and withdraw.
    function setBanned(address account, bool banned) external onlyRole(OPERATOR_ROLE) {
        isBanned[account] = banned;
        emit UserBanned(account, banned);
    }

    /// @notice Verifies an artist (allowed to mint) or revokes the verification.
    function setArtistVerified(address account, bool verified) external onlyRole(OPERATOR_ROLE) {
        isVerifiedArtist[account] = verified;
        emit ArtistVerified(account, verified);
    }

    /// @notice Blocks or unblocks a whole collection.
    function setCollectionBlocked(address collection, bool blocked) external onlyRole(OPERATOR_ROLE) {
        isCollectionBlocked[collection] = blocked;
        emit CollectionBlocked(collection, blocked);
    }

    /// @notice Blocks or unblocks one token.
    function setTokenBlocked(address collection, uint256 tokenId, bool blocked) external onlyRole(OPERATOR_ROLE) {
        _sellOrders[collection][tokenId].blocked = blocked;
        emit TokenBlocked(collection, tokenId, blocked);
    }

    /// @notice Locks the market: no listing, buying, bidding or offering. Cancels, settlements and
    /// withdrawals still work.
    function setMarketLocked(bool locked) external onlyRole(OPERATOR_ROLE) {
        _config.locked = locked;
        emit MarketLockSet(locked);
    }

    /// @notice Locks the market entrance: no new listings or auctions; existing ones trade on.
    function setEntranceLocked(bool locked) external onlyRole(OPERATOR_ROLE) {
        _config.entranceLocked = locked;
        emit EntranceLockSet(locked);
    }

    // ---------------------------------------------------------------- checks

    /// @dev For trades (buy, bid, offer, accept): market open, caller not banned, token tradable.
    function _checkTrade(Hot memory c, address account, address collection, uint256 tokenId) internal view {
        if (c.locked) revert MarketIsLocked();
        _checkUser(account);
        _checkToken(collection, tokenId);
    }

    /// @dev For new listings and auctions: also the entrance must be open.
    function _checkListing(Hot memory c, address collection, uint256 tokenId) internal view {
        if (c.entranceLocked) revert MarketEntranceIsLocked();
        _checkTrade(c, msg.sender, collection, tokenId);
    }

    function _checkUser(address account) internal view {
        if (isBanned[account]) revert UserIsBanned(account);
    }

    function _checkToken(address collection, uint256 tokenId) internal view {
        _checkCollection(collection);
        if (_sellOrders[collection][tokenId].blocked) revert TokenIsBlocked(collection, tokenId);
    }

    function _checkCollection(address collection) internal view {
        if (collection.codehash != _collectionCodeHash) revert CollectionNotSupported(collection);
        if (isCollectionBlocked[collection]) revert CollectionIsBlocked(collection);
    }

    /// @dev Removes a listing, keeping the token's blocked flag.
    function _clearSellOrder(address collection, uint256 tokenId) internal {
        SellOrder storage order = _sellOrders[collection][tokenId];
        order.price = 0;
        order.listedAt = 0;
    }

    /// @dev The caller owns the token and the market may transfer it.
    function _checkOwnerAndApproval(address collection, uint256 tokenId) internal view {
        (address owner, bool approved) = IEaselCollection(collection).ownerAndApproval(tokenId, address(this));
        if (owner != msg.sender) revert OnlyTokenOwner(msg.sender, owner);
        if (!approved) revert MarketNotApproved(collection, tokenId);
    }

    function _checkPrice(uint256 price, uint256 min) internal pure {
        if (price < min || price > MAX_PRICE) revert PriceOutOfRange(price, min, MAX_PRICE);
    }

    // ---------------------------------------------------------------- payout

    /// @dev Moves the token from `from` to `buyer`, then pays out `price`. A primary sale (the seller is the
    /// creator) pays the commission and splits the rest among the collaborators; a secondary sale pays the
    /// secondary fee, the royalty (split among the collaborators) and the rest to the seller.
    /// Callers have cleared their state; every entry point is nonReentrant.
    function _settleSale(
        Hot memory c,
        address collection,
        uint256 tokenId,
        SaleInfo memory info,
        address from,
        address seller,
        address buyer,
        uint256 price,
        uint8 mechanism
    ) internal {
        IEaselCollection(collection).transferFrom(from, buyer, tokenId);
        bool primary = seller == info.creator;
        uint256 fee;
        uint256 royalty;
        uint256 proceeds;
        if (primary) {
            fee = (price * c.primaryFeeBps) / 10_000;
            proceeds = price - fee;
        } else {
            fee = (price * c.secondaryFeeBps) / 10_000;
            royalty = (price * info.royaltyBps) / 10_000;
            proceeds = price - fee - royalty;
        }
        emit Sale(collection, tokenId, seller, buyer, mechanism, price, fee, royalty, proceeds, primary);
        if (primary) {
            _sendSplit(info.recipients, info.shares, proceeds);
        } else {
            if (royalty != 0) _sendSplit(info.recipients, info.shares, royalty);
            _send(seller, proceeds);
        }
    }
}
