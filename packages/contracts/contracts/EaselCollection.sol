// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {EaselSplitterClone} from "./libraries/EaselSplitterClone.sol";
import {ERC721} from "solady/src/tokens/ERC721.sol";
import {EIP712} from "solady/src/utils/EIP712.sol";
import {ECDSA} from "solady/src/utils/ECDSA.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";
import {EaselCid} from "./libraries/EaselCid.sol";
import {EaselPayments} from "./libraries/EaselPayments.sol";
import {IEaselMarket} from "./interfaces/IEaselMarket.sol";
import {Collaborator, CollectionKind, LazyMintVoucher, SaleInfo} from "./interfaces/IEaselTypes.sol";

/// @title EaselCollection
/// @notice An ERC-721 collection with per-token ERC-2981 royalties and earnings splits. The factory deploys it as
/// an EIP-1167 minimal clone of one implementation, in one of three kinds: Standard (the owner mints), Default
/// (the shared collection: any verified artist mints) and Lazy (tokens are minted at purchase with a voucher
/// signed by the platform signer).
/// @dev Token ids: standard and default collections number their tokens 1, 2, 3, … themselves, so no one can
/// take an id another mint expects and two mints never race for one; a lazy collection mints the id its
/// voucher names (the Easel record id, which only the platform signer chooses), once.
///
/// Per token, the ownership slot's 96 spare bits (Solady's extra data) hold:
///   bit 0 registered (never cleared, so an id is used once even after a burn), bit 1 dag-pb codec,
///   bit 2 primary sale done, bits 3-18 royalty in basis points, bits 19-21 collaborator count (0 = the creator
///   alone), bits 22-56 five 7-bit shares, bits 57-92 the transfer count (every transfer after the mint adds 1,
///   and so do the owner's `cancelSignedListing` at the market and an auction's lock and unlock; the market
///   voids a listing when it changes), bit 93 an approved address is set (see `_approve`), bit 94 in an
///   auction (see `reserveTokenForAuction`), bit 95 blocked by the market's operator (a copy of the market's flag: sales and
///   lazy mints refuse it).
/// An auctioned token stays with its seller (Easel is non-custodial): the lock bit refuses every move, approval,
/// burn, listing and sale of it until the market settles the auction (a transfer to the winner) or cancels it.
/// Every mint goes through the market's moderation checks (lock, bans, blocks, verified artist).
contract EaselCollection is ERC721, EIP712, EaselPayments {
    /// @notice Highest royalty: 20%.
    uint256 internal constant MAX_ROYALTY_BPS = 2_000;
    /// @notice Most recipients of one token's earnings.
    uint256 internal constant MAX_COLLABORATORS = 5;
    /// @notice Highest lazy-mint price (about 1.2 million ETH), the same bound as the market's.
    uint256 internal constant MAX_PRICE = type(uint80).max;

    bytes32 public constant COLLABORATOR_TYPEHASH = keccak256("Collaborator(address account,uint8 share)");
    bytes32 public constant LAZY_MINT_TYPEHASH = keccak256(
        "LazyMintVoucher(uint256 tokenId,uint256 price,address buyer,uint16 royaltyBps,address collection,bytes cid,Collaborator[] collaborators,uint48 nonce,uint256 deadline)Collaborator(address account,uint8 share)"
    );

    uint96 private constant _REGISTERED = 1;
    uint96 private constant _DAG_PB = 2;
    uint96 private constant _PRIMARY_SOLD = 4;
    /// @dev The market's operator blocked the token, or the id before its mint: then it is the whole extra data,
    /// and a lazy mint is refused while it is there; a standard or default mint goes through and the token is
    /// born blocked (its sales are refused until the operator unblocks it).
    uint96 private constant _BLOCKED = uint96(1) << 95;
    /// @dev The token has an approved address (Solady's slot next to the ownership slot): set and cleared by
    /// `_approve`, cleared by every transfer. A transfer of a token without one does not read that slot.
    uint96 private constant _APPROVED = uint96(1) << 93;
    /// @dev The token is in an auction at the market (`reserveTokenForAuction`): only the auction's settlement moves it.
    uint96 private constant _LOCKED = uint96(1) << 94;
    /// @dev The transfer count's 36 bits, once shifted down (6.9 x 10^10 transfers of one token: it cannot reach
    /// the approval bit).
    uint256 private constant _TRANSFERS_MASK = (1 << 36) - 1;
    uint256 private constant _ROYALTY_SHIFT = 3;
    uint256 private constant _COUNT_SHIFT = 19;
    uint256 private constant _SHARES_SHIFT = 22;
    uint256 private constant _TRANSFERS_SHIFT = 57;
    // Where `State`'s fields sit in its slot (see `_stateWord`).
    uint256 private constant _KIND_SHIFT = 160;
    uint256 private constant _SUPPLY_SHIFT = 168;
    uint256 private constant _NONCE_SHIFT = 200;
    uint256 private constant _BLOCKED_SHIFT = 248;
    // Solady ERC721's storage seed and Transfer topic (private there), for `_moveToken`.
    uint256 private constant _ERC721_MASTER_SLOT_SEED = 0x7d8825530a5a2e7a << 192;
    uint256 private constant _TRANSFER_EVENT_SIGNATURE =
        0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef;

    /// @notice The market: moderation, platform signer and fee settings.
    IEaselMarket public immutable market;
    /// @notice The factory, the only account that may initialize a clone; it also deploys royalty splitters.
    address public immutable factory;
    /// @notice The implementation of the royalty splitters of split tokens.
    address public immutable royaltySplitterImplementation;

    /// @dev One slot (160 + 8 + 32 + 48 + 8 bits): read by every mint and every sale.
    struct State {
        address owner;
        CollectionKind kind;
        /// A lazy collection's maximum supply (its ids are 1..supply; it does not count its mints, the indexer
        /// counts `LazyMinted`); in standard and default collections, the tokens minted so far, also the last
        /// token id. One field for both: no kind uses the other, and the voucher nonce needs the room.
        uint32 supply;
        /// Lazy vouchers must carry this nonce; `revokeVouchers` increments it (2^48 revocations: none can run
        /// out).
        uint48 voucherNonce;
        /// The market's operator blocked the collection: no mints, no sales (a copy of the market's flag, kept
        /// here because mints and sales read this slot anyway).
        bool blocked;
    }

    State private _state;
    /// The name and the symbol with their lengths, and the rest of them past 30 bytes (see `_setNames`).
    bytes32 private _names;
    bytes32 private _namesTail;
    mapping(uint256 tokenId => bytes32 digest) private _cidDigest;
    /// Default collection only: the artist who minted each token (elsewhere the creator is the owner).
    mapping(uint256 tokenId => address creator) private _tokenCreator;
    /// Collaborators 1..n-1 of split tokens (collaborator 0 is always the creator).
    mapping(uint256 tokenId => mapping(uint256 index => address account)) private _collaborator;

    /// @notice A token was minted. `collaborators` is empty when the creator receives everything.
    event Minted(
        uint256 indexed tokenId,
        address indexed creator,
        address indexed to,
        bytes cid,
        uint16 royaltyBps,
        Collaborator[] collaborators
    );
    /// @notice A token was minted at purchase (instead of `Minted`): `price` paid, of which `fee` to the
    /// platform and the rest to the collaborators (`collaborators` empty: the creator alone). It is the token's
    /// primary sale.
    event LazyMinted(
        uint256 indexed tokenId,
        address indexed creator,
        address indexed buyer,
        bytes cid,
        uint16 royaltyBps,
        Collaborator[] collaborators,
        uint256 price,
        uint256 fee
    );
    /// @notice The market's operator blocked or unblocked the collection.
    event BlockedSet(bool blocked);
    /// @notice Every lazy voucher signed with a nonce below `nonce` is void.
    event VouchersRevoked(uint256 nonce);
    /// @notice Platform fees from lazy mints were sent to the market.
    event FeesSwept(uint256 amount);

    error NotFactory(address caller);
    error CollectionIsBlocked(address collection);
    /// @notice The market's operator blocked this token id (a lazy mint of it is refused).
    error TokenIsBlocked(address collection, uint256 tokenId);
    error NotMarket(address caller);
    error AlreadyInitialized();
    error NotCollectionOwner(address caller, address owner);
    error RoyaltyTooHigh(uint256 royaltyBps, uint256 maxRoyaltyBps);
    error RecordAlreadyRegistered(uint256 tokenId);
    /// @notice Lazy collections mint ids 1..maxSupply only.
    error TokenIdOutOfRange(uint256 tokenId, uint256 maxSupply);
    error InvalidCollaboratorCount(uint256 count);
    error InvalidShare(uint256 index, uint256 share);
    error SharesNotHundred(uint256 total);
    error DuplicateCollaborator(address account);
    error FirstCollaboratorNotCreator(address account, address creator);
    error NotLazyCollection();
    error LazyCollection();
    error VoucherExpired(uint256 deadline);
    error VoucherRevoked(uint256 nonce, uint256 currentNonce);
    error BuyerIsCollectionOwner(address buyer);
    error PriceOutOfRange(uint256 price, uint256 min, uint256 max);
    error IncorrectPayment(uint256 required, uint256 sent);
    error InvalidSignature();
    /// @notice ERC-721 calls here carry no ETH (Solady marks them payable to save gas).
    error EthNotAccepted();
    /// @notice The token is in an auction at the market: only the auction's end moves or frees it.
    error TokenInAuction(address collection, uint256 tokenId);
    error TokenNotInAuction(uint256 tokenId);

    /// @param market_ The Easel market.
    /// @param royaltySplitterImplementation_ What split tokens' royalty splitters are clones of.
    constructor(address market_, address royaltySplitterImplementation_) {
        market = IEaselMarket(market_);
        factory = msg.sender;
        royaltySplitterImplementation = royaltySplitterImplementation_;
    }

    /// @notice Sets up a fresh clone. Called once, by the factory, in the transaction that creates the clone.
    function initialize(address owner_, string calldata name_, string calldata symbol_, CollectionKind kind, uint32 maxSupply)
        external
    {
        if (msg.sender != factory) revert NotFactory(msg.sender);
        if (uint8(_stateWord() >> _KIND_SHIFT) != uint8(CollectionKind.None)) revert AlreadyInitialized();
        // The whole `State` in one word: the owner, the kind, the supply (standard and default collections start
        // with no token minted: the factory passes maxSupply 0), voucher nonce 0, not blocked.
        uint256 state = uint256(uint160(owner_)) | (uint256(uint8(kind)) << _KIND_SHIFT)
            | (uint256(maxSupply) << _SUPPLY_SHIFT);
        assembly ("memory-safe") {
            sstore(_state.slot, state)
        }
        _setNames(name_, symbol_);
    }

    // ---------------------------------------------------------------- minting

    /// @notice Mints the collection's next token to the caller, who must be a verified artist (not banned, the
    /// market open, the collection not blocked) and, except in the default collection, the collection owner.
    /// @param royaltyBps Royalty on secondary sales in basis points (0 to 2000).
    /// @param cid The binary IPFS CIDv1 of the token metadata (raw or dag-pb, sha2-256).
    /// @param collaborators The earnings split (1 to 5 entries, first = the caller), or empty for the caller alone.
    /// @return tokenId The new token's id: the previous id + 1 (the first is 1).
    function mintNFT(uint16 royaltyBps, bytes calldata cid, Collaborator[] calldata collaborators)
        external
        returns (uint256 tokenId)
    {
        uint256 state = _stateWord();
        if (state >> _BLOCKED_SHIFT != 0) revert CollectionIsBlocked(address(this));
        uint256 kind = uint8(state >> _KIND_SHIFT);
        if (kind == uint8(CollectionKind.Lazy)) revert LazyCollection();
        address owner_ = address(uint160(state));
        if (kind != uint8(CollectionKind.Default) && msg.sender != owner_) {
            revert NotCollectionOwner(msg.sender, owner_);
        }
        market.authorizeMint(msg.sender);
        // The counter (checked: at most 2^32 - 1 tokens) is the last id; it is written back in the word read.
        tokenId = uint32(state >> _SUPPLY_SHIFT) + 1;
        assembly ("memory-safe") {
            sstore(_state.slot, add(state, shl(_SUPPLY_SHIFT, 1)))
        }
        _mintToken(kind, 0, msg.sender, msg.sender, royaltyBps, cid, tokenId, collaborators, 0);
        emit Minted(tokenId, msg.sender, msg.sender, cid, royaltyBps, collaborators);
    }

    /// @notice Mints a token of a lazy collection to the caller with a voucher the platform signer signed for
    /// the caller, paying exactly `voucher.price`, split like a primary sale (platform fee, then the
    /// collaborators). The market must be open, neither the buyer nor the creator banned, the collection not
    /// blocked, and the price at least the market's lazy-mint minimum.
    /// @dev Exact payment: the wallet sends the voucher's price, so a refund path (and its failure mode) is not
    /// needed; any other amount reverts with IncorrectPayment.
    function lazyMint(LazyMintVoucher calldata voucher) external payable nonReentrant returns (uint256) {
        uint256 state = _stateWord();
        if (uint8(state >> _KIND_SHIFT) != uint8(CollectionKind.Lazy)) revert NotLazyCollection();
        if (state >> _BLOCKED_SHIFT != 0) revert CollectionIsBlocked(address(this));
        if (block.timestamp > voucher.deadline) revert VoucherExpired(voucher.deadline);
        uint256 currentNonce = uint48(state >> _NONCE_SHIFT);
        if (voucher.nonce != currentNonce) revert VoucherRevoked(voucher.nonce, currentNonce);
        address creator = address(uint160(state));
        if (msg.sender == creator) revert BuyerIsCollectionOwner(msg.sender);
        (address signer, uint256 feeBps, uint256 minimum) = market.authorizeLazyMint(msg.sender, creator);
        uint256 price = voucher.price;
        if (price < minimum || price > MAX_PRICE) revert PriceOutOfRange(price, minimum, MAX_PRICE);
        if (msg.value != price) revert IncorrectPayment(price, msg.value);
        address recovered = ECDSA.tryRecoverCalldata(_hashTypedData(_hashLazyMint(voucher)), voucher.signature);
        if (recovered == address(0) || recovered != signer) revert InvalidSignature();
        uint256 tokenId = voucher.tokenId;
        // The lazy mint is the token's primary sale: later market sales are secondary.
        _mintToken(
            uint8(CollectionKind.Lazy),
            uint32(state >> _SUPPLY_SHIFT),
            creator,
            msg.sender,
            voucher.royaltyBps,
            voucher.cid,
            tokenId,
            voucher.collaborators,
            _PRIMARY_SOLD
        );

        // The fee stays here until sweepFees; the rest is pushed now.
        uint256 fee = (price * feeBps) / 10_000;
        emit LazyMinted(
            tokenId, creator, msg.sender, voucher.cid, voucher.royaltyBps, voucher.collaborators, price, fee
        );
        if (voucher.collaborators.length <= 1) {
            // The creator alone (stored as no split): no arrays to build.
            _send(creator, price - fee);
        } else {
            (address[] memory recipients, uint256[] memory shares) = _recipients(tokenId, creator);
            // A banned collaborator is refused like a banned creator (the creator is checked above).
            market.checkNotBanned(recipients);
            _sendSplit(recipients, shares, price - fee);
        }
        return tokenId;
    }

    /// @notice Voids every lazy voucher signed so far (they carry the old nonce). The collection owner or the
    /// platform signer may call, e.g. after a price change or a mistake; new vouchers carry the new nonce.
    function revokeVouchers() external {
        State memory s = _state;
        if (msg.sender != s.owner && msg.sender != market.signer()) revert NotCollectionOwner(msg.sender, s.owner);
        uint48 nonce = s.voucherNonce + 1;
        _state.voucherNonce = nonce;
        emit VouchersRevoked(nonce);
    }

    /// @notice Sends the platform fees collected by lazy mints to the market. Anyone may call.
    function sweepFees() external nonReentrant {
        uint256 amount = address(this).balance - totalCredits();
        emit FeesSwept(amount);
        SafeTransferLib.safeTransferETH(address(market), amount);
    }

    /// @notice Burns a token. The caller must own it or be approved for it; not while it is in an auction.
    function burnNFT(uint256 tokenId) external {
        if (_getExtraData(tokenId) & _LOCKED != 0) revert TokenInAuction(address(this), tokenId);
        _burn(msg.sender, tokenId);
    }

    // ---------------------------------------------------------------- market

    /// @notice Market only: blocks or unblocks mints and sales here (the market's operator decides).
    function setBlocked(bool blocked) external {
        if (msg.sender != address(market)) revert NotMarket(msg.sender);
        _state.blocked = blocked;
        emit BlockedSet(blocked);
    }

    /// @notice Market only: copies the market operator's block of a token here, where every sale reads the
    /// token's slot anyway (`deliverPurchase` refuses a blocked token), minted or not. An id not minted yet
    /// keeps the block until its mint: a lazy collection refuses to mint it (no buyer pays for a token nobody
    /// could list); a standard or default collection mints it (an artist's mint is not stopped) and the token
    /// is born blocked, so no path sells it, the signed fill included, which reads only this copy.
    function setTokenBlocked(uint256 tokenId, bool blocked) external {
        if (msg.sender != address(market)) revert NotMarket(msg.sender);
        uint96 extra = _getExtraData(tokenId);
        _setExtraData(tokenId, blocked ? extra | _BLOCKED : extra & ~_BLOCKED);
    }

    /// @notice Market only: counts one more transfer of `tokenId` without moving it, which voids every listing
    /// of it (the owner's `cancelSignedListing` at the market). Returns the new count.
    function voidListings(uint256 tokenId) external returns (uint256 transferCount) {
        if (msg.sender != address(market)) revert NotMarket(msg.sender);
        uint96 extra = _getExtraData(tokenId) + uint96(1 << _TRANSFERS_SHIFT);
        _setExtraData(tokenId, extra);
        return (extra >> _TRANSFERS_SHIFT) & _TRANSFERS_MASK;
    }

    /// @notice Market only: moves `tokenId` from its owner to `to` as a sale and returns what the payout needs.
    /// The owner must have approved the market. The first such sale of a token (or its lazy mint) is its primary
    /// sale.
    /// @dev Returns `SaleTerms`'s six words as six values: the same ABI encoding, without the struct Solidity
    /// would allocate and zero in memory before the body (the answer is written by hand below).
    /// A token in an auction is refused (`TokenInAuction`): only `sellAuctioned` sells it.
    function deliverPurchase(address to, uint256 tokenId)
        external
        returns (
            address seller,
            address creator,
            uint256 royaltyBps,
            uint256 transferCount,
            bool primary,
            uint256 splitCount
        )
    {
        // Written out in both sale functions: a shared function is not inlined, and its call cost every sale ~27 gas.
        if (msg.sender != address(market)) revert NotMarket(msg.sender);
        // The state slot read once as a word (`State`: owner bits 0-159, kind 160-167, blocked 248-255).
        uint256 state;
        assembly ("memory-safe") {
            state := sload(_state.slot)
        }
        if (state >> 248 != 0) revert CollectionIsBlocked(address(this));
        uint256 ownership = _moveToken(msg.sender, address(0), to, tokenId, true);
        // Blocked (bit 255) or in an auction (bit 254): one test on every sale's path.
        if (ownership >> 254 != 0) _refuseSale(ownership, tokenId, false);
        _answerSale(state, ownership, tokenId);
    }

    /// @notice Market only: ends an auction with a winner. Moves the locked token from its seller to `to` as a
    /// sale (as `deliverPurchase`, with the same answer) and lifts the lock. The market's approval is not read
    /// again: the seller gave it when the auction locked the token, and taking it back since cannot keep the
    /// token from its winner.
    function sellAuctioned(address to, uint256 tokenId)
        external
        returns (
            address seller,
            address creator,
            uint256 royaltyBps,
            uint256 transferCount,
            bool primary,
            uint256 splitCount
        )
    {
        // Written out in both sale functions: a shared function is not inlined, and its call cost every sale ~27 gas.
        if (msg.sender != address(market)) revert NotMarket(msg.sender);
        // The state slot read once as a word (`State`: owner bits 0-159, kind 160-167, blocked 248-255).
        uint256 state;
        assembly ("memory-safe") {
            state := sload(_state.slot)
        }
        if (state >> 248 != 0) revert CollectionIsBlocked(address(this));
        // No approval check (`by` zero); the move is undone below unless the token was in an auction.
        uint256 ownership = _moveToken(address(0), address(0), to, tokenId, true);
        // In an auction (bit 254) and not blocked (bit 255).
        if (ownership >> 254 != 1) _refuseSale(ownership, tokenId, true);
        _answerSale(state, ownership, tokenId);
    }

    /// @notice Market only: puts `seller`'s token in an auction. The token stays with its seller, locked: no
    /// transfer, approval, burn, listing or sale until the market settles or cancels the auction. The seller must
    /// hold it and have approved the market (for the token or for all), as for a listing. The lock counts as a
    /// transfer (every listing of the token is void) and clears the token's approved address (with its `Approval`
    /// event, as a transfer would: `approve` is refused until the auction ends).
    function reserveTokenForAuction(address seller, uint256 tokenId) external {
        if (msg.sender != address(market)) revert NotMarket(msg.sender);
        // Solady's getters and `_ownershipPacked`, not `_moveToken`'s assembly: a few hundred gas more on an
        // auction's creation, and the sale's constants stay where the optimizer keeps them cheapest for every sale.
        uint256 ownership = _ownershipPacked(tokenId);
        address holder = address(uint160(ownership));
        if (holder == address(0)) revert TokenDoesNotExist();
        if (holder != seller) revert TransferFromIncorrectOwner();
        uint96 extra = uint96(ownership >> 160);
        if (extra & _LOCKED != 0) revert TokenInAuction(address(this), tokenId);
        bool approved = extra & _APPROVED != 0;
        if ((!approved || _getApproved(tokenId) != msg.sender) && !isApprovedForAll(seller, msg.sender)) {
            revert NotOwnerNorApproved();
        }
        // Clears the approved address with its `Approval` event, and its bit (see `_approve`).
        if (approved) _approve(address(0), tokenId);
        _setExtraData(tokenId, ((extra & ~_APPROVED) | _LOCKED) + uint96(1 << _TRANSFERS_SHIFT));
    }

    /// @notice Market only: lifts the lock of a cancelled auction's token, which stays with its seller. Counts as a
    /// transfer: a listing signed during the auction is void.
    function restoreAuctioned(uint256 tokenId) external {
        if (msg.sender != address(market)) revert NotMarket(msg.sender);
        uint96 extra = _getExtraData(tokenId);
        if (extra & _LOCKED == 0) revert TokenNotInAuction(tokenId);
        _setExtraData(tokenId, (extra & ~_LOCKED) + uint96(1 << _TRANSFERS_SHIFT));
    }

    /// @dev Why a sale of a token is refused, from its ownership slot before the sale: blocked, or (`auction`) not
    /// in an auction for its settlement, in one for any other sale.
    function _refuseSale(uint256 ownership, uint256 tokenId, bool auction) private view {
        if (ownership >> 255 != 0) revert TokenIsBlocked(address(this), tokenId);
        if (auction) revert TokenNotInAuction(tokenId);
        revert TokenInAuction(address(this), tokenId);
    }

    /// @dev Returns a sale's answer (`SaleTerms`'s six words) to the market and ends the call.
    function _answerSale(uint256 state, uint256 ownership, uint256 tokenId) private view {
        address creator = uint8(state >> 160) == uint8(CollectionKind.Default)
            ? _tokenCreator[tokenId]
            : address(uint160(state));
        // The answer's six words (`SaleTerms`: seller, creator, royaltyBps, transferCount, primary, splitCount)
        // written straight from the ownership slot, without building the struct and encoding it again.
        uint96 primarySold = _PRIMARY_SOLD;
        uint256 royaltyShift = _ROYALTY_SHIFT;
        uint256 transfersShift = _TRANSFERS_SHIFT;
        uint256 transfersMask = _TRANSFERS_MASK;
        uint256 countShift = _COUNT_SHIFT;
        assembly ("memory-safe") {
            let extra := shr(160, ownership)
            let m := mload(0x40)
            mstore(m, and(ownership, 0xffffffffffffffffffffffffffffffffffffffff))
            mstore(add(m, 0x20), creator)
            mstore(add(m, 0x40), and(shr(royaltyShift, extra), 0xffff))
            mstore(add(m, 0x60), and(shr(transfersShift, extra), transfersMask))
            mstore(add(m, 0x80), iszero(and(extra, primarySold)))
            mstore(add(m, 0xa0), and(shr(countShift, extra), 7))
            return(m, 0xc0)
        }
    }

    // ---------------------------------------------------------------- ERC-721 without ETH

    /// @inheritdoc ERC721
    /// @dev Every transfer, `safeTransferFrom` included (Solady's calls this one), is counted by `_moveToken`.
    function transferFrom(address from, address to, uint256 id) public payable override {
        if (msg.value != 0) revert EthNotAccepted();
        _transfer(msg.sender, from, to, id);
    }

    /// @inheritdoc ERC721
    function safeTransferFrom(address from, address to, uint256 id) public payable override {
        if (msg.value != 0) revert EthNotAccepted();
        super.safeTransferFrom(from, to, id);
    }

    /// @inheritdoc ERC721
    function safeTransferFrom(address from, address to, uint256 id, bytes calldata data) public payable override {
        if (msg.value != 0) revert EthNotAccepted();
        super.safeTransferFrom(from, to, id, data);
    }

    /// @inheritdoc ERC721
    /// @dev A token in an auction takes no approval: only the auction's end moves or frees it.
    function approve(address account, uint256 id) public payable override {
        if (msg.value != 0) revert EthNotAccepted();
        if (_getExtraData(id) & _LOCKED != 0) revert TokenInAuction(address(this), id);
        super.approve(account, id);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc ERC721
    function name() public view override returns (string memory) {
        (uint256 names, uint256 nameLength,) = _readNames();
        return _slice(names, 0, nameLength);
    }

    /// @inheritdoc ERC721
    function symbol() public view override returns (string memory) {
        (uint256 names, uint256 nameLength, uint256 symbolLength) = _readNames();
        return _slice(names, nameLength, symbolLength);
    }

    /// @notice The collection owner (its creator). Ownership of a collection cannot be transferred.
    function owner() public view returns (address) {
        return _state.owner;
    }

    /// @notice The collection kind, its maximum supply (0 = unlimited), the number of tokens minted (standard and
    /// default collections; 0 in lazy ones, whose ids are 1..maxSupply) and the current lazy-voucher nonce.
    function collectionInfo()
        external
        view
        returns (CollectionKind kind, uint256 maxSupply, uint256 minted, uint256 voucherNonce)
    {
        State memory s = _state;
        return s.kind == CollectionKind.Lazy
            ? (s.kind, uint256(s.supply), uint256(0), uint256(s.voucherNonce))
            : (s.kind, uint256(0), uint256(s.supply), uint256(s.voucherNonce));
    }

    /// @notice Whether the market's operator blocked this collection (no mints, no sales).
    function isBlocked() external view returns (bool) {
        return _state.blocked;
    }

    /// @notice `ipfs://<CIDv1 base32>` of the token's metadata.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        if (!_exists(tokenId)) revert TokenDoesNotExist();
        return EaselCid.toUri(_cidDigest[tokenId], _getExtraData(tokenId) & _DAG_PB != 0);
    }

    /// @notice The binary CIDv1 of the token's metadata.
    function tokenCid(uint256 tokenId) external view returns (bytes memory) {
        if (!_exists(tokenId)) revert TokenDoesNotExist();
        return EaselCid.toBytes(_cidDigest[tokenId], _getExtraData(tokenId) & _DAG_PB != 0);
    }

    /// @notice Whether `tokenId` was ever minted here (burned tokens included).
    function isRegistered(uint256 tokenId) external view returns (bool) {
        return _getExtraData(tokenId) & _REGISTERED != 0;
    }

    /// @notice The artist who created the token: the minter in the default collection, else the owner.
    function creatorOf(uint256 tokenId) public view returns (address) {
        if (_getExtraData(tokenId) & _REGISTERED == 0) revert TokenDoesNotExist();
        return _state.kind == CollectionKind.Default ? _tokenCreator[tokenId] : _state.owner;
    }

    /// @notice The token's earnings recipients and their shares in percent (summing to 100).
    function collaboratorsOf(uint256 tokenId) external view returns (address[] memory, uint256[] memory) {
        return _recipients(tokenId, creatorOf(tokenId));
    }

    /// @notice ERC-2981. The royalty goes to the creator, or, for a split token, to its royalty splitter: a
    /// clone at an address fixed by the split (created by anyone through the factory, before or after royalties
    /// arrive) that divides what it receives among the collaborators by their shares. Easel's own market pays
    /// the collaborators directly.
    function royaltyInfo(uint256 tokenId, uint256 salePrice) external view returns (address receiver, uint256 amount) {
        uint96 extra = _getExtraData(tokenId);
        address creator = creatorOf(tokenId);
        amount = (salePrice * ((extra >> _ROYALTY_SHIFT) & 0xffff)) / 10_000;
        receiver = (extra >> _COUNT_SHIFT) & 7 == 0 ? creator : royaltySplitterOf(tokenId);
    }

    /// @notice The address of the royalty splitter for a token's split (whether or not it was created yet).
    function royaltySplitterOf(uint256 tokenId) public view returns (address) {
        (address[] memory recipients, uint256[] memory shares) = _recipients(tokenId, creatorOf(tokenId));
        return EaselSplitterClone.predict(royaltySplitterImplementation, abi.encode(recipients, shares), factory);
    }

    /// @notice A token's state as the market's views read it, in one call.
    function saleInfo(uint256 tokenId) external view returns (SaleInfo memory info) {
        info.owner = ownerOf(tokenId);
        info.creator = creatorOf(tokenId);
        uint96 extra = _getExtraData(tokenId);
        info.royaltyBps = (extra >> _ROYALTY_SHIFT) & 0xffff;
        info.transferCount = (extra >> _TRANSFERS_SHIFT) & _TRANSFERS_MASK;
        info.primarySold = extra & _PRIMARY_SOLD != 0;
        (info.recipients, info.shares) = _recipients(tokenId, info.creator);
    }

    /// @notice The token's owner, whether `operator` may transfer it (approved for the token or for all of the
    /// owner's tokens) and how many times it changed hands: what the market checks before a listing.
    function listingCheck(uint256 tokenId, address operator)
        external
        view
        returns (address tokenOwner, bool operatorApproved, uint256 transferCount)
    {
        // The owner and the count share the ownership slot: one read.
        uint256 ownership = _ownershipPacked(tokenId);
        tokenOwner = address(uint160(ownership));
        if (tokenOwner == address(0)) revert TokenDoesNotExist();
        if (ownership & (uint256(_LOCKED) << 160) != 0) revert TokenInAuction(address(this), tokenId);
        // Approval for all first: the usual marketplace approval, so the common path reads one slot.
        operatorApproved = isApprovedForAll(tokenOwner, operator) || getApproved(tokenId) == operator;
        transferCount = (ownership >> (160 + _TRANSFERS_SHIFT)) & _TRANSFERS_MASK;
    }

    /// @notice How many times the token changed hands since its mint.
    function transferCountOf(uint256 tokenId) external view returns (uint256) {
        if (!_exists(tokenId)) revert TokenDoesNotExist();
        return (_getExtraData(tokenId) >> _TRANSFERS_SHIFT) & _TRANSFERS_MASK;
    }

    /// @notice ERC-165: ERC-721, ERC-721 metadata and ERC-2981.
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return interfaceId == 0x2a55205a || super.supportsInterface(interfaceId);
    }

    // ---------------------------------------------------------------- internals

    /// @dev The state slot as one word (`State`: owner bits 0-159, kind 160-167, supply 168-199, voucher nonce
    /// 200-247, blocked 248-255), read without unpacking the struct into memory.
    function _stateWord() private view returns (uint256 state) {
        assembly ("memory-safe") {
            state := sload(_state.slot)
        }
    }

    /// @dev The name and the symbol share one slot (`_names`): seen as 32 bytes, bytes 0-29 are the first 30
    /// bytes of `name ‖ symbol`, byte 30 the name's length, byte 31 the symbol's. The rest of `name ‖ symbol` (at
    /// most 28 bytes: the factory allows 50 + 8) goes to `_namesTail`, written only when there is a rest. One
    /// `SSTORE` at creation for the usual name instead of one per string. Called once, by `initialize`.
    function _setNames(string calldata name_, string calldata symbol_) private {
        uint256 nameLength = bytes(name_).length;
        uint256 symbolLength = bytes(symbol_).length;
        // The factory bounds the name to 50 bytes and the symbol to 8.
        assert(nameLength <= 50 && symbolLength <= 8);
        bytes32 head;
        bytes32 tail;
        assembly ("memory-safe") {
            let m := mload(0x40)
            // Zeroed first, so that nothing past the symbol is kept.
            mstore(m, 0)
            mstore(add(m, 0x20), 0)
            calldatacopy(m, name_.offset, nameLength)
            calldatacopy(add(m, nameLength), symbol_.offset, symbolLength)
            head := or(and(mload(m), not(0xffff)), or(shl(8, nameLength), symbolLength))
            tail := mload(add(m, 30))
        }
        _names = head;
        if (nameLength + symbolLength > 30) _namesTail = tail;
    }

    /// @dev `name ‖ symbol` as it is stored (see `_setNames`), in memory, and the two lengths.
    function _readNames() private view returns (uint256 names, uint256 nameLength, uint256 symbolLength) {
        uint256 head = uint256(_names);
        nameLength = (head >> 8) & 0xff;
        symbolLength = head & 0xff;
        bytes32 tail = nameLength + symbolLength > 30 ? _namesTail : bytes32(0);
        assembly ("memory-safe") {
            names := mload(0x40)
            mstore(0x40, add(names, 0x40))
            mstore(names, and(head, not(0xffff)))
            mstore(add(names, 30), tail)
        }
    }

    /// @dev `length` bytes from `offset` of the stored names, as a string.
    function _slice(uint256 names, uint256 offset, uint256 length) private pure returns (string memory out) {
        out = new string(length);
        assembly ("memory-safe") {
            mcopy(add(out, 0x20), add(names, offset), length)
        }
    }

    /// @dev `kind` and `supply` as in the state word (`supply` is read for lazy collections only: standard and
    /// default ones count their mints in `mintNFT`).
    function _mintToken(
        uint256 kind,
        uint256 supply,
        address creator,
        address to,
        uint16 royaltyBps,
        bytes calldata cid,
        uint256 tokenId,
        Collaborator[] calldata collaborators,
        uint96 flags
    ) private {
        if (royaltyBps > MAX_ROYALTY_BPS) revert RoyaltyTooHigh(royaltyBps, MAX_ROYALTY_BPS);
        (bytes32 digest, bool dagPb) = EaselCid.parse(cid);
        // Zero for a fresh id, or `_BLOCKED` alone for an id the operator blocked before its mint.
        uint96 previous = _getExtraData(tokenId);
        if (previous != 0) {
            if (previous != _BLOCKED) revert RecordAlreadyRegistered(tokenId);
            if (kind == uint8(CollectionKind.Lazy)) revert TokenIsBlocked(address(this), tokenId);
        }
        // Ids 1..maxSupply, each minted once (checked above): the cap needs no counter, and a lazy mint saves the
        // State write (about 3,000 gas).
        if (kind == uint8(CollectionKind.Lazy) && (tokenId == 0 || tokenId > supply)) {
            revert TokenIdOutOfRange(tokenId, supply);
        }
        uint96 extra = previous | _REGISTERED | flags | (dagPb ? _DAG_PB : 0)
            | uint96(uint256(royaltyBps) << _ROYALTY_SHIFT) | _storeCollaborators(tokenId, creator, collaborators);
        _cidDigest[tokenId] = digest;
        if (kind == uint8(CollectionKind.Default)) _tokenCreator[tokenId] = creator;
        _mintAndSetExtraDataUnchecked(to, tokenId, extra);
    }

    /// @dev Validates the split and stores collaborators 1..n-1; returns the count and shares to pack.
    function _storeCollaborators(uint256 tokenId, address creator, Collaborator[] calldata c)
        private
        returns (uint96 packed)
    {
        uint256 n = c.length;
        if (n == 0) return 0;
        if (n > MAX_COLLABORATORS) revert InvalidCollaboratorCount(n);
        if (c[0].account != creator) revert FirstCollaboratorNotCreator(c[0].account, creator);
        uint256 total;
        for (uint256 i; i < n; ++i) {
            address account = c[i].account;
            uint256 share = c[i].share;
            if (share == 0 || share % 5 != 0) revert InvalidShare(i, share);
            if (account == address(0)) revert ZeroAddress();
            for (uint256 j; j < i; ++j) {
                if (c[j].account == account) revert DuplicateCollaborator(account);
            }
            total += share;
            if (i != 0) _collaborator[tokenId][i] = account;
            packed |= uint96(share << (_SHARES_SHIFT + 7 * i));
        }
        if (total != 100) revert SharesNotHundred(total);
        // A single recipient is the creator with 100%: nothing needs storing.
        if (n == 1) return 0;
        packed |= uint96(n << _COUNT_SHIFT);
    }

    function _recipients(uint256 tokenId, address creator)
        private
        view
        returns (address[] memory recipients, uint256[] memory shares)
    {
        uint96 extra = _getExtraData(tokenId);
        uint256 n = (extra >> _COUNT_SHIFT) & 7;
        if (n == 0) {
            recipients = new address[](1);
            shares = new uint256[](1);
            recipients[0] = creator;
            shares[0] = 100;
            return (recipients, shares);
        }
        recipients = new address[](n);
        shares = new uint256[](n);
        recipients[0] = creator;
        shares[0] = (extra >> _SHARES_SHIFT) & 0x7f;
        for (uint256 i = 1; i < n; ++i) {
            recipients[i] = _collaborator[tokenId][i];
            shares[i] = (extra >> (_SHARES_SHIFT + 7 * i)) & 0x7f;
        }
    }

    /// @dev Solady's, and the ownership slot's `_APPROVED` bit says whether an approved address is set: a transfer
    /// of a token without one (every sale under the market's approval for all) skips the approved slot, a cold
    /// read of 2,100 gas. Every approval and every revocation passes here (`approve` and the two-argument form).
    function _approve(address by, address account, uint256 id) internal override {
        super._approve(by, account, id);
        uint96 extra = _getExtraData(id);
        _setExtraData(id, account == address(0) ? extra & ~_APPROVED : extra | _APPROVED);
    }

    /// @dev Solady's `_transfer`, routed through `_moveToken` so that no transfer path escapes the count.
    function _transfer(address by, address from, address to, uint256 id) internal override {
        _checkNotInAuction(_moveToken(by, from, to, id, false), id);
    }

    /// @dev Refuses a move of a token in an auction, from its ownership slot before the move (undone by the revert).
    function _checkNotInAuction(uint256 ownership, uint256 id) private view {
        if (ownership & (uint256(_LOCKED) << 160) != 0) revert TokenInAuction(address(this), id);
    }

    /// @dev The token's ownership slot in Solady's layout: the owner in the low 160 bits, the extra data above.
    function _ownershipPacked(uint256 id) private view returns (uint256 packed) {
        /// @solidity memory-safe-assembly
        assembly {
            mstore(0x00, id)
            mstore(0x1c, _ERC721_MASTER_SLOT_SEED)
            packed := sload(add(id, add(id, keccak256(0x00, 0x20))))
        }
    }

    /// @dev Every transfer of a token: Solady's `transferFrom`/`_transfer` (the same slots, checks, errors and
    /// event, `by` zero meaning no approval check), with the token's transfer count, and for a sale its
    /// primary-sale bit, added to the extra data in the same write of the ownership slot: one `SSTORE` there
    /// instead of one per field. Mints and burns do not pass here (they need no count); this collection uses
    /// neither `_beforeTokenTransfer` nor `_afterTokenTransfer`. The count has 36 bits (6.9 x 10^10): it cannot
    /// overflow into the lock bit. The transfer clears the approved address and its bit.
    /// Returns the ownership slot as it was (owner and extra data). `sale`: from whoever owns the token (`from`
    /// ignored), marking the primary sale done; otherwise `from` must be the owner. Every move lifts an auction's
    /// lock: callers refuse a token in an auction (every move but its settlement) from the slot returned.
    function _moveToken(address by, address from, address to, uint256 id, bool sale)
        private
        returns (uint256 ownershipPacked)
    {
        uint256 added = 1 << (160 + _TRANSFERS_SHIFT);
        uint256 primarySold = sale ? uint256(_PRIMARY_SOLD) << 160 : 0;
        uint256 approvedBit = uint256(_APPROVED) << 160;
        uint256 lockedBit = uint256(_LOCKED) << 160;
        /// @solidity memory-safe-assembly
        assembly {
            let bitmaskAddress := shr(96, not(0))
            from := and(bitmaskAddress, from)
            to := and(bitmaskAddress, to)
            by := and(bitmaskAddress, by)
            mstore(0x00, id)
            mstore(0x1c, or(_ERC721_MASTER_SLOT_SEED, by))
            let ownershipSlot := add(id, add(id, keccak256(0x00, 0x20)))
            ownershipPacked := sload(ownershipSlot)
            let holder := and(bitmaskAddress, ownershipPacked)
            if sale { from := holder }
            if iszero(mul(holder, eq(holder, from))) {
                // `TokenDoesNotExist()`, `TransferFromIncorrectOwner()`.
                mstore(shl(2, iszero(holder)), 0xceea21b6a1148100)
                revert(0x1c, 0x04)
            }
            mstore(0x00, from)
            // The approved-address slot is read only when the token has one (`_APPROVED`, see `_approve`).
            let approvedAddress := 0
            if and(ownershipPacked, approvedBit) { approvedAddress := sload(add(1, ownershipSlot)) }
            if iszero(or(iszero(by), or(eq(by, from), eq(by, approvedAddress)))) {
                if iszero(sload(keccak256(0x0c, 0x30))) {
                    mstore(0x00, 0x4b6e7f18) // `NotOwnerNorApproved()`.
                    revert(0x1c, 0x04)
                }
            }
            if approvedAddress { sstore(add(1, ownershipSlot), 0) }
            sstore(
                ownershipSlot,
                and(or(add(xor(ownershipPacked, xor(from, to)), added), primarySold), not(or(approvedBit, lockedBit)))
            )
            {
                let fromBalanceSlot := keccak256(0x0c, 0x1c)
                sstore(fromBalanceSlot, sub(sload(fromBalanceSlot), 1))
            }
            {
                mstore(0x00, to)
                let toBalanceSlot := keccak256(0x0c, 0x1c)
                let toBalanceSlotPacked := add(sload(toBalanceSlot), 1)
                if iszero(mul(to, and(toBalanceSlotPacked, _MAX_ACCOUNT_BALANCE))) {
                    // `TransferToZeroAddress()`, `AccountBalanceOverflow()`.
                    mstore(shl(2, iszero(to)), 0xea553b3401336cea)
                    revert(0x1c, 0x04)
                }
                sstore(toBalanceSlot, toBalanceSlotPacked)
            }
            log4(codesize(), 0x00, _TRANSFER_EVENT_SIGNATURE, from, to, id)
        }
    }

    function _hashLazyMint(LazyMintVoucher calldata v) private view returns (bytes32) {
        uint256 n = v.collaborators.length;
        bytes32[] memory hashes = new bytes32[](n);
        for (uint256 i; i < n; ++i) {
            hashes[i] = keccak256(abi.encode(COLLABORATOR_TYPEHASH, v.collaborators[i].account, v.collaborators[i].share));
        }
        return keccak256(
            abi.encode(
                LAZY_MINT_TYPEHASH,
                v.tokenId,
                v.price,
                msg.sender,
                v.royaltyBps,
                address(this),
                keccak256(v.cid),
                keccak256(abi.encodePacked(hashes)),
                v.nonce,
                v.deadline
            )
        );
    }

    function _domainNameAndVersion() internal pure override returns (string memory, string memory) {
        return ("Easel Collection", "1");
    }
}
