// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";
import {EaselFactory} from "../EaselFactory.sol";
import {EaselPayments} from "../libraries/EaselPayments.sol";
import {IEaselCollection} from "../interfaces/IEaselCollection.sol";
import {SaleTerms} from "../interfaces/IEaselTypes.sol";

/// @title MarketCore
/// @notice What every sale mechanism stands on: roles, settings, moderation (bans, blocks, locks, verified
/// artists), the Easel-collection check, the checks collections call before a mint, the platform fees, and the
/// sale payout. Each mechanism (`SellOrders`, `Auctions`, `Offers`) inherits this core and nothing else.
/// @dev Roles: the admin (`DEFAULT_ADMIN_ROLE`, a multisig in production) grants and revokes every role; the
/// controller sets fees, minimums, the auction minimum duration and the platform signer and withdraws fees;
/// the operator bans users, blocks tokens and collections, verifies artists, locks the market and rescues
/// tokens sent to the market by mistake.
///
/// Invariant (tested): the market's balance = live bids + live offers + credits owed + `feesAvailable()`.
abstract contract MarketCore is AccessControl, EaselPayments {
    bytes32 public constant CONTROLLER_ROLE = keccak256("CONTROLLER_ROLE");
    bytes32 public constant OPERATOR_ROLE = keccak256("OPERATOR_ROLE");

    /// @notice Highest price, bid or offer: 2^80 - 1 wei (about 1.2 million ETH).
    uint256 internal constant MAX_PRICE = type(uint80).max;
    /// @notice Highest primary commission (20%) and secondary fee (10%) the controller may set.
    uint256 internal constant MAX_PRIMARY_FEE_BPS = 2_000;
    uint256 internal constant MAX_SECONDARY_FEE_BPS = 1_000;

    /// @notice The settings, as `config()` returns them.
    struct Config {
        address signer;
        uint16 primaryFeeBps;
        uint16 secondaryFeeBps;
        uint32 minAuctionDuration;
        bool locked;
        bool entranceLocked;
    }

    /// @notice Minimum prices in wei, read by the UI from chain.
    struct Minimums {
        uint256 listing;
        uint256 offer;
        uint256 lazyMint;
        uint256 standardAuction;
        uint256 reserveAuction;
    }

    /// @dev What every trade reads, in one slot (16+16+24+8+8+4*24+88 = 256 bits): fees, the shortest auction,
    /// the locks, the minimums in units of 0.001 ETH, and the platform fees collected so far (2^88 wei is more
    /// than all the ether there is). Sales add their fee here; bids and offers never write this slot.
    struct Hot {
        uint16 primaryFeeBps;
        uint16 secondaryFeeBps;
        uint24 minAuctionDuration;
        bool locked;
        bool entranceLocked;
        uint24 listingMinimum;
        uint24 offerMinimum;
        uint24 standardAuctionMinimum;
        uint24 reserveAuctionMinimum;
        uint88 fees;
    }

    /// @dev What a lazy mint reads, in one slot: the signer, the commission, the lazy-mint minimum (in units of
    /// 0.001 ETH) and a copy of the market lock (kept equal to `Hot.locked` by `setMarketLocked`).
    struct LazyConfig {
        address signer;
        uint16 primaryFeeBps;
        uint24 minimum;
        bool locked;
    }

    /// @dev Minimums are stored in units of 0.001 ETH (up to 16,777 ETH).
    uint256 private constant _MINIMUM_UNIT = 0.001 ether;

    /// @dev Per token, one slot: the operator's block flag and the token's fixed-price listing. They share a
    /// slot because `buyNow` needs both and a second cold read costs 2,100 gas; the core writes only
    /// `blocked`, `SellOrders` only the listing fields (through `_tokenSlot`).
    struct TokenSlot {
        uint80 listPrice;
        uint40 listedAt;
        /// The token's transfer count when it was listed: the listing is void once it differs.
        uint40 listTransferCount;
        bool blocked;
    }

    /// @notice The collection factory created with the market.
    EaselFactory public immutable factory;
    /// @dev Runtime code hash shared by every Easel collection (an EIP-1167 clone of one implementation).
    bytes32 private immutable _collectionCodeHash;

    uint256 private constant _BANNED = 1;
    uint256 private constant _VERIFIED = 2;

    Hot internal _config;
    LazyConfig private _lazyConfig;
    /// @dev Per account: bit 0 banned, bit 1 verified artist (one slot, read once per party).
    mapping(address account => uint256 flags) private _accounts;
    mapping(address collection => mapping(uint256 tokenId => TokenSlot)) private _tokens;

    /// @notice Whether the operator blocked a whole collection.
    mapping(address collection => bool) public isCollectionBlocked;

    event UserBanned(address indexed account, bool banned);
    event ArtistVerified(address indexed account, bool verified);
    event CollectionBlocked(address indexed collection, bool blocked);
    event TokenBlocked(address indexed collection, uint256 indexed tokenId, bool blocked);
    event MarketLockSet(bool locked);
    event EntranceLockSet(bool locked);
    event FeesSet(uint256 primaryFeeBps, uint256 secondaryFeeBps);
    event MinimumsSet(uint256 listing, uint256 offer, uint256 lazyMint, uint256 standardAuction, uint256 reserveAuction);
    event MinAuctionDurationSet(uint256 duration);
    event SignerSet(address indexed signer);
    event FeesWithdrawn(address indexed to, uint256 amount);
    /// @notice An operator returned a token that was sent to the market outside any auction.
    event TokenRescued(address indexed collection, uint256 indexed tokenId, address indexed to);

    /// @notice A token was sold: `price` = `fee` (platform) + `royalty` (collaborators) + `proceeds` (seller, or
    /// the collaborators when the seller is the creator). `primary` marks the token's first sale through the
    /// market, which pays the primary commission. `mechanism` 1 = buy now, 2 = auction, 3 = offer.
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

    error UserIsBanned(address account);
    error NotVerifiedArtist(address account);
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
    /// @notice A minimum must be a whole number of 0.001 ETH, from 0.001 to 16,777 ETH.
    error InvalidMinimum(uint256 value);
    /// @notice The token is held for a live auction and cannot be rescued.
    error TokenInAuction(address collection, uint256 tokenId);

    /// @param admin Receives the admin, controller and operator roles and owns the default collection.
    /// @param signer_ The platform voucher signer.
    /// @param royaltySplitterImplementation What split tokens' royalty splitters are clones of (deployed first, on
    /// its own: its code would push the market's creation code past the 48 KB limit).
    constructor(address admin, address signer_, address royaltySplitterImplementation) {
        if (admin == address(0) || signer_ == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(CONTROLLER_ROLE, admin);
        _grantRole(OPERATOR_ROLE, admin);
        if (msg.sender != admin) {
            // The deployer keeps these roles only for setup; the deploy script renounces them.
            _grantRole(CONTROLLER_ROLE, msg.sender);
            _grantRole(OPERATOR_ROLE, msg.sender);
        }
        _config = Hot({
            primaryFeeBps: 1_000,
            secondaryFeeBps: 0,
            minAuctionDuration: 15 minutes,
            locked: false,
            entranceLocked: false,
            listingMinimum: 50,
            offerMinimum: 50,
            standardAuctionMinimum: 1_000,
            reserveAuctionMinimum: 100,
            fees: 0
        });
        _lazyConfig = LazyConfig({signer: signer_, primaryFeeBps: 1_000, minimum: 50, locked: false});
        EaselFactory f = new EaselFactory(admin, royaltySplitterImplementation);
        factory = f;
        // Every collection is an EIP-1167 clone of the same implementation, so all share the default
        // collection's code hash.
        _collectionCodeHash = f.defaultCollection().codehash;
    }

    /// @notice Platform fees from lazy mints (swept by the collections) and any ETH sent here directly.
    receive() external payable {
        _config.fees += uint88(msg.value);
    }

    // ---------------------------------------------------------------- views

    /// @notice All settings but the minimums.
    function config() external view returns (Config memory) {
        Hot memory c = _config;
        return Config({
            signer: _lazyConfig.signer,
            primaryFeeBps: c.primaryFeeBps,
            secondaryFeeBps: c.secondaryFeeBps,
            minAuctionDuration: c.minAuctionDuration,
            locked: c.locked,
            entranceLocked: c.entranceLocked
        });
    }

    /// @notice Minimum listing, offer, lazy-mint, standard-auction and reserve prices in wei.
    function minimums() external view returns (Minimums memory) {
        Hot memory c = _config;
        return Minimums(
            _minimum(c.listingMinimum),
            _minimum(c.offerMinimum),
            _minimum(_lazyConfig.minimum),
            _minimum(c.standardAuctionMinimum),
            _minimum(c.reserveAuctionMinimum)
        );
    }

    /// @notice The platform voucher signer.
    function signer() external view returns (address) {
        return _lazyConfig.signer;
    }

    /// @notice Platform fees held by the market, ready for `withdrawFees`.
    function feesAvailable() external view returns (uint256) {
        return _config.fees;
    }

    function isBanned(address account) public view returns (bool) {
        return _accounts[account] & _BANNED != 0;
    }

    function isVerifiedArtist(address account) external view returns (bool) {
        return _accounts[account] & _VERIFIED != 0;
    }

    /// @notice Whether the operator blocked one token.
    function isTokenBlocked(address collection, uint256 tokenId) public view returns (bool) {
        return _tokens[collection][tokenId].blocked;
    }

    /// @notice Whether `collection` is an Easel collection (a clone of the factory's implementation).
    function isEaselCollection(address collection) public view returns (bool) {
        return collection.codehash == _collectionCodeHash;
    }

    // ---------------------------------------------------------------- checks for collections

    /// @notice Reverts unless `minter` may mint now (market open, verified artist, not banned). The collection
    /// checks its own block (`EaselCollection.isBlocked`, kept by `setCollectionBlocked`).
    function authorizeMint(address minter) external view {
        if (_config.locked) revert MarketIsLocked();
        uint256 flags = _accounts[minter];
        if (flags & _BANNED != 0) revert UserIsBanned(minter);
        if (flags & _VERIFIED == 0) revert NotVerifiedArtist(minter);
    }

    /// @notice Reverts unless `buyer` may buy a lazy mint created by `creator` now (market open, neither banned;
    /// the collection checks its own block); returns the signer, the commission and the lowest price a voucher
    /// may name.
    function authorizeLazyMint(address buyer, address creator)
        external
        view
        returns (address signer_, uint256 primaryFeeBps, uint256 minimumPrice)
    {
        LazyConfig memory l = _lazyConfig;
        if (l.locked) revert MarketIsLocked();
        _checkNotBanned(buyer);
        _checkNotBanned(creator);
        return (l.signer, l.primaryFeeBps, _minimum(l.minimum));
    }

    // ---------------------------------------------------------------- controller

    /// @notice Sets the primary commission and the secondary fee, in basis points.
    function setFees(uint16 primaryFeeBps, uint16 secondaryFeeBps) external onlyRole(CONTROLLER_ROLE) {
        if (primaryFeeBps > MAX_PRIMARY_FEE_BPS) revert FeeTooHigh(primaryFeeBps, MAX_PRIMARY_FEE_BPS);
        if (secondaryFeeBps > MAX_SECONDARY_FEE_BPS) revert FeeTooHigh(secondaryFeeBps, MAX_SECONDARY_FEE_BPS);
        _config.primaryFeeBps = primaryFeeBps;
        _config.secondaryFeeBps = secondaryFeeBps;
        _lazyConfig.primaryFeeBps = primaryFeeBps;
        emit FeesSet(primaryFeeBps, secondaryFeeBps);
    }

    /// @notice Sets the minimum prices in wei: each a whole number of 0.001 ETH, from 0.001 to 16,777 ETH (never
    /// zero: a free listing, offer or lazy mint is not a sale).
    function setMinimums(
        uint256 listing,
        uint256 offer,
        uint256 lazyMint,
        uint256 standardAuction,
        uint256 reserveAuction
    ) external onlyRole(CONTROLLER_ROLE) {
        _config.listingMinimum = _toUnits(listing);
        _config.offerMinimum = _toUnits(offer);
        _config.standardAuctionMinimum = _toUnits(standardAuction);
        _config.reserveAuctionMinimum = _toUnits(reserveAuction);
        _lazyConfig.minimum = _toUnits(lazyMint);
        emit MinimumsSet(listing, offer, lazyMint, standardAuction, reserveAuction);
    }

    /// @notice Sets the shortest standard auction, between 1 minute and 1 day.
    function setMinAuctionDuration(uint24 duration) external onlyRole(CONTROLLER_ROLE) {
        if (duration < 1 minutes || duration > 1 days) revert DurationOutOfRange(duration, 1 minutes, 1 days);
        _config.minAuctionDuration = duration;
        emit MinAuctionDurationSet(duration);
    }

    /// @notice Sets the platform signer of lazy vouchers.
    function setSigner(address signer_) external onlyRole(CONTROLLER_ROLE) {
        if (signer_ == address(0)) revert ZeroAddress();
        _lazyConfig.signer = signer_;
        emit SignerSet(signer_);
    }

    /// @notice Sends the collected platform fees to `to`.
    function withdrawFees(address to) external onlyRole(CONTROLLER_ROLE) nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = _config.fees;
        _config.fees = 0;
        emit FeesWithdrawn(to, amount);
        SafeTransferLib.safeTransferETH(to, amount);
    }

    // ---------------------------------------------------------------- operator

    /// @notice Bans or unbans a user. Banned users may still cancel their listings, offers and auctions without
    /// bids, and withdraw their credits.
    function setBanned(address account, bool banned) external onlyRole(OPERATOR_ROLE) {
        _accounts[account] = banned ? _accounts[account] | _BANNED : _accounts[account] & ~_BANNED;
        emit UserBanned(account, banned);
    }

    /// @notice Verifies an artist (allowed to mint) or revokes the verification.
    function setArtistVerified(address account, bool verified) external onlyRole(OPERATOR_ROLE) {
        _accounts[account] = verified ? _accounts[account] | _VERIFIED : _accounts[account] & ~_VERIFIED;
        emit ArtistVerified(account, verified);
    }

    /// @notice Blocks or unblocks a whole collection: here (listings, bids, offers) and in the collection itself
    /// (mints and sales, which read it with the collection's other settings at no extra cost).
    function setCollectionBlocked(address collection, bool blocked) external onlyRole(OPERATOR_ROLE) {
        if (!isEaselCollection(collection)) revert CollectionNotSupported(collection);
        isCollectionBlocked[collection] = blocked;
        emit CollectionBlocked(collection, blocked);
        IEaselCollection(collection).setBlocked(blocked);
    }

    /// @notice Blocks or unblocks one token.
    function setTokenBlocked(address collection, uint256 tokenId, bool blocked) external onlyRole(OPERATOR_ROLE) {
        _tokens[collection][tokenId].blocked = blocked;
        emit TokenBlocked(collection, tokenId, blocked);
        _afterTokenBlockSet(collection, tokenId, blocked);
    }

    /// @notice Locks the market: no minting, listing, buying, bidding or offering. Cancels, settlements and
    /// withdrawals still work.
    function setMarketLocked(bool locked) external onlyRole(OPERATOR_ROLE) {
        _config.locked = locked;
        _lazyConfig.locked = locked;
        emit MarketLockSet(locked);
    }

    /// @notice Locks the market entrance: no new listings or auctions; existing ones trade on.
    function setEntranceLocked(bool locked) external onlyRole(OPERATOR_ROLE) {
        _config.entranceLocked = locked;
        emit EntranceLockSet(locked);
    }

    /// @notice Returns a token that reached the market outside an auction (a plain `transferFrom` to the
    /// market, which cannot be refused) to `to`, after the operator has established its rightful owner.
    function rescueToken(address collection, uint256 tokenId, address to) external onlyRole(OPERATOR_ROLE) nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        if (_isHeldForAuction(collection, tokenId)) revert TokenInAuction(collection, tokenId);
        emit TokenRescued(collection, tokenId, to);
        IEaselCollection(collection).transferFrom(address(this), to, tokenId);
    }

    // ---------------------------------------------------------------- hooks for the mechanisms

    /// @dev Whether the market holds the token for a live auction (implemented by `Auctions`).
    function _isHeldForAuction(address collection, uint256 tokenId) internal view virtual returns (bool);

    /// @dev Called after the operator blocks or unblocks a token, so a mechanism can keep a copy of the flag
    /// beside its own record (`Auctions` does, to spare bids a cold read).
    function _afterTokenBlockSet(address collection, uint256 tokenId, bool blocked) internal virtual {}

    // ---------------------------------------------------------------- checks for the mechanisms

    function _checkOpen(Hot storage c) internal view {
        if (c.locked) revert MarketIsLocked();
    }

    /// @dev For new listings and auctions: the market and its entrance are open.
    function _checkEntrance(Hot storage c) internal view {
        if (c.locked) revert MarketIsLocked();
        if (c.entranceLocked) revert MarketEntranceIsLocked();
    }

    function _checkNotBanned(address account) internal view {
        if (_accounts[account] & _BANNED != 0) revert UserIsBanned(account);
    }

    /// @dev An Easel collection that is not blocked.
    function _checkCollection(address collection) internal view {
        if (collection.codehash != _collectionCodeHash) revert CollectionNotSupported(collection);
        _checkCollectionNotBlocked(collection);
    }

    /// @dev For collections already known to be Easel's (they hold a live auction or listing).
    function _checkCollectionNotBlocked(address collection) internal view {
        if (isCollectionBlocked[collection]) revert CollectionIsBlocked(collection);
    }

    /// @dev The token's slot, for the listing fields (`SellOrders`) and the block check.
    function _tokenSlot(address collection, uint256 tokenId) internal view returns (TokenSlot storage) {
        return _tokens[collection][tokenId];
    }

    function _checkTokenNotBlocked(address collection, uint256 tokenId) internal view {
        if (_tokens[collection][tokenId].blocked) revert TokenIsBlocked(collection, tokenId);
    }

    /// @dev The caller owns the token and the market may transfer it; returns the token's transfer count.
    /// Called by hand like `_deliverPurchase`: `collection` is an Easel collection (code hash checked).
    function _checkOwnerAndApproval(address collection, uint256 tokenId) internal view returns (uint256 transferCount) {
        bytes4 selector = IEaselCollection.listingCheck.selector;
        address owner;
        bool approved;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, selector)
            mstore(add(m, 0x04), tokenId)
            mstore(add(m, 0x24), address())
            if iszero(staticcall(gas(), collection, m, 0x44, m, 0x60)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            owner := mload(m)
            approved := mload(add(m, 0x20))
            transferCount := mload(add(m, 0x40))
        }
        if (owner != msg.sender) revert OnlyTokenOwner(msg.sender, owner);
        if (!approved) revert MarketNotApproved(collection, tokenId);
    }

    function _checkPrice(uint256 price, uint256 min) internal pure {
        if (price < min || price > MAX_PRICE) revert PriceOutOfRange(price, min, MAX_PRICE);
    }

    /// @dev A stored minimum in wei.
    function _minimum(uint24 units) internal pure returns (uint256) {
        return uint256(units) * _MINIMUM_UNIT;
    }

    function _toUnits(uint256 weiAmount) private pure returns (uint24) {
        uint256 units = weiAmount / _MINIMUM_UNIT;
        if (units == 0 || units > type(uint24).max || weiAmount % _MINIMUM_UNIT != 0) revert InvalidMinimum(weiAmount);
        return uint24(units);
    }

    // ---------------------------------------------------------------- sale

    /// @dev Moves the token to `buyer` as a sale (the collection checks the market's approval and marks the
    /// primary sale done) and returns the terms. The caller checks them, then calls `_payout`. Callers have
    /// cleared their own state; every entry point is nonReentrant.
    /// The call is made by hand: `collection` is always an Easel collection here (code hash checked, or it holds
    /// a live auction or offer), so its six-word answer is copied as is, without the ~600 gas of ABI decoding.
    function _deliverPurchase(address collection, uint256 tokenId, address buyer)
        internal
        returns (SaleTerms memory t)
    {
        bytes4 selector = IEaselCollection.deliverPurchase.selector;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, selector)
            mstore(add(m, 0x04), buyer)
            mstore(add(m, 0x24), tokenId)
            if iszero(call(gas(), collection, 0, m, 0x44, t, 0xc0)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
        }
    }

    /// @dev Pays out `price`. The fee is the primary commission on the token's first market sale, else the
    /// secondary fee. A creator selling keeps no royalty for themselves: the rest is split among the
    /// collaborators; anyone else pays the royalty (split among the collaborators) and receives the rest.
    function _payout(
        Hot storage c,
        address collection,
        uint256 tokenId,
        SaleTerms memory t,
        address buyer,
        uint256 price,
        uint8 mechanism
    ) internal {
        uint256 fee = (price * (t.primary ? c.primaryFeeBps : c.secondaryFeeBps)) / 10_000;
        uint256 royalty;
        if (t.seller != t.creator) royalty = (price * t.royaltyBps) / 10_000;
        uint256 proceeds = price - fee - royalty;
        // fee <= price <= MAX_PRICE (2^80): the sum stays far below 2^88.
        if (fee != 0) _config.fees = c.fees + uint88(fee);
        emit Sale(collection, tokenId, t.seller, buyer, mechanism, price, fee, royalty, proceeds, t.primary);
        if (t.seller == t.creator) {
            _payCollaborators(collection, tokenId, t, proceeds);
        } else {
            if (royalty != 0) _payCollaborators(collection, tokenId, t, royalty);
            _send(t.seller, proceeds);
        }
    }

    /// @dev Pays `amount` to the creator, or splits it among the token's collaborators.
    function _payCollaborators(address collection, uint256 tokenId, SaleTerms memory t, uint256 amount) private {
        if (t.splitCount <= 1) {
            _send(t.creator, amount);
        } else {
            (address[] memory recipients, uint256[] memory shares) = IEaselCollection(collection).collaboratorsOf(tokenId);
            _sendSplit(recipients, shares, amount);
        }
    }
}
