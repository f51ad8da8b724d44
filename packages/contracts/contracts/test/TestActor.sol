// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @dev A contract user of the market for attack tests: it forwards calls (with ETH) and, when it receives ETH,
/// accepts it, rejects it, burns all the gas it gets, or tries to re-enter with a stored call.
contract TestActor {
    enum Mode {
        Accept,
        Reject,
        BurnGas,
        Reenter
    }

    Mode public mode;
    address public reenterTarget;
    bytes public reenterData;
    uint256 public reentryAttempts;
    uint256 public reentrySuccesses;

    function setMode(Mode newMode) external {
        mode = newMode;
    }

    function setReentry(address target, bytes calldata data) external {
        reenterTarget = target;
        reenterData = data;
    }

    /// @dev Forwards a call; bubbles up a revert.
    function act(address target, bytes calldata data) external payable returns (bytes memory) {
        (bool ok, bytes memory result) = target.call{value: msg.value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        return result;
    }

    /// @dev Several calls in one transaction; reverts (bubbling the first failure) if any fails.
    function actMany(address[] calldata targets, bytes[] calldata calls, uint256[] calldata values) external payable {
        for (uint256 i; i < targets.length; ++i) {
            (bool ok, bytes memory result) = targets[i].call{value: values[i]}(calls[i]);
            if (!ok) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
        }
    }

    receive() external payable {
        if (mode == Mode.Reject) revert("no ETH please");
        if (mode == Mode.BurnGas) {
            while (true) {}
        }
        if (mode == Mode.Reenter) {
            reentryAttempts++;
            (bool ok,) = reenterTarget.call(reenterData);
            if (ok) reentrySuccesses++;
        }
    }
}
