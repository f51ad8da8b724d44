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
/// @dev The signed struct also names the buyer and the collection; they are not passed, because the
/// collection hashes `msg.sender` and `address(this)` in their place, so a voucher works only for its buyer,
/// here. `nonce` must equal the collection's voucher nonce: bumping it (`revokeVouchers`) voids every
/// voucher signed before.
struct LazyMintVoucher {
    /// The Easel NFT record id; it becomes the token id and can be used once.
    uint256 tokenId;
    uint256 price;
    uint16 royaltyBps;
    bytes cid;
    Collaborator[] collaborators;
    uint48 nonce;
    uint256 deadline;
    bytes signature;
}

/// @notice A voucher signed by the platform signer (EIP-712, domain "Easel Factory" / "1", verifying
/// contract = the factory) that lets `owner` create one lazy collection.
struct LazyCollectionVoucher {
    address owner;
    uint32 maxSupply;
    string name;
    string symbol;
    string category;
    uint256 deadline;
    bytes signature;
}

/// @notice What a collection reports to the market when it moves a token for a sale (`deliverPurchase`). Fixed
/// size, so the common single-creator sale decodes no arrays; a split's recipients are read only when
/// `splitCount` > 1 (`collaboratorsOf`).
struct SaleTerms {
    /// The owner the token was taken from.
    address seller;
    address creator;
    uint256 royaltyBps;
    /// How many times the token had changed hands before this sale (mint = 0); a listing is valid only
    /// for the count it was set at.
    uint256 transferCount;
    /// True when this is the token's first sale through the market: the primary sale.
    bool primary;
    /// How many collaborators share the earnings (0 or 1: the creator alone).
    uint256 splitCount;
}

/// @notice A token's state as the market reads it in views (`saleInfo`).
struct SaleInfo {
    address owner;
    address creator;
    uint256 royaltyBps;
    uint256 transferCount;
    /// Whether the token's primary sale already happened (a market sale or its lazy mint).
    bool primarySold;
    address[] recipients;
    uint256[] shares;
}
