// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {MarketCore} from "./market/MarketCore.sol";
import {Carts} from "./market/Carts.sol";
import {Auctions} from "./market/Auctions.sol";
import {Offers} from "./market/Offers.sol";
import {CollectionOffers} from "./market/CollectionOffers.sol";
import {EaselFactory} from "./EaselFactory.sol";

/// @title EaselMarket
/// @notice The Easel market for tokens of Easel collections: fixed-price sell orders, standard and reserve
/// auctions and offers (one mixin each, each standing on `MarketCore` alone), with platform fees, royalties and
/// earnings splits, push payments with a withdraw fallback, and the checks collections call during a mint.
/// Everything else (roles, settings, moderation, fee and credit withdrawals, token rescue, auction cancellation,
/// a standard auction's price change and the views) is `EaselMarketAdmin`'s code, run by this contract's
/// `fallback` with `delegatecall` on this contract's storage: callers use one address and one ABI
/// (`easelMarketAbi`, the union of both).
/// It creates the collection factory (and through it the collection implementation and the default collection)
/// in its constructor.
/// @dev Why two contracts: with `viaIR`, the dispatcher compares the selector with every smaller one in turn
/// (22 gas each). Keeping here only the trades and what collections and the factory call in a transaction puts
/// every trade within 13 comparisons instead of up to 54.
contract EaselMarket is Carts, Auctions, Offers, CollectionOffers {
    /// @dev Runtime code hash shared by every Easel collection (an EIP-1167 clone of one implementation).
    bytes32 private immutable _collectionCodeHash;
    /// @dev The EIP-712 domain separator of signed listings, and the chain it was computed for.
    bytes32 private immutable _cachedDomainSeparator;
    uint256 private immutable _cachedChainId;
    /// @dev The `EaselMarketAdmin` whose code `fallback` runs.
    address private immutable _adminCode;

    /// @notice The market's administration code is not a contract (a `delegatecall` to an account without code
    /// would succeed and do nothing).
    error AdminCodeMissing(address adminCode);

    /// @param admin Receives the admin, controller and operator roles and owns the default collection.
    /// @param signer_ The platform voucher signer.
    /// @param royaltySplitterImplementation What split tokens' royalty splitters are clones of (deployed first, on
    /// its own: its code would push the market's creation code past the 48 KB limit).
    /// @param adminCode An `EaselMarketAdmin`, deployed first for the same reason.
    constructor(address admin, address signer_, address royaltySplitterImplementation, address adminCode) {
        if (admin == address(0) || signer_ == address(0)) revert ZeroAddress();
        if (adminCode.code.length == 0) revert AdminCodeMissing(adminCode);
        _adminCode = adminCode;
        _grantRole(ADMIN_ROLE_ID, admin);
        _grantRole(CONTROLLER_ROLE_ID, admin);
        _grantRole(OPERATOR_ROLE_ID, admin);
        if (msg.sender != admin) {
            // The deployer keeps these roles only for setup; the deploy script renounces them.
            _grantRole(CONTROLLER_ROLE_ID, msg.sender);
            _grantRole(OPERATOR_ROLE_ID, msg.sender);
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
        // The market's first contract creation (nonce 1): `EaselMarketAdmin.factory()` derives its address from
        // the market's, so nothing may be created before it.
        EaselFactory f = new EaselFactory(admin, royaltySplitterImplementation);
        // Every collection is an EIP-1167 clone of the same implementation, so all share the default
        // collection's code hash.
        _collectionCodeHash = f.defaultCollection().codehash;
        _cachedDomainSeparator = super._domainSeparator();
        _cachedChainId = block.chainid;
    }

    /// @notice Platform fees from lazy mints (swept by the collections) and any ETH sent here directly.
    receive() external payable {
        _config.fees += uint88(msg.value);
    }

    /// @notice Runs every other function (`EaselMarketAdmin`'s) on this contract's storage: its return data or
    /// its revert (custom errors included) is passed through as is. A selector neither contract has reverts.
    fallback() external payable {
        address target = _adminCode;
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, 0, calldatasize())
            let ok := delegatecall(gas(), target, m, calldatasize(), codesize(), 0x00)
            returndatacopy(m, 0, returndatasize())
            if iszero(ok) { revert(m, returndatasize()) }
            return(m, returndatasize())
        }
    }

    // ---------------------------------------------------------------- read by collections and the factory

    /// @notice The platform voucher signer.
    function signer() external view returns (address) {
        return _lazyConfig.signer;
    }

    /// @notice Reverts unless `minter` may mint now (market open, verified artist, not banned). The collection
    /// checks its own block (`EaselCollection.isBlocked`, kept by `setCollectionBlocked`).
    function authorizeMint(address minter) external view {
        if (_config.locked) revert MarketIsLocked();
        uint256 flags = _accounts[minter];
        if (flags & BANNED != 0) revert UserIsBanned(minter);
        if (flags & VERIFIED == 0) revert NotVerifiedArtist(minter);
    }

    /// @notice Reverts unless `buyer` may buy a lazy mint created by `creator` now (market open, neither banned,
    /// the creator a verified artist, as for `mintNFT`; the collection checks its own block and the token's);
    /// returns the signer, the commission and the lowest price a voucher may name.
    function authorizeLazyMint(address buyer, address creator)
        external
        view
        returns (address signer_, uint256 primaryFeeBps, uint256 minimumPrice)
    {
        LazyConfig memory l = _lazyConfig;
        if (l.locked) revert MarketIsLocked();
        _checkNotBanned(buyer);
        uint256 flags = _accounts[creator];
        if (flags & BANNED != 0) revert UserIsBanned(creator);
        if (flags & VERIFIED == 0) revert NotVerifiedArtist(creator);
        return (l.signer, l.primaryFeeBps, _minimum(l.minimum));
    }

    /// @inheritdoc MarketCore
    function _domainSeparator() internal view override returns (bytes32) {
        return block.chainid == _cachedChainId ? _cachedDomainSeparator : super._domainSeparator();
    }

    /// @inheritdoc MarketCore
    function _isEaselCollection(address collection) internal view override returns (bool) {
        return collection.codehash == _collectionCodeHash;
    }
}
