// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {CollectionKind, SaleInfo, SaleTerms} from "./IEaselTypes.sol";

/// @notice What the market and the factory call on an Easel collection.
interface IEaselCollection {
    function initialize(address owner, string calldata name, string calldata symbol, CollectionKind kind, uint32 maxSupply)
        external;

    function ownerOf(uint256 tokenId) external view returns (address);

    /// @notice The token's owner, whether `operator` may transfer it, and how many times it changed hands.
    function listingCheck(uint256 tokenId, address operator)
        external
        view
        returns (address owner, bool operatorApproved, uint256 transferCount);

    function transferFrom(address from, address to, uint256 tokenId) external payable;

    /// @notice Market only: locks `seller`'s token for an auction (it stays with the seller; counts as a transfer).
    function reserveTokenForAuction(address seller, uint256 tokenId) external;

    /// @notice Market only: lifts a cancelled auction's lock (counts as a transfer).
    function restoreAuctioned(uint256 tokenId) external;

    /// @notice Market only: blocks or unblocks mints and sales in this collection.
    function setBlocked(bool blocked) external;

    /// @notice Market only: copies the operator's block of a token (or of a lazy collection's unminted id).
    function setTokenBlocked(uint256 tokenId, bool blocked) external;

    /// @notice Market only: counts one more transfer without moving the token (voids its listings).
    function voidListings(uint256 tokenId) external returns (uint256 transferCount);

    /// @notice Market only: moves the token from its owner (who approved the market) to `to` as a sale, marks
    /// its primary sale done, and returns what the payout needs.
    function deliverPurchase(address to, uint256 tokenId) external returns (SaleTerms memory);

    /// @notice Market only: as `deliverPurchase`, for the token an auction locked, which it frees.
    function sellAuctioned(address to, uint256 tokenId) external returns (SaleTerms memory);

    /// @notice The token's earnings recipients and their shares in percent (summing to 100).
    function collaboratorsOf(uint256 tokenId) external view returns (address[] memory, uint256[] memory);

    /// @notice Everything a view of the token's sale state needs in one call.
    function saleInfo(uint256 tokenId) external view returns (SaleInfo memory);
}
