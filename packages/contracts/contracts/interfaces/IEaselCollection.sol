// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {CollectionKind, SaleInfo} from "./IEaselTypes.sol";

/// @notice What the market and the factory call on an Easel collection.
interface IEaselCollection {
    function initialize(address owner, string calldata name, string calldata symbol, CollectionKind kind, uint40 maxSupply)
        external;

    function ownerOf(uint256 tokenId) external view returns (address);

    function getApproved(uint256 tokenId) external view returns (address);

    /// @notice The token's owner and whether `operator` may transfer it, in one call.
    function ownerAndApproval(uint256 tokenId, address operator) external view returns (address, bool);

    function isApprovedForAll(address owner, address operator) external view returns (bool);

    function transferFrom(address from, address to, uint256 tokenId) external payable;

    /// @notice Everything a sale needs in one call.
    function saleInfo(uint256 tokenId) external view returns (SaleInfo memory);
}
