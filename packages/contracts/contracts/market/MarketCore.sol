// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {EaselCredits} from "../libraries/EaselPayments.sol";
import {IEaselCollection} from "../interfaces/IEaselCollection.sol";

/// @title MarketCore
/// @notice The storage, types, events, errors and checks shared by the market's two contracts: `EaselMarket`
/// (the trades, through the mechanisms `SellOrders`, `Auctions` and `Offers`, each standing on this core alone)
/// and `EaselMarketAdmin` (roles, settings, moderation and views), which the market reaches by `delegatecall`
/// from its `fallback`. Both inherit this contract and declare no storage of their own, so they read and write
/// the same slots.
/// @dev Roles (OpenZeppelin's `AccessControl` semantics, kept here so both contracts share the slot): the admin
/// (`DEFAULT_ADMIN_ROLE`, a multisig in production) grants and revokes every role; the controller sets fees,
/// minimums, the auction minimum duration and the platform signer and withdraws fees; the operator bans users,
/// blocks tokens and collections, verifies artists, locks the market and rescues tokens sent to the market by
/// mistake.
///
/// Invariant (tested): the market's balance = live bids + live offers + credits owed + payments held for banned
/// accounts + `feesAvailable()`.
abstract contract MarketCore is EaselCredits {
    /// @dev The role ids (`EaselMarketAdmin` makes them public).
    bytes32 internal constant ADMIN_ROLE_ID = 0x00;
    bytes32 internal constant CONTROLLER_ROLE_ID = keccak256("CONTROLLER_ROLE");
    bytes32 internal constant OPERATOR_ROLE_ID = keccak256("OPERATOR_ROLE");

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

    /// @dev Where `Hot.fees` starts in the settings slot (16+16+24+8+8+4*24 bits before it).
    uint256 private constant _FEES_SHIFT = 168;
    /// @dev Where `Hot.locked`, `Hot.entranceLocked` (8 bits each) and `Hot.listingMinimum` (24) start in the
    /// settings slot; the fee rates are bits 0-15 (primary) and 16-31 (secondary).
    uint256 internal constant LOCKED_SHIFT = 56;
    uint256 internal constant ENTRANCE_LOCKED_SHIFT = 64;
    uint256 internal constant LISTING_MINIMUM_SHIFT = 72;
    /// @dev Minimums are stored in units of 0.001 ETH (up to 16,777 ETH).
    uint256 internal constant MINIMUM_UNIT = 0.001 ether;
    /// @notice How long a listing lasts.
    uint256 internal constant SELL_ORDER_DURATION = 100 days;
    /// @notice The furthest ahead an offer (on a token or a collection) may expire.
    uint256 internal constant MAX_OFFER_DURATION = 100 days;
    /// @notice The deepest tree of listings one bulk signature covers (2^10 = 1,024 listings).
    uint256 internal constant MAX_BULK_HEIGHT = 10;
    /// @notice A later bid must be at least the top bid plus this share (in basis points).
    uint256 internal constant MIN_INCREMENT_BPS = 1_000;

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

    /// @dev An auction, in two slots. `amount` is the start/reserve price until the first bid, then the top bid.
    /// `end` is 0 for a reserve auction until its first bid. `tokenBlocked` copies the operator's block of the
    /// token (kept by `setTokenBlocked`), so bids and settlements read it with the auction. `kind`: 0 none,
    /// 1 standard, 2 reserve. Slot 0: seller (bits 0-159), start (160-199), end (200-239), kind (240-247),
    /// tokenBlocked (248-255); slot 1: bidder (0-159), amount (160-255).
    struct Auction {
        address seller;
        uint40 start;
        uint40 end;
        uint8 kind;
        bool tokenBlocked;
        address bidder;
        uint96 amount;
    }

    /// @dev A token's current offer, in one slot: its amount in gwei (56 bits hold 72 million ETH, above
    /// `MAX_PRICE`), which leaves room for its expiry. Offers are whole numbers of gwei.
    struct Offer {
        address buyer;
        uint40 expiresAt;
        uint56 amountGwei;
    }

    /// @notice An offer on up to a number of tokens of one collection at one price each, escrowed in ETH
    /// (`CollectionOffers`). Its identity is the hash of these fields (`collectionOfferId`); the market stores
    /// only how many tokens it still buys.
    struct CollectionOffer {
        address buyer;
        address collection;
        /// Zero: any token of the collection. Otherwise the root of a Merkle tree of the token ids it covers
        /// (a trait offer): sorted pairs, leaf `keccak256(abi.encode(tokenId))`, as Solady's `MerkleProofLib`.
        bytes32 tokenRoot;
        /// In wei, paid for each token.
        uint256 price;
        /// Unix seconds; from then on nobody can accept it, and anyone may return the rest to the buyer.
        uint256 expiresAt;
    }

    /// @notice A fixed-price listing the seller signed (EIP-712, domain "Easel Market" / "1", this chain, the
    /// market's address) instead of sending `setSellOrder`: it costs the seller nothing, and anyone fills it with
    /// `fillSignedListing`. It is void once the token's transfer count changes (any transfer, and the owner's
    /// `cancelSignedListing`, which counts one without moving the token), once the seller bumps their counter
    /// (`incrementListingCounter`), and at `expiresAt`, which may be at most 100 days away when it is filled
    /// (an order signed further out is not yet valid: it becomes fillable once its expiry is within 100 days).
    struct SignedListing {
        address collection;
        uint256 tokenId;
        /// In wei, paid exactly; at least the listing minimum when filled.
        uint256 price;
        address seller;
        /// The token's transfer count when signed (`transferCountOf`).
        uint256 transferCount;
        /// The seller's listing counter when signed (`listingCounterOf`).
        uint256 counter;
        /// Unix seconds; the listing is void from then on.
        uint256 expiresAt;
        /// The highest platform fee the seller accepts, in basis points: the fill is refused while the fee that
        /// would apply (the primary commission on the token's first market sale, else the secondary fee) is
        /// above it, so a fee raised after signing never applies to the order.
        uint16 maxFeeBps;
    }

    bytes32 internal constant SIGNED_LISTING_TYPEHASH = keccak256(
        "SignedListing(address collection,uint256 tokenId,uint256 price,address seller,uint256 transferCount,uint256 counter,uint256 expiresAt,uint16 maxFeeBps)"
    );
    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant DOMAIN_NAME_HASH = keccak256("Easel Market");
    bytes32 internal constant DOMAIN_VERSION_HASH = keccak256("1");
    /// @dev The gas a seller contract's ERC-1271 check may use: enough for a Safe or a passkey (P-256) wallet,
    /// and a cap on what a seller's code can take from the buyer's transaction. A check that needs more fails,
    /// so the API, which asks `signedListingStatus` (the same check) before storing an order, refuses it.
    uint256 internal constant ERC1271_GAS = 200_000;
    /// @dev The largest `s` of a canonical (low-s) secp256k1 signature: its twin `n - s` is refused.
    uint256 internal constant MAX_LOW_S = 0x7fffffffffffffffffffffffffffffff5d576e73_57a4501ddfe92f46681b20a0;

    /// @dev `Auction.kind` of a standard auction (2 is a reserve auction, `Auctions.AUCTION_RESERVE`).
    uint8 internal constant AUCTION_STANDARD = 1;

    uint256 internal constant BANNED = 1;
    uint256 internal constant VERIFIED = 2;
    /// @dev An account's signed-listing counter lives in its flags word from this bit on, so a signed fill
    /// reads it with the seller's ban flag (one slot).
    uint256 internal constant COUNTER_SHIFT = 8;

    // The storage of both contracts, in this order, after `EaselCredits`' two slots. Neither `EaselMarket`, its
    // mechanisms nor `EaselMarketAdmin` declares any other (immutables live in code, not in storage).

    /// @dev OpenZeppelin `AccessControl`'s role membership; every role is administered by the admin role.
    mapping(bytes32 role => mapping(address account => bool)) internal _roles;
    Hot internal _config;
    LazyConfig internal _lazyConfig;
    /// @dev Per account: bit 0 banned, bit 1 verified artist, bits 8-255 the signed-listing counter (one slot,
    /// read once per party).
    mapping(address account => uint256 flags) internal _accounts;
    mapping(address collection => mapping(uint256 tokenId => TokenSlot)) internal _tokens;
    /// @dev Whether the operator blocked a whole collection.
    mapping(address collection => bool) internal _collectionBlocked;
    mapping(address collection => mapping(uint256 tokenId => Auction)) internal _auctions;
    mapping(address collection => mapping(uint256 tokenId => Offer)) internal _offers;
    /// @dev Payments owed to banned accounts (royalties, split shares), held until an operator releases or
    /// forfeits them.
    mapping(address account => uint256 amount) internal _held;
    uint256 internal _totalHeld;
    /// @dev How many accounts hold the admin role: the last one cannot leave.
    uint256 internal _adminCount;
    /// @dev Per collection offer (`collectionOfferId`): how many tokens it still buys.
    mapping(bytes32 offerId => uint256 remaining) internal _collectionOffers;

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
    /// @notice An auction was cancelled and the token returned to the seller; `refundedBidder` (if any) got
    /// `refundedAmount` back.
    event AuctionCancelled(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed seller,
        address refundedBidder,
        uint256 refundedAmount
    );

    /// @notice A token was sold: `price` = `fee` (platform) + `royalty` (collaborators) + the proceeds (to the
    /// seller, or the collaborators when the seller is the creator), which are not logged: they are
    /// `price - fee - royalty` (`royalty` is 0 when the seller is the creator). `primary` marks the token's first sale through the
    /// market, which pays the primary commission. `mechanism` 1 = buy now, 2 = auction, 3 = offer. A completed
    /// auction emits nothing else: its `Sale` is the settlement (the seller, the winner as `buyer`, the price).
    event Sale(
        address indexed collection,
        uint256 indexed tokenId,
        address indexed seller,
        address buyer,
        uint8 mechanism,
        uint256 price,
        uint256 fee,
        uint256 royalty,
        bool primary
    );

    /// @notice A payment owed to a banned `account` is held by the market until an operator releases it to
    /// them or forfeits it to the platform.
    event PaymentHeld(address indexed account, uint256 amount);

    /// @notice The owner voided every listing of a token (signed or on chain): its transfer count is now
    /// `transferCount`, as if it had moved.
    event SignedListingCancelled(
        address indexed collection, uint256 indexed tokenId, address indexed seller, uint256 transferCount
    );
    /// @notice `seller` voided every signed listing they made so far: their counter is now `counter`.
    event ListingCounterIncremented(address indexed seller, uint256 counter);
    /// @notice An operator paid the payments held for `account` to it.
    event HeldPaymentReleased(address indexed account, uint256 amount);
    /// @notice An operator gave the payments held for `account` to the platform's fees.
    event HeldPaymentForfeited(address indexed account, uint256 amount);

    /// @notice A bulk signature's proof is empty, longer than `MAX_BULK_HEIGHT` or its index lies outside the
    /// tree.
    error InvalidBulkProof();
    /// @notice An owner cannot accept an offer they made themselves before they owned the token.
    error CannotAcceptOwnOffer(address account);
    /// @notice The offer expired at `expiresAt`.
    error OfferExpired(uint256 expiresAt);
    /// @notice An offer's expiry must lie after now and at most 100 days ahead.
    error OfferExpiryOutOfRange(uint256 expiresAt, uint256 latest);
    /// @notice The seller incremented their listing counter since signing.
    error ListingCounterChanged(uint256 counter, uint256 currentCounter);
    /// @notice A signed listing's expiry lies more than 100 days ahead (not yet valid: it will be once it is
    /// within 100 days).
    error ExpiryTooFar(uint256 expiresAt, uint256 latest);
    /// @notice The fee that would apply (`feeBps`) is above the highest the seller signed for (`maxFeeBps`).
    error FeeAboveSignedMax(uint256 feeBps, uint256 maxFeeBps);
    /// @notice The signature is not the seller's (ECDSA with a low `s`, or the seller contract's ERC-1271 answer).
    error InvalidSellerSignature(address seller);
    /// @notice Nothing is held for `account`.
    error NothingHeld(address account);
    /// @notice The only admin cannot give up the admin role: the market would have none.
    error LastAdmin();
    /// @notice The listing (on chain or signed) expired at `expiresAt`.
    error SellOrderExpired(uint256 expiresAt);
    /// @notice The token changed hands since it was listed (`listedTransferCount` != `transferCount`).
    error SellOrderVoid(uint256 listedTransferCount, uint256 transferCount);
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
    /// @notice The seller changed a standard auction's start price before any bid
    /// (`EaselMarketAdmin.changeStandardAuctionBaseValue`).
    event AuctionBaseValueChanged(address indexed collection, uint256 indexed tokenId, uint256 price);

    error NoAuction(address collection, uint256 tokenId);
    error NotStandardAuction(address collection, uint256 tokenId);
    error NotAuctionSeller(address caller, address seller);
    error AuctionHasBid(address collection, uint256 tokenId, address bidder);

    // ---------------------------------------------------------------- collection offers (`CollectionOffers`)

    /// @notice `offer.buyer` escrowed `price * added` for `added` more tokens; the offer now buys `remaining`.
    event CollectionOfferMade(
        bytes32 indexed offerId,
        address indexed collection,
        address indexed buyer,
        bytes32 tokenRoot,
        uint256 price,
        uint256 expiresAt,
        uint256 added,
        uint256 remaining
    );
    /// @notice The rest of the offer (`quantity` tokens) was cancelled and `refund` returned to `buyer`.
    event CollectionOfferCancelled(bytes32 indexed offerId, address indexed buyer, uint256 quantity, uint256 refund);
    /// @notice `seller` sold token `tokenId` to the offer, which now buys `remaining` more; the payout is in the
    /// Sale event (mechanism 5).
    event CollectionOfferAccepted(
        bytes32 indexed offerId, uint256 indexed tokenId, address indexed seller, uint256 remaining
    );

    /// @notice The offer does not exist, or buys no more tokens.
    error NoCollectionOffer(bytes32 offerId);
    /// @notice A collection offer is made by its buyer.
    error NotCollectionOfferBuyer(address caller, address buyer);
    /// @notice The quantity must be 1 to 10,000 tokens (with what the offer still buys).
    error QuantityOutOfRange(uint256 quantity, uint256 max);
    /// @notice The token's id is not in the offer's root (or the proof does not show it).
    error TokenNotInOffer(uint256 tokenId);

    // ---------------------------------------------------------------- roles

    function _hasRole(bytes32 role, address account) internal view returns (bool) {
        return _roles[role][account];
    }

    /// @dev Grants `role` to `account`; granting a role already held changes nothing and emits nothing.
    function _grantRole(bytes32 role, address account) internal {
        if (_roles[role][account]) return;
        _roles[role][account] = true;
        if (role == ADMIN_ROLE_ID) ++_adminCount;
        emit IAccessControl.RoleGranted(role, account, msg.sender);
    }

    // ---------------------------------------------------------------- checks

    function _checkOpen(Hot storage c) internal view {
        if (c.locked) revert MarketIsLocked();
    }

    /// @dev For new listings and auctions: the market and its entrance are open.
    function _checkEntrance(Hot storage c) internal view {
        if (c.locked) revert MarketIsLocked();
        if (c.entranceLocked) revert MarketEntranceIsLocked();
    }

    /// @dev The mapping reads below hash in scratch memory as Solidity does (`keccak256(key . slot)`), without
    /// the checks and masks it repeats around each access.
    function _checkNotBanned(address account) internal view {
        uint256 flags;
        assembly ("memory-safe") {
            mstore(0x00, account)
            mstore(0x20, _accounts.slot)
            flags := sload(keccak256(0x00, 0x40))
        }
        if (flags & BANNED != 0) revert UserIsBanned(account);
    }

    /// @dev Whether `collection` is an Easel collection (a clone of the factory's implementation).
    function _isEaselCollection(address collection) internal view virtual returns (bool);

    /// @dev An Easel collection that is not blocked.
    function _checkCollection(address collection) internal view {
        if (!_isEaselCollection(collection)) revert CollectionNotSupported(collection);
        _checkCollectionNotBlocked(collection);
    }

    /// @dev For collections already known to be Easel's (they hold a live auction or listing).
    function _checkCollectionNotBlocked(address collection) internal view {
        uint256 blocked;
        assembly ("memory-safe") {
            mstore(0x00, collection)
            mstore(0x20, _collectionBlocked.slot)
            blocked := and(sload(keccak256(0x00, 0x40)), 0xff)
        }
        if (blocked != 0) revert CollectionIsBlocked(collection);
    }

    /// @dev The offer's identity: the hash of its five words as they lie in the calldata (each field's type is
    /// checked where it is read, and a dirty word hashes to an offer nobody made).
    function _collectionOfferId(CollectionOffer calldata offer) internal pure returns (bytes32 offerId) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, offer, 0xa0)
            offerId := keccak256(m, 0xa0)
        }
    }

    /// @dev The storage slot of `_auctions[collection][tokenId]` (its first of two).
    function _auctionSlot(address collection, uint256 tokenId) internal pure returns (uint256 slot) {
        assembly ("memory-safe") {
            mstore(0x00, collection)
            mstore(0x20, _auctions.slot)
            mstore(0x20, keccak256(0x00, 0x40))
            mstore(0x00, tokenId)
            slot := keccak256(0x00, 0x40)
        }
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

    /// @dev An offer's expiry: after now, at most `MAX_OFFER_DURATION` ahead.
    function _checkOfferExpiry(uint256 expiresAt) internal view {
        uint256 latest = block.timestamp + MAX_OFFER_DURATION;
        if (expiresAt <= block.timestamp || expiresAt > latest) revert OfferExpiryOutOfRange(expiresAt, latest);
    }

    function _checkPrice(uint256 price, uint256 min) internal pure {
        if (price < min || price > MAX_PRICE) revert PriceOutOfRange(price, min, MAX_PRICE);
    }

    /// @dev A stored minimum in wei.
    function _minimum(uint24 units) internal pure returns (uint256) {
        return uint256(units) * MINIMUM_UNIT;
    }

    /// @dev `topBid` is at most 2^96 (a stored amount): no overflow.
    function _minNextBid(uint256 topBid) internal pure returns (uint256) {
        unchecked {
            return topBid + (topBid * MIN_INCREMENT_BPS) / 10_000;
        }
    }

    // ---------------------------------------------------------------- signed listings

    /// @dev The market's EIP-712 domain separator ("Easel Market", "1", this chain, this address), computed;
    /// `EaselMarket` answers from its code while the chain id is the one it was deployed on.
    function _domainSeparator() internal view virtual returns (bytes32 separator) {
        bytes32 typeHash = DOMAIN_TYPEHASH;
        bytes32 nameHash = DOMAIN_NAME_HASH;
        bytes32 versionHash = DOMAIN_VERSION_HASH;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, typeHash)
            mstore(add(m, 0x20), nameHash)
            mstore(add(m, 0x40), versionHash)
            mstore(add(m, 0x60), chainid())
            mstore(add(m, 0x80), address())
            separator := keccak256(m, 0xa0)
        }
    }

    /// @dev The EIP-712 digest the seller signs for one listing.
    function _signedListingDigest(SignedListing calldata order) internal view returns (bytes32) {
        return _typedDataDigest(_signedListingHash(order));
    }

    /// @dev The EIP-712 `hashStruct` of a listing. The struct's eight static words are hashed as they lie in the
    /// calldata (each field's type is checked where it is read).
    function _signedListingHash(SignedListing calldata order) internal pure returns (bytes32 structHash) {
        bytes32 typeHash = SIGNED_LISTING_TYPEHASH;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, typeHash)
            calldatacopy(add(m, 0x20), order, 0x100)
            structHash := keccak256(m, 0x120)
        }
    }

    /// @dev The EIP-712 digest of a struct hash in the market's domain.
    function _typedDataDigest(bytes32 structHash) internal view returns (bytes32 digest) {
        bytes32 separator = _domainSeparator();
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(0x00, 0x1901)
            mstore(0x20, separator)
            mstore(0x40, structHash)
            digest := keccak256(0x1e, 0x42)
            mstore(0x40, m)
        }
    }

    /// @dev The EIP-712 digest a seller signs for a tree of listings (`BulkListing`, one signature for up to
    /// 2^`MAX_BULK_HEIGHT`), proven for the listing at leaf `index` by the `height` sibling hashes in calldata at
    /// `proofOffset`, from the leaf up. The typed data is Seaport's bulk-order shape,
    /// `BulkListing(SignedListing[2]...[2] tree)` with one `[2]` per level, so a wallet shows every listing it
    /// covers; its array hashing is a positional binary Merkle tree of the listings' struct hashes (bit `i` of
    /// `index`: whether the node at level `i` is the right one). Unused leaves are zero listings, which no fill
    /// accepts. A proof of another height hashes with another type, so it never matches a signature over this
    /// tree.
    function _bulkListingDigest(SignedListing calldata order, uint256 index, uint256 proofOffset, uint256 height)
        internal
        view
        returns (bytes32)
    {
        bytes4 invalidProof = InvalidBulkProof.selector;
        uint256 maxHeight = MAX_BULK_HEIGHT;
        assembly ("memory-safe") {
            // No tree has this shape: no levels, too many, or an index outside the tree.
            if or(or(iszero(height), gt(height, maxHeight)), shr(height, index)) {
                mstore(0x00, invalidProof)
                revert(0x00, 0x04)
            }
        }
        bytes32 typeHash = _bulkListingTypehash(height);
        bytes32 listingTypeHash = SIGNED_LISTING_TYPEHASH;
        bytes32 node;
        assembly ("memory-safe") {
            // The leaf: the listing's `hashStruct`, as `_signedListingHash` (written out: a second call site would
            // keep the compiler from inlining it into the single fill).
            let m := mload(0x40)
            mstore(m, listingTypeHash)
            calldatacopy(add(m, 0x20), order, 0x100)
            node := keccak256(m, 0x120)
            // From the leaf up, one sibling hash per level.
            for { let end := add(proofOffset, shl(5, height)) } lt(proofOffset, end) {
                proofOffset := add(proofOffset, 0x20)
            } {
                // The node goes left (word 0) unless it is the right one (the index's lowest bit left).
                let at := shl(5, and(index, 1))
                mstore(at, node)
                mstore(xor(at, 0x20), calldataload(proofOffset))
                node := keccak256(0x00, 0x40)
                index := shr(1, index)
            }
            mstore(0x00, typeHash)
            mstore(0x20, node)
            node := keccak256(0x00, 0x40)
        }
        return _typedDataDigest(node);
    }

    /// @dev `_bulkListingDigest` for a proof passed as an ABI array (`bulkSignedListingStatus`, a cart's purchase).
    function _bulkListingDigest(SignedListing calldata order, uint256 index, bytes32[] calldata proof)
        internal
        view
        returns (bytes32)
    {
        uint256 proofOffset;
        assembly ("memory-safe") {
            proofOffset := proof.offset
        }
        return _bulkListingDigest(order, index, proofOffset, proof.length);
    }

    /// @dev `keccak256("BulkListing(SignedListing[2]...[2] tree)" + the SignedListing type)` for `height` levels
    /// (1 to `MAX_BULK_HEIGHT`; checked against the type strings by a test).
    function _bulkListingTypehash(uint256 height) internal pure returns (bytes32) {
        if (height == 6) return 0x57d6e6c92c6ff7a55111bba740ebdf1da2c4f3261638c09c59b9c90be9d35228;
        if (height < 6) {
            if (height == 1) return 0xe13be42632b21fe93500b07d76daecdc9d8fc91e1207e81fcdbf051abd551e1e;
            if (height == 2) return 0x0b18db1d900796f8e0d9effa8d32be7d239d30001a3ebf17fe4a01c509b81de0;
            if (height == 3) return 0x21a249f9844e3d63ff112dced86994565eee921f0fb0b8a63520e76a1bdacbae;
            if (height == 4) return 0x6ab80833d3a079741d7dd0a6268710378f5c6cce2a3a97fc80e88959972dc175;
            return 0xf3735f92ccce980ab6ee0260e19855221f25ef6d4fcf9a85202391d7b927a580;
        }
        if (height == 7) return 0x92569b26037c93c7e9e255e308c278633631ea692c64a724db80cf550095b4ad;
        if (height == 8) return 0xb53c549736fb600c094e67e6583adbccabf2feb09ecf5c958603c8db54fdba0d;
        if (height == 9) return 0xf57309d5596ae145db62f5357b254fb8d8a6e0a73ccc6acf6848b8e5a84c5b04;
        return 0x9a07990dec57f042817aca2ce818a008072f7c4b90c75ff599b2b1a755158db2;
    }

    /// @dev Whether `signature` is `seller`'s over `digest`: a 65-byte ECDSA signature (r, s, v) with a low `s`
    /// (its malleable twin is refused) recovering to `seller`, or else the seller contract's ERC-1271 answer
    /// (Safe, passkey wallets), given at most `ERC1271_GAS`. An account without code answers nothing, which is
    /// no.
    function _isSellerSignature(address seller, bytes32 digest, bytes calldata signature) internal view returns (bool) {
        if (signature.length == 65) {
            bytes32 r;
            bytes32 s;
            uint8 v;
            assembly ("memory-safe") {
                r := calldataload(signature.offset)
                s := calldataload(add(signature.offset, 0x20))
                v := byte(0, calldataload(add(signature.offset, 0x40)))
            }
            if (uint256(s) <= MAX_LOW_S) {
                // `ecrecover` answers zero for a `v` other than 27 or 28 and for an invalid signature.
                address recovered = ecrecover(digest, v, r, s);
                if (recovered != address(0) && recovered == seller) return true;
            }
        }
        // Solady's `isValidERC1271SignatureNowCalldata`, with the gas capped.
        bool isValid;
        uint256 gasCap = ERC1271_GAS;
        assembly ("memory-safe") {
            let m := mload(0x40)
            let f := shl(224, 0x1626ba7e)
            mstore(m, f) // `isValidSignature(bytes32,bytes)`.
            mstore(add(m, 0x04), digest)
            let d := add(m, 0x24)
            mstore(d, 0x40)
            mstore(add(m, 0x44), signature.length)
            calldatacopy(add(m, 0x64), signature.offset, signature.length)
            isValid := staticcall(gasCap, seller, m, add(signature.length, 0x64), d, 0x20)
            isValid := and(eq(mload(d), f), isValid)
        }
        return isValid;
    }

    // ---------------------------------------------------------------- sale

    /// @dev Moves the token to `buyer` as a sale (the collection checks the market's approval and marks the
    /// primary sale done) and returns where its answer lies in memory: the six words of `SaleTerms` (seller,
    /// creator, royaltyBps, transferCount, primary, splitCount), read with `_termsWord`. The caller checks them,
    /// then calls `_payout`. Callers have cleared their own state; every entry point is nonReentrant.
    /// The call is made by hand: `collection` is always an Easel collection here (code hash checked, or it holds
    /// a live auction or offer), so its six-word answer is copied as is, without the ~600 gas of ABI decoding,
    /// and left in memory as words rather than a Solidity struct (which would be allocated and zeroed first).
    function _deliverPurchase(address collection, uint256 tokenId, address buyer) internal returns (uint256 terms) {
        terms = _deliver(collection, tokenId, buyer, IEaselCollection.deliverPurchase.selector);
    }

    /// @dev `_deliverPurchase` with the collection's function: `deliverPurchase`, or `sellAuctioned` for an
    /// auction's locked token.
    function _deliver(address collection, uint256 tokenId, address buyer, bytes4 selector)
        internal
        returns (uint256 terms)
    {
        assembly ("memory-safe") {
            terms := mload(0x40)
            mstore(terms, selector)
            mstore(add(terms, 0x04), buyer)
            mstore(add(terms, 0x24), tokenId)
            if iszero(call(gas(), collection, 0, terms, 0x44, terms, 0xc0)) {
                returndatacopy(terms, 0, returndatasize())
                revert(terms, returndatasize())
            }
            // The answer is kept: later encodings (`_emitSale`) write from the free memory pointer.
            mstore(0x40, add(terms, 0xc0))
        }
    }

    /// @dev `_deliverPurchase` of a token `seller` must hold (they are selling it: accepting an offer): the
    /// collection checks the market's approval, and a sale from anyone else reverts with the transfer.
    function _deliverFrom(address collection, uint256 tokenId, address seller, address buyer)
        internal
        returns (uint256 terms)
    {
        terms = _deliverPurchase(collection, tokenId, buyer);
        address owner = address(uint160(_termsWord(terms, 0)));
        if (owner != seller) revert OnlyTokenOwner(seller, owner);
    }

    /// @dev Word `index` of a `_deliverPurchase` answer (0 seller, 1 creator, 2 royaltyBps, 3 transferCount,
    /// 4 primary, 5 splitCount), as the Easel collection wrote it (already clean: no masking needed).
    function _termsWord(uint256 terms, uint256 index) internal pure returns (uint256 word) {
        assembly ("memory-safe") {
            word := mload(add(terms, shl(5, index)))
        }
    }

    /// @dev Pays out `price`. The fee is the primary commission on the token's first market sale, else the
    /// secondary fee. A creator selling keeps no royalty for themselves: the rest is split among the
    /// collaborators; anyone else pays the royalty (split among the collaborators) and receives the rest.
    /// `terms` is a `_deliverPurchase` answer (its seller word may have been replaced by the caller).
    function _payout(
        Hot storage c,
        address collection,
        uint256 tokenId,
        uint256 terms,
        address buyer,
        uint256 price,
        uint8 mechanism
    ) internal {
        // The settings slot as one word (layout on `Hot`: the fees at bits 0-15 and 16-31, the fees collected at
        // 168-255), read once and written once.
        uint256 word;
        address seller;
        address creator;
        uint256 primary;
        uint256 fee;
        uint256 royalty;
        uint256 proceeds;
        // price <= MAX_PRICE (2^80) and every rate is below 10,000, so no product overflows; the fee (at most
        // 20%) and the royalty (at most 20%, `EaselCollection.MAX_ROYALTY_BPS`) leave proceeds >= 0.
        // The rate: the primary commission (bits 0-15) on a primary sale, else the secondary fee (bits 16-31).
        assembly ("memory-safe") {
            word := sload(c.slot)
            seller := mload(terms)
            creator := mload(add(terms, 0x20))
            primary := mload(add(terms, 0x80))
            fee := div(mul(price, and(shr(shl(4, iszero(primary)), word), 0xffff)), 10000)
            if iszero(eq(seller, creator)) { royalty := div(mul(price, mload(add(terms, 0x40))), 10000) }
            proceeds := sub(sub(price, fee), royalty)
        }
        // fee <= price <= MAX_PRICE (2^80): the collected sum stays far below 2^88 and cannot carry out of its
        // field.
        if (fee != 0) {
            assembly ("memory-safe") {
                sstore(c.slot, add(word, shl(_FEES_SHIFT, fee)))
            }
        }
        _emitSale(collection, tokenId, seller, buyer, mechanism, price, fee, royalty, primary);
        // The seller is not banned (every caller checked): a creator selling is paid as is; otherwise the
        // creator's royalty is held while they are banned. Split shares check each collaborator.
        if (seller == creator) {
            _payCollaborators(collection, tokenId, creator, terms, proceeds, false);
        } else {
            if (royalty != 0) _payCollaborators(collection, tokenId, creator, terms, royalty, true);
            _send(seller, proceeds);
        }
    }

    /// @dev `emit Sale(...)`, encoded in place: three topics after the signature, six data words (the seller's
    /// proceeds are not logged: they are `price - fee - royalty`).
    function _emitSale(
        address collection,
        uint256 tokenId,
        address seller,
        address buyer,
        uint8 mechanism,
        uint256 price,
        uint256 fee,
        uint256 royalty,
        uint256 primary
    ) private {
        bytes32 signature = Sale.selector;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, buyer)
            mstore(add(m, 0x20), mechanism)
            mstore(add(m, 0x40), price)
            mstore(add(m, 0x60), fee)
            mstore(add(m, 0x80), royalty)
            mstore(add(m, 0xa0), primary)
            log4(m, 0xc0, signature, collection, tokenId, seller)
        }
    }

    /// @dev Pays `amount` to the creator, or splits it among the token's collaborators; a banned recipient's
    /// part is held (`_sendOrHold`). `checkCreator` is false when the creator is the seller, already checked.
    function _payCollaborators(
        address collection,
        uint256 tokenId,
        address creator,
        uint256 terms,
        uint256 amount,
        bool checkCreator
    ) private {
        if (_termsWord(terms, 5) <= 1) {
            if (checkCreator) _sendOrHold(creator, amount);
            else _send(creator, amount);
        } else {
            (address[] memory recipients, uint256[] memory shares) = IEaselCollection(collection).collaboratorsOf(tokenId);
            // As `_sendSplit`, each part through `_sendOrHold`; rounding dust goes to the first (the creator).
            uint256 rest = amount;
            for (uint256 i = 1; i < recipients.length; ++i) {
                uint256 part = (amount * shares[i]) / 100;
                rest -= part;
                _sendOrHold(recipients[i], part);
            }
            _sendOrHold(recipients[0], rest);
        }
    }

    /// @dev Pays `to`, unless `to` is banned: then the amount is held for an operator's decision
    /// (`EaselMarketAdmin.releaseHeld` / `forfeitHeld`). An innocent buyer's purchase still goes through.
    function _sendOrHold(address to, uint256 amount) private {
        if (_accounts[to] & BANNED != 0) {
            _held[to] += amount;
            _totalHeld += amount;
            emit PaymentHeld(to, amount);
        } else {
            _send(to, amount);
        }
    }
}
