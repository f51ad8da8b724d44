// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice The part of the market that collections and the factory call: roles, the platform signer, and the
/// moderation checks every mint must pass. The checks revert with the market's own errors (`MarketIsLocked`,
/// `UserIsBanned`, `CollectionIsBlocked`, `NotVerifiedArtist`), which the caller lets bubble up.
interface IEaselMarket {
    function CONTROLLER_ROLE() external view returns (bytes32);

    function hasRole(bytes32 role, address account) external view returns (bool);

    /// @notice The platform voucher signer.
    function signer() external view returns (address);

    /// @notice Reverts unless `minter` may mint now (the market is open, the minter a verified artist and not
    /// banned); the calling collection checks its own block. The factory asks the same before creating a
    /// collection.
    function authorizeMint(address minter) external view;

    /// @notice Reverts with `UserIsBanned` if any of `accounts` is banned.
    function checkNotBanned(address[] calldata accounts) external view;

    /// @notice Reverts unless `buyer` may buy a lazy mint from `creator` in the calling collection now (market
    /// open, neither banned, the creator a verified artist); returns what the voucher is checked against.
    /// @return signer_ The platform voucher signer.
    /// @return primaryFeeBps The commission on the sale.
    /// @return minimumPrice The lowest lazy-mint price, in wei.
    function authorizeLazyMint(address buyer, address creator)
        external
        view
        returns (address signer_, uint256 primaryFeeBps, uint256 minimumPrice);
}
