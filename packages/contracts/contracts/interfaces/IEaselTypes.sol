// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice One recipient of a token's earnings and its share in whole percent (a nonzero multiple of 5).
struct Collaborator {
    address account;
    uint8 share;
}

/// @notice What kind of collection a clone is. The kind never changes after initialization.
enum CollectionKind {
    None,
    /// Owned by one creator; only that creator mints, and must be a verified artist.
    Standard,
    /// Tokens are minted at purchase with a voucher signed by the platform signer; has a maximum supply.
    Lazy,
    /// The shared collection for items with no category: any verified artist mints.
    Default
}

/// @notice A voucher signed by the platform signer (EIP-712, domain "Easel Collection" / "1", verifying
/// contract = the lazy collection) that lets exactly one buyer mint one token by paying `price`.
struct LazyMintVoucher {
    uint256 price;
    address buyer;
    uint16 royaltyBps;
    address collection;
    bytes cid;
    /// The Easel NFT record id; it becomes the token id and can be used once.
    uint256 tokenId;
    Collaborator[] collaborators;
    uint256 deadline;
    bytes signature;
}

/// @notice A voucher signed by the platform signer (EIP-712, domain "Easel Factory" / "1", verifying
/// contract = the factory) that lets `owner` create one lazy collection.
struct LazyCollectionVoucher {
    address owner;
    uint40 maxSupply;
    string name;
    string symbol;
    string category;
    uint256 deadline;
    bytes signature;
}

/// @notice What a sale reads from a collection in one call.
struct SaleInfo {
    address owner;
    address creator;
    uint256 royaltyBps;
    /// When the token last changed hands; listings set before it are void.
    uint256 lastTransferAt;
    address[] recipients;
    uint256[] shares;
}
