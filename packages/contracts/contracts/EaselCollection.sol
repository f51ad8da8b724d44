// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

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
/// @dev Token ids are chosen by the minter: Easel uses its NFT record id, so a page URL stays the same before
/// and after a lazy mint. An id can be used once, even after a burn ("NFT record already registered").
/// Per token, the ownership slot's 96 spare bits hold: bit 0 registered, bit 1 dag-pb codec, bits 2-17 royalty
/// in basis points, bits 18-20 collaborator count (0 = the creator alone), bits 21-55 five 7-bit shares,
/// bits 56-95 the time of the last transfer (the market uses it to ignore listings set before a transfer).
contract EaselCollection is ERC721, EIP712, EaselPayments {
    /// @notice Highest royalty: 20%.
    uint256 public constant MAX_ROYALTY_BPS = 2_000;
    /// @notice Most recipients of one token's earnings.
    uint256 public constant MAX_COLLABORATORS = 5;
    /// @notice Highest lazy-mint price (about 1.2 million ETH), the same bound as the market's.
    uint256 public constant MAX_PRICE = type(uint80).max;

    bytes32 public constant COLLABORATOR_TYPEHASH = keccak256("Collaborator(address account,uint8 share)");
    bytes32 public constant LAZY_MINT_TYPEHASH = keccak256(
        "LazyMintVoucher(uint256 price,address buyer,uint16 royaltyBps,address collection,bytes cid,uint256 tokenId,Collaborator[] collaborators,uint256 deadline)Collaborator(address account,uint8 share)"
    );

    uint96 private constant _REGISTERED = 1;
    uint96 private constant _DAG_PB = 2;
    uint256 private constant _ROYALTY_SHIFT = 2;
    uint256 private constant _COUNT_SHIFT = 18;
    uint256 private constant _SHARES_SHIFT = 21;
    uint256 private constant _TIME_SHIFT = 56;
    uint96 private constant _TIME_CLEAR_MASK = (uint96(1) << 56) - 1;

    /// @notice The market: artist registry, platform signer and fee settings.
    IEaselMarket public immutable market;
    /// @notice The factory, the only account that may initialize a clone.
    address public immutable factory;

    struct State {
        address owner;
        CollectionKind kind;
        uint40 maxSupply;
        uint40 minted;
    }

    State private _state;
    string private _name;
    string private _symbol;
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
    /// @notice A token was minted at purchase: `price` paid, of which `fee` to the platform and `proceeds` to
    /// the collaborators.
    event LazyMinted(uint256 indexed tokenId, address indexed buyer, uint256 price, uint256 fee, uint256 proceeds);
    /// @notice Platform fees from lazy mints were sent to the market.
    event FeesSwept(uint256 amount);

    error NotFactory(address caller);
    error AlreadyInitialized();
    error NotCollectionOwner(address caller, address owner);
    error NotVerifiedArtist(address account);
    error RoyaltyTooHigh(uint256 royaltyBps, uint256 maxRoyaltyBps);
    error RecordAlreadyRegistered(uint256 tokenId);
    error MaxSupplyReached(uint256 maxSupply);
    error InvalidCollaboratorCount(uint256 count);
    error InvalidShare(uint256 index, uint256 share);
    error SharesNotHundred(uint256 total);
    error DuplicateCollaborator(address account);
    error FirstCollaboratorNotCreator(address account, address creator);
    error NotLazyCollection();
    error WrongCollection(address collection);
    error VoucherExpired(uint256 deadline);
    error WrongBuyer(address buyer, address caller);
    error BuyerIsCollectionOwner(address buyer);
    error PriceTooHigh(uint256 price, uint256 maxPrice);
    error IncorrectPayment(uint256 required, uint256 sent);
    error InvalidSignature();

    /// @param market_ The Easel market.
    constructor(address market_) {
        market = IEaselMarket(market_);
        factory = msg.sender;
    }

    /// @notice Sets up a fresh clone. Called once, by the factory, in the transaction that creates the clone.
    function initialize(address owner_, string calldata name_, string calldata symbol_, CollectionKind kind, uint40 maxSupply)
        external
    {
        if (msg.sender != factory) revert NotFactory(msg.sender);
        if (_state.kind != CollectionKind.None) revert AlreadyInitialized();
        _state = State({owner: owner_, kind: kind, maxSupply: maxSupply, minted: 0});
        _name = name_;
        _symbol = symbol_;
    }

    // ---------------------------------------------------------------- minting

    /// @notice Mints token `tokenId` to the caller, who must be a verified artist and, except in the default
    /// collection, the collection owner.
    /// @param royaltyBps Royalty on secondary sales in basis points (0 to 2000).
    /// @param cid The binary IPFS CIDv1 of the token metadata (raw or dag-pb, sha2-256).
    /// @param tokenId The Easel NFT record id; usable once.
    /// @param collaborators The earnings split (1 to 5 entries, first = the caller), or empty for the caller alone.
    function mintNFT(uint16 royaltyBps, bytes calldata cid, uint256 tokenId, Collaborator[] calldata collaborators)
        external
        returns (uint256)
    {
        State memory s = _state;
        if (s.kind != CollectionKind.Default && msg.sender != s.owner) revert NotCollectionOwner(msg.sender, s.owner);
        if (!market.isVerifiedArtist(msg.sender)) revert NotVerifiedArtist(msg.sender);
        _mintToken(s, msg.sender, msg.sender, royaltyBps, cid, tokenId, collaborators);
        return tokenId;
    }

    /// @notice Mints a token of a lazy collection to the buyer named in a voucher signed by the platform signer,
    /// paying exactly `voucher.price`, split like a primary sale (platform fee, then the collaborators).
    /// @dev Exact payment: the wallet sends the voucher's price, so a refund path (and its failure mode) is not
    /// needed; any other amount reverts with IncorrectPayment.
    function lazyMint(LazyMintVoucher calldata voucher) external payable nonReentrant returns (uint256) {
        State memory s = _state;
        if (s.kind != CollectionKind.Lazy) revert NotLazyCollection();
        if (voucher.collection != address(this)) revert WrongCollection(voucher.collection);
        if (block.timestamp > voucher.deadline) revert VoucherExpired(voucher.deadline);
        if (msg.sender != voucher.buyer) revert WrongBuyer(voucher.buyer, msg.sender);
        if (voucher.buyer == s.owner) revert BuyerIsCollectionOwner(voucher.buyer);
        uint256 price = voucher.price;
        if (price > MAX_PRICE) revert PriceTooHigh(price, MAX_PRICE);
        if (msg.value != price) revert IncorrectPayment(price, msg.value);
        (address signer, uint16 feeBps) = market.lazyMintConfig();
        address recovered = ECDSA.tryRecoverCalldata(_hashTypedData(_hashLazyMint(voucher)), voucher.signature);
        if (recovered == address(0) || recovered != signer) revert InvalidSignature();
        uint256 tokenId = voucher.tokenId;
        _mintToken(s, s.owner, voucher.buyer, voucher.royaltyBps, voucher.cid, tokenId, voucher.collaborators);

        // The fee stays here until sweepFees; proceeds are pushed now.
        uint256 fee = (price * feeBps) / 10_000;
        uint256 proceeds = price - fee;
        emit LazyMinted(tokenId, voucher.buyer, price, fee, proceeds);
        (address[] memory recipients, uint256[] memory shares) = _recipients(tokenId, s.owner);
        _sendSplit(recipients, shares, proceeds);
        return tokenId;
    }

    /// @notice Sends the platform fees collected by lazy mints to the market. Anyone may call.
    function sweepFees() external nonReentrant {
        uint256 amount = address(this).balance - totalCredits();
        emit FeesSwept(amount);
        SafeTransferLib.safeTransferETH(address(market), amount);
    }

    /// @notice Burns a token. The caller must own it or be approved for it.
    function burnNFT(uint256 tokenId) external {
        _burn(msg.sender, tokenId);
    }

    // ---------------------------------------------------------------- views

    /// @inheritdoc ERC721
    function name() public view override returns (string memory) {
        return _name;
    }

    /// @inheritdoc ERC721
    function symbol() public view override returns (string memory) {
        return _symbol;
    }

    /// @notice The collection owner (its creator). Ownership of a collection cannot be transferred.
    function owner() public view returns (address) {
        return _state.owner;
    }

    /// @notice The collection kind, its maximum supply (0 = unlimited) and the number of tokens minted.
    function collectionInfo() external view returns (CollectionKind kind, uint256 maxSupply, uint256 minted) {
        State memory s = _state;
        return (s.kind, s.maxSupply, s.minted);
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

    /// @notice ERC-2981: the royalty goes to the creator. Easel's market splits it among the collaborators.
    function royaltyInfo(uint256 tokenId, uint256 salePrice) external view returns (address, uint256) {
        uint256 bps = (_getExtraData(tokenId) >> _ROYALTY_SHIFT) & 0xffff;
        return (creatorOf(tokenId), (salePrice * bps) / 10_000);
    }

    /// @notice Everything a sale needs in one call: owner, creator, royalty, last transfer time and the split.
    function saleInfo(uint256 tokenId) external view returns (SaleInfo memory info) {
        info.owner = ownerOf(tokenId);
        info.creator = creatorOf(tokenId);
        uint96 extra = _getExtraData(tokenId);
        info.royaltyBps = (extra >> _ROYALTY_SHIFT) & 0xffff;
        info.lastTransferAt = extra >> _TIME_SHIFT;
        (info.recipients, info.shares) = _recipients(tokenId, info.creator);
    }

    /// @notice The token's owner and whether `operator` may transfer it (approved for the token or for all of the
    /// owner's tokens): what the market checks before listing, in one call.
    function ownerAndApproval(uint256 tokenId, address operator) external view returns (address tokenOwner, bool approved) {
        tokenOwner = ownerOf(tokenId);
        // Approval for all first: the usual marketplace approval, so the common path reads one slot.
        approved = isApprovedForAll(tokenOwner, operator) || getApproved(tokenId) == operator;
    }

    /// @notice When the token last changed hands (mint included).
    function lastTransferAt(uint256 tokenId) external view returns (uint256) {
        if (!_exists(tokenId)) revert TokenDoesNotExist();
        return _getExtraData(tokenId) >> _TIME_SHIFT;
    }

    /// @notice ERC-165: ERC-721, ERC-721 metadata and ERC-2981.
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return interfaceId == 0x2a55205a || super.supportsInterface(interfaceId);
    }

    // ---------------------------------------------------------------- internals

    function _mintToken(
        State memory s,
        address creator,
        address to,
        uint16 royaltyBps,
        bytes calldata cid,
        uint256 tokenId,
        Collaborator[] calldata collaborators
    ) private {
        if (royaltyBps > MAX_ROYALTY_BPS) revert RoyaltyTooHigh(royaltyBps, MAX_ROYALTY_BPS);
        (bytes32 digest, bool dagPb) = EaselCid.parse(cid);
        if (_getExtraData(tokenId) != 0) revert RecordAlreadyRegistered(tokenId);
        if (s.maxSupply != 0) {
            if (s.minted >= s.maxSupply) revert MaxSupplyReached(s.maxSupply);
            _state.minted = s.minted + 1;
        }
        uint96 extra = _REGISTERED | (dagPb ? _DAG_PB : 0) | uint96(uint256(royaltyBps) << _ROYALTY_SHIFT)
            | _storeCollaborators(tokenId, creator, collaborators) | uint96(block.timestamp << _TIME_SHIFT);
        _cidDigest[tokenId] = digest;
        if (s.kind == CollectionKind.Default) _tokenCreator[tokenId] = creator;
        _mintAndSetExtraDataUnchecked(to, tokenId, extra);
        emit Minted(tokenId, creator, to, cid, royaltyBps, collaborators);
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

    /// @dev Records the transfer time; mints set it directly and burns do not need it.
    function _afterTokenTransfer(address from, address to, uint256 tokenId) internal override {
        if (from != address(0) && to != address(0)) {
            _setExtraData(tokenId, (_getExtraData(tokenId) & _TIME_CLEAR_MASK) | uint96(block.timestamp << _TIME_SHIFT));
        }
    }

    function _hashLazyMint(LazyMintVoucher calldata v) private pure returns (bytes32) {
        uint256 n = v.collaborators.length;
        bytes32[] memory hashes = new bytes32[](n);
        for (uint256 i; i < n; ++i) {
            hashes[i] = keccak256(abi.encode(COLLABORATOR_TYPEHASH, v.collaborators[i].account, v.collaborators[i].share));
        }
        return keccak256(
            abi.encode(
                LAZY_MINT_TYPEHASH,
                v.price,
                v.buyer,
                v.royaltyBps,
                v.collection,
                keccak256(v.cid),
                v.tokenId,
                keccak256(abi.encodePacked(hashes)),
                v.deadline
            )
        );
    }

    function _domainNameAndVersion() internal pure override returns (string memory, string memory) {
        return ("Easel Collection", "1");
    }
}
