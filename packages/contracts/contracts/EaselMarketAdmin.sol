// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";
import {MarketCore} from "./market/MarketCore.sol";
import {EaselFactory} from "./EaselFactory.sol";
import {IEaselCollection} from "./interfaces/IEaselCollection.sol";
import {SaleInfo} from "./interfaces/IEaselTypes.sol";

/// @title EaselMarketAdmin
/// @notice The market's administration and views: roles, settings, moderation (bans, blocks, locks, verified
/// artists), fee withdrawal, token rescue, auction cancellation, and every read of the market's state. It runs
/// only as the market's code: `EaselMarket`'s `fallback` calls it with `delegatecall`, so it works on the
/// market's storage (it inherits the same `MarketCore` and declares no storage), its events come from the
/// market's address and its errors reach the caller as the market's. Callers see one market address and one
/// ABI.
/// @dev Called directly, at its own address, it refuses every function that changes state
/// (`DirectCallRefused`); its own storage is empty and stays so (no role, no auction, no fee), so its views
/// answer zeros there.
contract EaselMarketAdmin is IAccessControl, MarketCore {
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
        // Current offer (it may have expired: compare `offerExpiresAt` with the time).
        address offerBuyer;
        uint256 offerAmount;
        uint256 offerExpiresAt;
    }

    /// @notice A token's current offer as `getOffer` returns it (zeros when there is none).
    struct OfferView {
        address buyer;
        /// In wei.
        uint256 amount;
        /// Unix seconds; the offer cannot be accepted from then on.
        uint256 expiresAt;
    }

    /// @notice Why a signed listing cannot be filled now (`signedListingStatus`), in the order checked.
    enum SignedListingStatus {
        Live,
        /// Not the seller's signature (or a high-s twin, or a contract seller's refusal).
        InvalidSignature,
        Expired,
        /// Not yet valid: its expiry lies more than 100 days ahead (`ExpiryTooFar`). It is not dead: once its
        /// expiry is within 100 days it fills at its signed price, unless the seller voids it first
        /// (`cancelSignedListing`, `incrementListingCounter`).
        NotYetValid,
        /// The seller incremented their listing counter since signing.
        CounterIncremented,
        /// The token's transfer count changed since signing (sold, filled, transferred, escrowed, burned, or the
        /// owner cancelled its listings with `cancelSignedListing`), or the seller did not own it.
        Void,
        /// The seller's approval of the market is missing.
        NotApproved,
        /// Moderation or settings refuse it now: the market or its entrance is locked, the seller is banned, the
        /// token or the collection is blocked, the price is below the listing minimum, or it is not an Easel
        /// collection.
        Refused,
        /// The fee that would apply now is above the order's `maxFeeBps` (fillable again if the fee comes down).
        FeeAboveMax
    }

    bytes32 public constant DEFAULT_ADMIN_ROLE = ADMIN_ROLE_ID;
    bytes32 public constant CONTROLLER_ROLE = CONTROLLER_ROLE_ID;
    bytes32 public constant OPERATOR_ROLE = OPERATOR_ROLE_ID;

    /// @dev This contract's own address: code running at it was called directly, not through the market.
    address private immutable _self = address(this);

    /// @notice A function that changes state was called on `EaselMarketAdmin` itself instead of on the market.
    error DirectCallRefused();
    /// @notice A role cannot be granted to `account` (the zero address, the market or this code): it could never
    /// use it, and an admin role held there would let the last real admin leave.
    error InvalidRoleAccount(address account);

    modifier onlyRole(bytes32 role) {
        _checkRole(role);
        _;
    }

    // ---------------------------------------------------------------- roles (OpenZeppelin AccessControl)

    /// @notice Whether `account` holds `role`.
    function hasRole(bytes32 role, address account) external view returns (bool) {
        return _hasRole(role, account);
    }

    /// @notice Every role is administered by the admin role.
    function getRoleAdmin(bytes32) external pure returns (bytes32) {
        return ADMIN_ROLE_ID;
    }

    /// @notice Grants `role` to `account`. Admin only. Never to the zero address, the market or this code
    /// (`InvalidRoleAccount`): none of them can act, so an admin role there would count towards `LastAdmin`
    /// while nobody holds it.
    function grantRole(bytes32 role, address account) external onlyRole(ADMIN_ROLE_ID) {
        if (account == address(0) || account == address(this) || account == _self) revert InvalidRoleAccount(account);
        _grantRole(role, account);
    }

    /// @notice Revokes `role` from `account`. Admin only; the last admin's admin role cannot be revoked.
    function revokeRole(bytes32 role, address account) external onlyRole(ADMIN_ROLE_ID) {
        _revokeRole(role, account);
    }

    /// @notice Gives up one of the caller's roles; `callerConfirmation` must be the caller. The last admin
    /// cannot give up the admin role (`LastAdmin`): grant it to another account first.
    function renounceRole(bytes32 role, address callerConfirmation) external {
        _checkThroughMarket();
        if (callerConfirmation != msg.sender) revert AccessControlBadConfirmation();
        _revokeRole(role, callerConfirmation);
    }

    // ---------------------------------------------------------------- views

    /// @notice The collection factory the market created. It was the market's first contract creation (nonce
    /// 1), so its address follows from the market's (the market keeps no copy: this saves a dispatch
    /// comparison on every trade).
    function factory() public view returns (EaselFactory) {
        return EaselFactory(
            address(uint160(uint256(keccak256(abi.encodePacked(bytes2(0xd694), address(this), bytes1(0x01))))))
        );
    }

    /// @notice Whether `collection` is an Easel collection (a clone of the factory's implementation, so it has
    /// the default collection's code hash; the market checks the same hash, kept in its code).
    function isEaselCollection(address collection) public view returns (bool) {
        return _isEaselCollection(collection);
    }

    /// @notice ERC-165: the market answers IAccessControl (these roles) and ERC-165 itself.
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == type(IAccessControl).interfaceId || interfaceId == type(IERC165).interfaceId;
    }

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

    /// @notice Platform fees held by the market, ready for `withdrawFees`.
    function feesAvailable() external view returns (uint256) {
        return _config.fees;
    }

    function isBanned(address account) external view returns (bool) {
        return _accounts[account] & BANNED != 0;
    }

    function isVerifiedArtist(address account) external view returns (bool) {
        return _accounts[account] & VERIFIED != 0;
    }

    /// @notice Whether the operator blocked a whole collection.
    function isCollectionBlocked(address collection) external view returns (bool) {
        return _collectionBlocked[collection];
    }

    /// @notice Whether the operator blocked one token.
    function isTokenBlocked(address collection, uint256 tokenId) public view returns (bool) {
        return _tokens[collection][tokenId].blocked;
    }

    /// @notice Funds credited to `account` after a failed push.
    function creditOf(address account) external view returns (uint256) {
        return _creditOf(account);
    }

    /// @notice The sum of all credited, not yet withdrawn, funds held by the market.
    function totalCredits() external view returns (uint256) {
        return _totalCreditsHeld();
    }

    /// @notice The stored listing of a token, live or not (price 0 = none).
    function sellOrderOf(address collection, uint256 tokenId)
        external
        view
        returns (uint256 price, uint256 listedAt, uint256 listedTransferCount)
    {
        TokenSlot memory slot = _tokens[collection][tokenId];
        return (slot.listPrice, slot.listedAt, slot.listTransferCount);
    }

    /// @notice The live listing of a token: seller, price and expiry, or zeros when there is none or it is
    /// void or expired.
    function getSellOrder(address collection, uint256 tokenId)
        public
        view
        returns (address seller, uint256 price, uint256 expiresAt)
    {
        TokenSlot memory slot = _tokens[collection][tokenId];
        if (slot.listPrice == 0 || !_isEaselCollection(collection)) return (address(0), 0, 0);
        try IEaselCollection(collection).saleInfo(tokenId) returns (SaleInfo memory info) {
            expiresAt = uint256(slot.listedAt) + SELL_ORDER_DURATION;
            if (info.transferCount != slot.listTransferCount || block.timestamp >= expiresAt) return (address(0), 0, 0);
            return (info.owner, slot.listPrice, expiresAt);
        } catch {
            return (address(0), 0, 0);
        }
    }

    /// @notice ERC-5267: the EIP-712 domain of signed listings ("Easel Market", "1", this chain, the market).
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", "Easel Market", "1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    /// @notice The EIP-712 type string of a signed listing (its hash is the type hash).
    function signedListingType() external pure returns (string memory) {
        return
        "SignedListing(address collection,uint256 tokenId,uint256 price,address seller,uint256 transferCount,uint256 counter,uint256 expiresAt,uint16 maxFeeBps)";
    }

    /// @notice The EIP-712 digest a seller signs for `order` (on this chain, for this market).
    function hashSignedListing(SignedListing calldata order) external view returns (bytes32) {
        return _signedListingDigest(order);
    }

    /// @notice `seller`'s listing counter: a signed listing names it; `incrementListingCounter` raises it.
    function listingCounterOf(address seller) external view returns (uint256) {
        return _accounts[seller] >> COUNTER_SHIFT;
    }

    /// @notice Whether `fillSignedListing(order, signature)` would succeed now for a buyer who may buy (not
    /// banned, not the seller, sending the price), and if not, the first reason: `SignedListingStatus`.
    function signedListingStatus(SignedListing calldata order, bytes calldata signature)
        external
        view
        returns (SignedListingStatus)
    {
        return _signedListingStatus(order, _signedListingDigest(order), signature);
    }

    /// @notice As `signedListingStatus`, for a listing from a bulk signature: the seller's signature over the tree,
    /// the listing's leaf index and the sibling hashes from the leaf up (`fillBulkSignedListing` takes the same
    /// three packed in one `bytes`, see `packBulkSignature` in `src/orders.ts`); reverts with `InvalidBulkProof`
    /// for a proof no tree can have.
    function bulkSignedListingStatus(
        SignedListing calldata order,
        bytes calldata signature,
        uint256 index,
        bytes32[] calldata proof
    ) external view returns (SignedListingStatus) {
        return _signedListingStatus(order, _bulkListingDigest(order, index, proof), signature);
    }

    /// @notice The EIP-712 type string of a bulk listing of `height` levels (1 to 10): `BulkListing`, a tree of
    /// 2^height `SignedListing`s (its hash is the type hash).
    function bulkListingType(uint256 height) external pure returns (string memory levels) {
        if (height == 0 || height > MAX_BULK_HEIGHT) revert InvalidBulkProof();
        for (uint256 i; i < height; ++i) {
            levels = string.concat(levels, "[2]");
        }
        return string.concat(
            "BulkListing(SignedListing",
            levels,
            " tree)SignedListing(address collection,uint256 tokenId,uint256 price,address seller,uint256 transferCount,uint256 counter,uint256 expiresAt,uint16 maxFeeBps)"
        );
    }

    /// @notice The EIP-712 digest a seller signs for a tree of listings whose root (the `tree` array's hash) is
    /// `root`, `height` levels deep.
    function hashBulkListing(bytes32 root, uint256 height) external view returns (bytes32) {
        if (height == 0 || height > MAX_BULK_HEIGHT) revert InvalidBulkProof();
        return _typedDataDigest(keccak256(abi.encode(_bulkListingTypehash(height), root)));
    }

    /// @notice The identity of a collection offer: the hash of its terms.
    function collectionOfferId(CollectionOffer calldata offer) external pure returns (bytes32) {
        return keccak256(abi.encode(offer));
    }

    /// @notice How many tokens a collection offer still buys (0 once filled, cancelled or never made). It may
    /// have expired: compare its `expiresAt` with the time.
    function collectionOfferRemaining(bytes32 offerId) external view returns (uint256) {
        return _collectionOffers[offerId];
    }

    function _signedListingStatus(SignedListing calldata order, bytes32 digest, bytes calldata signature)
        private
        view
        returns (SignedListingStatus)
    {
        if (!_isSellerSignature(order.seller, digest, signature)) {
            return SignedListingStatus.InvalidSignature;
        }
        if (block.timestamp >= order.expiresAt) return SignedListingStatus.Expired;
        if (order.expiresAt - block.timestamp > SELL_ORDER_DURATION) return SignedListingStatus.NotYetValid;
        uint256 flags = _accounts[order.seller];
        if (order.counter != flags >> COUNTER_SHIFT) return SignedListingStatus.CounterIncremented;
        if (!_isEaselCollection(order.collection)) return SignedListingStatus.Refused;
        try IEaselCollection(order.collection).listingCheck(order.tokenId, address(this)) returns (
            address owner, bool approved, uint256 transferCount
        ) {
            if (transferCount != order.transferCount || owner != order.seller) return SignedListingStatus.Void;
            if (!approved) return SignedListingStatus.NotApproved;
        } catch {
            // The token was burned.
            return SignedListingStatus.Void;
        }
        Hot memory c = _config;
        if (
            c.locked || c.entranceLocked || flags & BANNED != 0 || _tokens[order.collection][order.tokenId].blocked
                || _collectionBlocked[order.collection]
                || order.price < _minimum(c.listingMinimum) || order.price > MAX_PRICE
        ) return SignedListingStatus.Refused;
        bool primary = !IEaselCollection(order.collection).saleInfo(order.tokenId).primarySold;
        if ((primary ? c.primaryFeeBps : c.secondaryFeeBps) > order.maxFeeBps) return SignedListingStatus.FeeAboveMax;
        return SignedListingStatus.Live;
    }

    /// @notice What the market holds for `account`: payments owed to it while it was banned.
    function heldOf(address account) external view returns (uint256) {
        return _held[account];
    }

    /// @notice The sum of all held payments.
    function totalHeld() external view returns (uint256) {
        return _totalHeld;
    }

    /// @notice Cancels the rest of a collection offer and refunds it to its buyer: the buyer's at any time
    /// (allowed for banned users and while locked), anyone's once it has expired.
    function cancelCollectionOffer(CollectionOffer calldata offer) external nonReentrant {
        _checkThroughMarket();
        bytes32 offerId = _collectionOfferId(offer);
        uint256 remaining = _collectionOffers[offerId];
        if (remaining == 0) revert NoCollectionOffer(offerId);
        address buyer = offer.buyer;
        if (buyer != msg.sender && block.timestamp < offer.expiresAt) revert NotCollectionOfferBuyer(msg.sender, buyer);
        delete _collectionOffers[offerId];
        // Stored only through `makeCollectionOffer`: price <= 2^80, remaining <= 10,000.
        uint256 refund = offer.price * remaining;
        emit CollectionOfferCancelled(offerId, buyer, remaining, refund);
        _send(buyer, refund);
    }

    /// @notice Reverts with `UserIsBanned` if any of `accounts` is banned. Lazy collections call it for the
    /// collaborators of a split voucher: a lazy mint with a banned payee is refused, as with a banned creator.
    function checkNotBanned(address[] calldata accounts) external view {
        for (uint256 i; i < accounts.length; ++i) {
            _checkNotBanned(accounts[i]);
        }
    }

    /// @notice The auction of a token (all zeros when there is none).
    function getAuction(address collection, uint256 tokenId) public view returns (Auction memory) {
        return _auctions[collection][tokenId];
    }

    /// @notice The smallest total bid the auction accepts now (0 when there is no auction).
    function minimumBid(address collection, uint256 tokenId) public view returns (uint256) {
        Auction memory a = _auctions[collection][tokenId];
        if (a.kind == 0) return 0;
        return a.bidder == address(0) ? a.amount : _minNextBid(a.amount);
    }

    /// @notice The current offer on a token (zeros when there is none).
    function getOffer(address collection, uint256 tokenId) public view returns (OfferView memory) {
        Offer memory o = _offers[collection][tokenId];
        return OfferView(o.buyer, uint256(o.amountGwei) * 1 gwei, o.expiresAt);
    }

    /// @notice Owner, creator, royalty, listing, auction, minimum next bid and offer of one token.
    function getTokenInfo(address collection, uint256 tokenId) external view returns (TokenInfo memory info) {
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        SaleInfo memory s = IEaselCollection(collection).saleInfo(tokenId);
        info.owner = s.owner;
        info.creator = s.creator;
        info.royaltyBps = s.royaltyBps;
        info.primarySold = s.primarySold;
        info.collectionBlocked = _collectionBlocked[collection];
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
        OfferView memory o = getOffer(collection, tokenId);
        info.offerBuyer = o.buyer;
        info.offerAmount = o.amount;
        info.offerExpiresAt = o.expiresAt;
    }

    // ---------------------------------------------------------------- controller

    /// @notice Sets the primary commission and the secondary fee, in basis points.
    function setFees(uint16 primaryFeeBps, uint16 secondaryFeeBps) external onlyRole(CONTROLLER_ROLE_ID) {
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
    ) external onlyRole(CONTROLLER_ROLE_ID) {
        _config.listingMinimum = _toUnits(listing);
        _config.offerMinimum = _toUnits(offer);
        _config.standardAuctionMinimum = _toUnits(standardAuction);
        _config.reserveAuctionMinimum = _toUnits(reserveAuction);
        _lazyConfig.minimum = _toUnits(lazyMint);
        emit MinimumsSet(listing, offer, lazyMint, standardAuction, reserveAuction);
    }

    /// @notice Sets the shortest standard auction, between 1 minute and 1 day.
    function setMinAuctionDuration(uint24 duration) external onlyRole(CONTROLLER_ROLE_ID) {
        if (duration < 1 minutes || duration > 1 days) revert DurationOutOfRange(duration, 1 minutes, 1 days);
        _config.minAuctionDuration = duration;
        emit MinAuctionDurationSet(duration);
    }

    /// @notice Sets the platform signer of lazy vouchers.
    function setSigner(address signer_) external onlyRole(CONTROLLER_ROLE_ID) {
        if (signer_ == address(0)) revert ZeroAddress();
        _lazyConfig.signer = signer_;
        emit SignerSet(signer_);
    }

    /// @notice Sends the collected platform fees to `to`.
    function withdrawFees(address to) external onlyRole(CONTROLLER_ROLE_ID) nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = _config.fees;
        _config.fees = 0;
        emit FeesWithdrawn(to, amount);
        SafeTransferLib.safeTransferETH(to, amount);
    }

    // ---------------------------------------------------------------- operator

    /// @notice Bans or unbans a user. Banned users may still cancel their listings, offers and auctions without
    /// bids, and withdraw their credits.
    function setBanned(address account, bool banned) external onlyRole(OPERATOR_ROLE_ID) {
        _accounts[account] = banned ? _accounts[account] | BANNED : _accounts[account] & ~BANNED;
        emit UserBanned(account, banned);
    }

    /// @notice Verifies an artist (allowed to mint) or revokes the verification.
    function setArtistVerified(address account, bool verified) external onlyRole(OPERATOR_ROLE_ID) {
        _accounts[account] = verified ? _accounts[account] | VERIFIED : _accounts[account] & ~VERIFIED;
        emit ArtistVerified(account, verified);
    }

    /// @notice Blocks or unblocks a whole collection: here (listings, bids, offers) and in the collection itself
    /// (mints and sales, which read it with the collection's other settings at no extra cost).
    function setCollectionBlocked(address collection, bool blocked) external onlyRole(OPERATOR_ROLE_ID) {
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        _collectionBlocked[collection] = blocked;
        emit CollectionBlocked(collection, blocked);
        IEaselCollection(collection).setBlocked(blocked);
    }

    /// @notice Blocks or unblocks one token of an Easel collection, minted or not: here, in the copy a live
    /// auction keeps of the flag, and in the collection, which every sale (signed fills included) reads and
    /// which a token minted later inherits (a lazy collection refuses to mint a blocked id).
    /// @dev Only Easel collections: a copy cannot be written into a collection that does not exist yet, and the
    /// signed fill reads only the collection's.
    function setTokenBlocked(address collection, uint256 tokenId, bool blocked) external onlyRole(OPERATOR_ROLE_ID) {
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        _tokens[collection][tokenId].blocked = blocked;
        emit TokenBlocked(collection, tokenId, blocked);
        Auction storage a = _auctions[collection][tokenId];
        if (a.kind != 0) a.tokenBlocked = blocked;
        IEaselCollection(collection).setTokenBlocked(tokenId, blocked);
    }

    /// @notice Pays what is held for `account` (payments it was owed while banned) to it, pushed with the usual
    /// gas cap and credited if the push fails. Operator only; the operator decides, banned or not.
    function releaseHeld(address account) external onlyRole(OPERATOR_ROLE_ID) nonReentrant {
        uint256 amount = _takeHeld(account);
        emit HeldPaymentReleased(account, amount);
        _send(account, amount);
    }

    /// @notice Gives what is held for `account` to the platform's fees. Operator only.
    function forfeitHeld(address account) external onlyRole(OPERATOR_ROLE_ID) {
        uint256 amount = _takeHeld(account);
        _config.fees += uint88(amount);
        emit HeldPaymentForfeited(account, amount);
    }

    /// @notice Locks the market: no minting, listing, buying, bidding or offering. Cancels, settlements and
    /// withdrawals still work.
    function setMarketLocked(bool locked) external onlyRole(OPERATOR_ROLE_ID) {
        _config.locked = locked;
        _lazyConfig.locked = locked;
        emit MarketLockSet(locked);
    }

    /// @notice Locks the market entrance: no new listings or auctions, and no signed listing fills (signed
    /// before or during the lock: the chain cannot tell when one was signed); on-chain listings, auctions and
    /// offers already made trade on.
    function setEntranceLocked(bool locked) external onlyRole(OPERATOR_ROLE_ID) {
        _config.entranceLocked = locked;
        emit EntranceLockSet(locked);
    }

    /// @notice Returns a token that reached the market outside an auction (a plain `transferFrom` to the
    /// market, which cannot be refused) to `to`, after the operator has established its rightful owner.
    function rescueToken(address collection, uint256 tokenId, address to)
        external
        onlyRole(OPERATOR_ROLE_ID)
        nonReentrant
    {
        if (to == address(0)) revert ZeroAddress();
        // An auctioned token stays with its seller: the market holds only tokens sent to it by hand.
        emit TokenRescued(collection, tokenId, to);
        IEaselCollection(collection).transferFrom(address(this), to, tokenId);
    }

    // ---------------------------------------------------------------- signed listings

    /// @notice Voids every listing of a token the caller owns, signed or on chain: the collection counts one
    /// more transfer of it without moving it (a new listing signs the new count). Allowed for banned users and
    /// while locked.
    /// @dev The collection is an Easel collection (code hash checked), which calls nothing back: no reentrancy
    /// guard needed.
    function cancelSignedListing(address collection, uint256 tokenId) external {
        _checkThroughMarket();
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        address owner = IEaselCollection(collection).ownerOf(tokenId);
        if (owner != msg.sender) revert OnlyTokenOwner(msg.sender, owner);
        uint256 transferCount = IEaselCollection(collection).voidListings(tokenId);
        emit SignedListingCancelled(collection, tokenId, msg.sender, transferCount);
    }

    /// @notice Voids every signed listing the caller made so far, of every token (their listing counter goes up
    /// by one; new listings sign the new counter). Allowed for banned users and while locked.
    function incrementListingCounter() external {
        _checkThroughMarket();
        uint256 flags = _accounts[msg.sender] + (1 << COUNTER_SHIFT);
        _accounts[msg.sender] = flags;
        emit ListingCounterIncremented(msg.sender, flags >> COUNTER_SHIFT);
    }

    // ---------------------------------------------------------------- auctions

    /// @notice Cancels an auction and frees the token, which stayed with its seller. The seller (banned or not) may cancel
    /// one without a bid; an operator may cancel any, and the top bid is refunded.
    function invalidateAuction(address collection, uint256 tokenId) external nonReentrant {
        _checkThroughMarket();
        Auction memory a = _auctions[collection][tokenId];
        if (a.kind == 0) revert NoAuction(collection, tokenId);
        bool operator = _hasRole(OPERATOR_ROLE_ID, msg.sender);
        if (a.seller != msg.sender && !operator) revert NotAuctionSeller(msg.sender, a.seller);
        if (a.bidder != address(0) && !operator) revert AuctionHasBid(collection, tokenId, a.bidder);
        delete _auctions[collection][tokenId];
        uint256 refund = a.bidder == address(0) ? 0 : a.amount;
        emit AuctionCancelled(collection, tokenId, a.seller, a.bidder, refund);
        IEaselCollection(collection).restoreAuctioned(tokenId);
        if (refund != 0) _send(a.bidder, refund);
    }

    /// @notice Changes the start price of a standard auction that has no bid yet. Seller only; like any trade,
    /// not while the market is locked, the seller banned or the token blocked.
    /// @dev No external call: no reentrancy guard needed. Here rather than in `EaselMarket` (rarely used, and
    /// no contract calls it): each selector the market keeps costs every trade above it a 22-gas comparison.
    function changeStandardAuctionBaseValue(address collection, uint256 tokenId, uint256 price) external {
        _checkThroughMarket();
        Hot storage c = _config;
        _checkOpen(c);
        Auction storage a = _auctions[collection][tokenId];
        if (a.kind != AUCTION_STANDARD) revert NotStandardAuction(collection, tokenId);
        if (a.seller != msg.sender) revert NotAuctionSeller(msg.sender, a.seller);
        if (a.bidder != address(0)) revert AuctionHasBid(collection, tokenId, a.bidder);
        _checkNotBanned(msg.sender);
        _checkCollectionNotBlocked(collection);
        if (a.tokenBlocked) revert TokenIsBlocked(collection, tokenId);
        _checkPrice(price, _minimum(c.standardAuctionMinimum));
        a.amount = uint96(price);
        emit AuctionBaseValueChanged(collection, tokenId, price);
    }

    // ---------------------------------------------------------------- credits

    /// @notice Withdraws the caller's credited funds to the caller (all gas forwarded). Always allowed, also
    /// for banned accounts and while the market is locked.
    /// @dev With `withdrawTo`, here rather than in `EaselMarket` (no contract calls them in a transaction): each
    /// selector the market keeps costs every trade above it a 22-gas comparison.
    function withdraw() external nonReentrant {
        _checkThroughMarket();
        _withdraw(msg.sender);
    }

    /// @notice Withdraws the caller's credited funds to `to`, for contracts that cannot receive ETH themselves.
    /// @param to Where the funds go.
    function withdrawTo(address to) external nonReentrant {
        _checkThroughMarket();
        _withdraw(to);
    }

    // ---------------------------------------------------------------- internal

    /// @dev Compares with the default collection's code hash, read through the factory (the market keeps the
    /// same hash in its code, which this code cannot read). Called directly, at this contract's own address,
    /// the derived factory does not exist and the call reverts.
    function _isEaselCollection(address collection) internal view override returns (bool) {
        return collection.codehash == address(factory().defaultCollection()).codehash;
    }

    /// @dev Empties `account`'s held payments and returns them.
    function _takeHeld(address account) private returns (uint256 amount) {
        amount = _held[account];
        if (amount == 0) revert NothingHeld(account);
        delete _held[account];
        _totalHeld -= amount;
    }

    function _checkThroughMarket() private view {
        if (address(this) == _self) revert DirectCallRefused();
    }

    function _checkRole(bytes32 role) private view {
        _checkThroughMarket();
        if (!_hasRole(role, msg.sender)) revert AccessControlUnauthorizedAccount(msg.sender, role);
    }

    /// @dev Revokes `role` from `account`; revoking a role not held changes nothing and emits nothing.
    function _revokeRole(bytes32 role, address account) private {
        if (!_roles[role][account]) return;
        if (role == ADMIN_ROLE_ID) {
            if (_adminCount == 1) revert LastAdmin();
            --_adminCount;
        }
        _roles[role][account] = false;
        emit RoleRevoked(role, account, msg.sender);
    }

    function _toUnits(uint256 weiAmount) private pure returns (uint24) {
        uint256 units = weiAmount / MINIMUM_UNIT;
        if (units == 0 || units > type(uint24).max || weiAmount % MINIMUM_UNIT != 0) revert InvalidMinimum(weiAmount);
        return uint24(units);
    }
}
