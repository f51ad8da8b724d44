// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {SafeTransferLib} from "solady/src/utils/SafeTransferLib.sol";

/// @title EaselCredits
/// @notice Every ETH payment is pushed with a gas cap; if the push fails (the recipient rejects ETH, reverts or
/// burns gas) the amount is credited to the recipient, who withdraws it later. A recipient can therefore never
/// block a sale, a refund or an outbid. The storage, the push and the withdrawal, without external functions:
/// `EaselPayments` adds them for the collections; the market declares them in `EaselMarketAdmin` (run from
/// `EaselMarket`'s `fallback`).
abstract contract EaselCredits is ReentrancyGuardTransient {
    /// @notice Gas forwarded with a pushed payment: enough for a smart wallet's receive hook, too little to
    /// re-enter anything meaningful or to make a sale expensive.
    uint256 internal constant SEND_GAS_LIMIT = 20_000;

    mapping(address account => uint256 amount) private _credits;
    uint256 private _totalCredits;

    /// @notice A push to `account` failed; `amount` is now withdrawable by `account`.
    event PaymentCredited(address indexed account, uint256 amount);
    /// @notice `account` withdrew its credited `amount` to `to`.
    event Withdrawal(address indexed account, address indexed to, uint256 amount);

    /// @notice `account` has no credited funds.
    error NothingToWithdraw(address account);
    /// @notice The address is zero.
    error ZeroAddress();

    /// @dev Withdraws the caller's credited funds to `to` (all gas forwarded). Callers are nonReentrant.
    function _withdraw(address to) internal {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = _credits[msg.sender];
        if (amount == 0) revert NothingToWithdraw(msg.sender);
        delete _credits[msg.sender];
        _totalCredits -= amount;
        emit Withdrawal(msg.sender, to, amount);
        SafeTransferLib.safeTransferETH(to, amount);
    }

    function _creditOf(address account) internal view returns (uint256) {
        return _credits[account];
    }

    function _totalCreditsHeld() internal view returns (uint256) {
        return _totalCredits;
    }

    /// @dev Pushes `amount` to `to` with a gas cap; on failure credits it. Callers clear their state first.
    function _send(address to, uint256 amount) internal {
        if (!SafeTransferLib.trySafeTransferETH(to, amount, SEND_GAS_LIMIT)) {
            _credits[to] += amount;
            _totalCredits += amount;
            emit PaymentCredited(to, amount);
        }
    }

    /// @dev Splits `amount` by percent `shares` (summing to 100); rounding dust goes to the first recipient.
    function _sendSplit(address[] memory recipients, uint256[] memory shares, uint256 amount) internal {
        // Callers pay a sole recipient with `_send` directly: here there are 2 to 5.
        uint256 n = recipients.length;
        uint256 rest = amount;
        for (uint256 i = 1; i < n; ++i) {
            uint256 part = (amount * shares[i]) / 100;
            rest -= part;
            _send(recipients[i], part);
        }
        _send(recipients[0], rest);
    }
}

/// @title EaselPayments
/// @notice `EaselCredits` with its external functions: the credit views and the withdrawals.
abstract contract EaselPayments is EaselCredits {
    /// @notice Funds credited to `account` after a failed push.
    function creditOf(address account) public view returns (uint256) {
        return _creditOf(account);
    }

    /// @notice The sum of all credited, not yet withdrawn, funds held by this contract.
    function totalCredits() public view returns (uint256) {
        return _totalCreditsHeld();
    }

    /// @notice Withdraws the caller's credited funds to the caller (all gas forwarded). Always allowed, also
    /// for banned accounts and while the market is locked.
    function withdraw() external nonReentrant {
        _withdraw(msg.sender);
    }

    /// @notice Withdraws the caller's credited funds to `to`, for contracts that cannot receive ETH themselves.
    /// @param to Where the funds go.
    function withdrawTo(address to) external nonReentrant {
        _withdraw(to);
    }
}
