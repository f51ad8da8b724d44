// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {EIP712} from "solady/src/utils/EIP712.sol";
import {ECDSA} from "solady/src/utils/ECDSA.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {EaselSplitterClone} from "./libraries/EaselSplitterClone.sol";
import {EaselCollection} from "./EaselCollection.sol";
import {IEaselMarket} from "./interfaces/IEaselMarket.sol";
import {CollectionKind, LazyCollectionVoucher} from "./interfaces/IEaselTypes.sol";

/// @title EaselFactory
/// @notice Creates Easel collections as EIP-1167 minimal clones (the standard 45-byte proxy that explorers and
/// indexers recognise) of one EaselCollection implementation: standard collections for anyone, lazy collections
/// with a voucher signed by the platform signer, and (once, at construction) the shared default collection. It
/// also creates the royalty splitters of split tokens.
/// @dev Deployed by the market's constructor, so the market, the implementation and the default collection
/// are fixed for the life of the deployment.
contract EaselFactory is EIP712 {
    uint256 public constant MIN_NAME_LENGTH = 3;
    uint256 public constant MAX_NAME_LENGTH = 50;
    uint256 public constant MIN_SYMBOL_LENGTH = 1;
    uint256 public constant MAX_SYMBOL_LENGTH = 8;

    bytes32 public constant LAZY_COLLECTION_TYPEHASH = keccak256(
        "LazyCollectionVoucher(address owner,uint32 maxSupply,string name,string symbol,string category,uint256 deadline)"
    );

    /// @notice The market (roles, platform signer).
    IEaselMarket public immutable market;
    /// @notice The implementation every collection clone delegates to.
    address public immutable collectionImplementation;
    /// @notice The shared collection for items with no category.
    address public immutable defaultCollection;
    /// @notice The implementation every royalty splitter clone delegates to.
    address public immutable royaltySplitterImplementation;

    /// @notice Whether a lower-cased name or symbol (by its keccak256) is reserved.
    mapping(bytes32 word => bool) public isReservedHash;
    /// @notice Whether a lazy-collection voucher (by its EIP-712 digest) was used.
    mapping(bytes32 digest => bool) public isVoucherUsed;

    /// @notice A collection was created. `maxSupply` is 0 for unlimited collections.
    event CollectionCreated(
        address indexed collection,
        address indexed owner,
        CollectionKind indexed kind,
        string name,
        string symbol,
        string category,
        uint256 maxSupply
    );
    /// @notice A name or symbol was reserved or released.
    event ReservedWordSet(string word, bool reserved);
    /// @notice The royalty splitter of a split was created.
    event RoyaltySplitterCreated(address indexed splitter, address[] recipients, uint256[] shares);

    error NameLengthOutOfRange(uint256 length, uint256 min, uint256 max);
    error SymbolLengthOutOfRange(uint256 length, uint256 min, uint256 max);
    error ReservedWord(string word);
    error InvalidSignature();
    error VoucherExpired(uint256 deadline);
    error VoucherAlreadyUsed(bytes32 digest);
    error WrongVoucherOwner(address owner, address caller);
    error InvalidMaxSupply();
    error NotController(address caller);
    error InvalidSplit();

    /// @param defaultOwner Owner of the default collection (the platform admin).
    /// @param splitter The royalty splitter implementation.
    constructor(address defaultOwner, address splitter) {
        if (splitter.code.length == 0) revert InvalidSplit();
        market = IEaselMarket(msg.sender);
        royaltySplitterImplementation = splitter;
        address implementation = address(new EaselCollection(msg.sender, splitter));
        collectionImplementation = implementation;
        address shared = Clones.clone(implementation);
        defaultCollection = shared;
        EaselCollection(shared).initialize(defaultOwner, "Easel", "EASEL", CollectionKind.Default, 0);
        emit CollectionCreated(shared, defaultOwner, CollectionKind.Default, "Easel", "EASEL", "", 0);
        _setReserved("easel", true);
    }

    /// @notice Creates a standard collection owned by the caller, who may mint (`authorizeMint`: the market
    /// open, a verified artist, not banned).
    /// @param name 3 to 50 bytes, not reserved.
    /// @param symbol 1 to 8 bytes, not reserved.
    /// @param category The Easel category id, recorded in the event for the indexer.
    /// @return collection The new collection's address.
    function createCollection(string calldata name, string calldata symbol, string calldata category)
        external
        returns (address collection)
    {
        market.authorizeMint(msg.sender);
        collection = _create(msg.sender, name, symbol, category, CollectionKind.Standard, 0);
    }

    /// @notice Creates a lazy collection owned by the caller, authorized by a voucher from the platform signer.
    /// A voucher is bound to this chain and this factory, expires at `deadline` and works once. The owner must
    /// be allowed to mint (`authorizeMint`), as for `createCollection`.
    function createLazyCollection(LazyCollectionVoucher calldata voucher) external returns (address collection) {
        if (voucher.owner != msg.sender) revert WrongVoucherOwner(voucher.owner, msg.sender);
        market.authorizeMint(msg.sender);
        if (block.timestamp > voucher.deadline) revert VoucherExpired(voucher.deadline);
        if (voucher.maxSupply == 0) revert InvalidMaxSupply();
        bytes32 digest = _hashTypedData(
            keccak256(
                abi.encode(
                    LAZY_COLLECTION_TYPEHASH,
                    voucher.owner,
                    voucher.maxSupply,
                    keccak256(bytes(voucher.name)),
                    keccak256(bytes(voucher.symbol)),
                    keccak256(bytes(voucher.category)),
                    voucher.deadline
                )
            )
        );
        if (isVoucherUsed[digest]) revert VoucherAlreadyUsed(digest);
        address signer = market.signer();
        address recovered = ECDSA.tryRecoverCalldata(digest, voucher.signature);
        if (recovered == address(0) || recovered != signer) revert InvalidSignature();
        isVoucherUsed[digest] = true;
        collection =
            _create(msg.sender, voucher.name, voucher.symbol, voucher.category, CollectionKind.Lazy, voucher.maxSupply);
    }

    /// @notice Reserves or releases a name or symbol (compared case-insensitively). Controller only.
    function setReserved(string calldata word, bool reserved) external {
        if (!market.hasRole(market.CONTROLLER_ROLE(), msg.sender)) revert NotController(msg.sender);
        _setReserved(word, reserved);
    }

    /// @notice Creates the royalty splitter of a split (anyone may call; the address is fixed by the split, and a
    /// collection names it in `royaltyInfo` before it exists). Returns the existing one when already created.
    /// @param recipients 2 to 5 accounts, as `collaboratorsOf` returns them.
    /// @param shares Their shares in percent, summing to 100.
    function createRoyaltySplitter(address[] calldata recipients, uint256[] calldata shares)
        external
        returns (address splitter)
    {
        uint256 n = recipients.length;
        if (n < 2 || n > 5 || shares.length != n) revert InvalidSplit();
        uint256 total;
        for (uint256 i; i < n; ++i) {
            total += shares[i];
        }
        if (total != 100) revert InvalidSplit();
        bytes memory args = abi.encode(recipients, shares);
        splitter = EaselSplitterClone.predict(royaltySplitterImplementation, args, address(this));
        if (splitter.code.length == 0) {
            EaselSplitterClone.deploy(royaltySplitterImplementation, args);
            emit RoyaltySplitterCreated(splitter, recipients, shares);
        }
    }

    /// @notice Whether a name or symbol is reserved (case-insensitive).
    function isReserved(string calldata word) public view returns (bool) {
        return isReservedHash[_lowerHash(bytes(word))];
    }

    function _create(
        address owner,
        string calldata name,
        string calldata symbol,
        string calldata category,
        CollectionKind kind,
        uint32 maxSupply
    ) private returns (address collection) {
        uint256 n = bytes(name).length;
        if (n < MIN_NAME_LENGTH || n > MAX_NAME_LENGTH) revert NameLengthOutOfRange(n, MIN_NAME_LENGTH, MAX_NAME_LENGTH);
        n = bytes(symbol).length;
        if (n < MIN_SYMBOL_LENGTH || n > MAX_SYMBOL_LENGTH) {
            revert SymbolLengthOutOfRange(n, MIN_SYMBOL_LENGTH, MAX_SYMBOL_LENGTH);
        }
        if (isReserved(name)) revert ReservedWord(name);
        if (isReserved(symbol)) revert ReservedWord(symbol);
        collection = Clones.clone(collectionImplementation);
        EaselCollection(collection).initialize(owner, name, symbol, kind, maxSupply);
        emit CollectionCreated(collection, owner, kind, name, symbol, category, maxSupply);
    }

    function _setReserved(string memory word, bool reserved) private {
        isReservedHash[_lowerHash(bytes(word))] = reserved;
        emit ReservedWordSet(word, reserved);
    }

    /// @dev keccak256 of the ASCII-lower-cased bytes: 32 bytes at a time, each byte 0x41-0x5a ('A'-'Z') gets its
    /// 0x20 bit, every other byte (0x80-0xff included) is kept. Per byte `b` with `x = b & 0x7f`: `x + 0x3f` has its
    /// high bit set iff `x >= 0x41`, `x + 0x25` iff `x >= 0x5b` (neither carries into the next byte, `x` being
    /// at most 0x7f); with `b`'s own high bit clear, that bit shifted right by 2 is the 0x20 to add.
    function _lowerHash(bytes memory word) private pure returns (bytes32 hash) {
        assembly ("memory-safe") {
            let n := mload(word)
            let m := mload(0x40)
            let high := 0x8080808080808080808080808080808080808080808080808080808080808080
            for { let i := 0 } lt(i, n) { i := add(i, 0x20) } {
                let w := mload(add(add(word, 0x20), i))
                let x := and(w, not(high))
                let upper := and(
                    and(add(x, 0x3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f3f), not(w)),
                    and(not(add(x, 0x2525252525252525252525252525252525252525252525252525252525252525)), high)
                )
                mstore(add(m, i), or(w, shr(2, upper)))
            }
            hash := keccak256(m, n)
        }
    }

    function _domainNameAndVersion() internal pure override returns (string memory, string memory) {
        return ("Easel Factory", "1");
    }
}
