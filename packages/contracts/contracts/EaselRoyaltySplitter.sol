// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {EaselSplitterClone} from "./libraries/EaselSplitterClone.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

/// @title EaselRoyaltySplitter
/// @notice Receives the royalties other marketplaces pay for a split token (ERC-2981 names it as the receiver)
/// and divides them among the token's collaborators by their shares. Each split has one splitter: an EIP-1167
/// clone with the recipients and shares as immutable arguments, at an address fixed by them, so a collection can
/// name it before it exists and anyone can create it later through the factory. Anyone may distribute. Its
/// proxy (`EaselSplitterClone`) accepts a plain ETH payment by itself, so royalties sent with only the 2,300-gas
/// stipend arrive too.
/// @dev Payouts never block: ETH is force-sent (a recipient that rejects ETH still receives it), and rounding
/// dust goes to the first recipient (the creator).
contract EaselRoyaltySplitter {
    /// @notice `amount` of `token` (the zero address for ETH) was divided among the recipients.
    event RoyaltiesDistributed(address indexed token, uint256 amount);

    /// @notice Accepts ETH royalties (a splitter's proxy accepts them without calling here).
    receive() external payable {}

    /// @notice The recipients and their shares in percent (summing to 100).
    function split() public view returns (address[] memory recipients, uint256[] memory shares) {
        return abi.decode(EaselSplitterClone.argsOf(address(this)), (address[], uint256[]));
    }

    /// @notice Divides the splitter's whole ETH balance among the recipients.
    function distribute() external {
        uint256 amount = address(this).balance;
        emit RoyaltiesDistributed(address(0), amount);
        (address[] memory recipients, uint256[] memory shares) = split();
        uint256 rest = amount;
        for (uint256 i = 1; i < recipients.length; ++i) {
            uint256 part = (amount * shares[i]) / 100;
            rest -= part;
            SafeTransferLib.forceSafeTransferETH(recipients[i], part);
        }
        SafeTransferLib.forceSafeTransferETH(recipients[0], rest);
    }

    /// @notice Divides the splitter's whole balance of an ERC-20 token (e.g. WETH royalties) among the recipients.
    function distributeToken(address token) external {
        uint256 amount = SafeTransferLib.balanceOf(token, address(this));
        emit RoyaltiesDistributed(token, amount);
        (address[] memory recipients, uint256[] memory shares) = split();
        uint256 rest = amount;
        for (uint256 i = 1; i < recipients.length; ++i) {
            uint256 part = (amount * shares[i]) / 100;
            rest -= part;
            SafeTransferLib.safeTransfer(token, recipients[i], part);
        }
        SafeTransferLib.safeTransfer(token, recipients[0], rest);
    }
}
