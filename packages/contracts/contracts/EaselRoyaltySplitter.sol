// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {EaselSplitterClone} from "./libraries/EaselSplitterClone.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

/// @title EaselRoyaltySplitter
/// @notice Receives the royalties other marketplaces pay for a split token (ERC-2981 names it as the receiver)
/// and divides them among the token's collaborators by their shares. Each split has one splitter: an EIP-1167
/// clone with the recipients and shares as immutable arguments, at an address fixed by them, so a collection can
/// name it before it exists and anyone can create it later through the factory. Anyone may distribute. Its
/// proxy (`EaselSplitterClone`) accepts a plain ETH payment by itself, so royalties sent with the 2,300-gas
/// stipend arrive too.
/// @dev No recipient can stop the others: `distribute` and `distributeToken` share one reentrancy guard (a
/// recipient re-entering from its `receive` is refused, so it can no longer spend the balance the outer call is
/// paying out), ETH is force-sent (a recipient that rejects ETH still receives it), and a token share whose
/// transfer fails (a recipient the token refuses, a hook that reverts) is kept here as that recipient's credit,
/// which they withdraw with `withdrawToken` (to any address); later distributions leave credits untouched.
/// Rounding dust goes to the first recipient (the creator).
contract EaselRoyaltySplitter is ReentrancyGuardTransient {
    /// @dev Token credits: per token, what each recipient is owed after a failed transfer, and their sum (which
    /// `distributeToken` leaves in place).
    mapping(address token => mapping(address account => uint256 amount)) private _credits;
    mapping(address token => uint256 amount) private _totalCredits;

    /// @notice `amount` of `token` (the zero address for ETH) was divided among the recipients.
    event RoyaltiesDistributed(address indexed token, uint256 amount);
    /// @notice A transfer of `amount` of `token` to `account` failed: it is `account`'s credit here.
    event ShareCredited(address indexed token, address indexed account, uint256 amount);
    /// @notice `account` withdrew its credit of `amount` of `token` to `to`.
    event CreditWithdrawn(address indexed token, address indexed account, address indexed to, uint256 amount);

    /// @notice `account` is owed nothing in `token`.
    error NothingOwed(address token, address account);

    /// @notice Accepts ETH royalties (a splitter's proxy accepts them without calling here).
    receive() external payable {}

    /// @notice The recipients and their shares in percent (summing to 100).
    function split() public view returns (address[] memory recipients, uint256[] memory shares) {
        return abi.decode(EaselSplitterClone.argsOf(address(this)), (address[], uint256[]));
    }

    /// @notice What `account` is owed in `token` after a failed transfer (see `withdrawToken`).
    function creditOf(address token, address account) external view returns (uint256) {
        return _credits[token][account];
    }

    /// @notice The sum of the credits in `token` (not distributed again).
    function totalCredits(address token) external view returns (uint256) {
        return _totalCredits[token];
    }

    /// @notice Divides the splitter's whole ETH balance among the recipients.
    function distribute() external nonReentrant {
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

    /// @notice Divides the splitter's balance of an ERC-20 token (e.g. WETH royalties), less the credits owed in
    /// it, among the recipients. A share whose transfer fails becomes its recipient's credit.
    function distributeToken(address token) external nonReentrant {
        uint256 balance = SafeTransferLib.balanceOf(token, address(this));
        uint256 owed = _totalCredits[token];
        // A balance that shrinks by itself (a negative rebase, a fee charged to the sender on top of a transfer)
        // can fall below the credits owed: then nothing is new, and distributing must not revert for good.
        uint256 amount = balance > owed ? balance - owed : 0;
        emit RoyaltiesDistributed(token, amount);
        (address[] memory recipients, uint256[] memory shares) = split();
        uint256 rest = amount;
        for (uint256 i = 1; i < recipients.length; ++i) {
            uint256 part = (amount * shares[i]) / 100;
            rest -= part;
            _transferOrCredit(token, recipients[i], part);
        }
        _transferOrCredit(token, recipients[0], rest);
    }

    /// @notice Sends the caller's credit in `token` to `to` (reverts if the token refuses it).
    function withdrawToken(address token, address to) external nonReentrant {
        uint256 amount = _credits[token][msg.sender];
        if (amount == 0) revert NothingOwed(token, msg.sender);
        delete _credits[token][msg.sender];
        _totalCredits[token] -= amount;
        emit CreditWithdrawn(token, msg.sender, to, amount);
        SafeTransferLib.safeTransfer(token, to, amount);
    }

    /// @dev Solady's `safeTransfer` (a token answering nothing or `true` succeeds), except that a failure
    /// credits `to` instead of reverting.
    function _transferOrCredit(address token, address to, uint256 amount) private {
        if (amount == 0) return;
        bool ok;
        assembly ("memory-safe") {
            mstore(0x14, to)
            mstore(0x34, amount)
            mstore(0x00, 0xa9059cbb000000000000000000000000) // `transfer(address,uint256)`.
            ok := call(gas(), token, 0, 0x10, 0x44, 0x00, 0x20)
            if iszero(and(eq(mload(0x00), 1), ok)) { ok := lt(or(iszero(extcodesize(token)), returndatasize()), ok) }
            mstore(0x34, 0) // Restore the part of the free memory pointer that was overwritten.
        }
        if (!ok) {
            _credits[token][to] += amount;
            _totalCredits[token] += amount;
            emit ShareCredited(token, to, amount);
        }
    }
}
