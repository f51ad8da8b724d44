// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice The part of the market that collections and the factory read: roles, artist verification and
/// the lazy-mint settings (platform signer and primary fee).
interface IEaselMarket {
    function CONTROLLER_ROLE() external view returns (bytes32);

    function hasRole(bytes32 role, address account) external view returns (bool);

    function isVerifiedArtist(address account) external view returns (bool);

    function lazyMintConfig() external view returns (address signer, uint16 primaryFeeBps);
}
