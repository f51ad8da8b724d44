// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @dev A smart-contract wallet for signed-listing tests (as a Safe or a passkey wallet): ERC-1271 accepts a
/// digest its owner key signed (65 bytes), or answers wrongly, or reverts, or burns `hunger` gas before answering
/// honestly, as set. It forwards calls and accepts ETH.
contract TestWallet {
    enum Answer {
        Honest,
        WrongMagic,
        Revert,
        AlwaysYes,
        Hungry
    }

    address public immutable owner;
    Answer public answer;
    uint256 public hunger;

    constructor(address owner_) {
        owner = owner_;
    }

    function setAnswer(Answer a) external {
        answer = a;
    }

    /// @dev The gas a `Hungry` answer burns first (`type(uint256).max`: all it gets).
    function setHunger(uint256 gasToBurn) external {
        answer = Answer.Hungry;
        hunger = gasToBurn;
    }

    function act(address target, bytes calldata data) external payable returns (bytes memory) {
        (bool ok, bytes memory result) = target.call{value: msg.value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
        return result;
    }

    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4) {
        if (answer == Answer.Revert) revert("no");
        if (answer == Answer.WrongMagic) return 0xffffffff;
        if (answer == Answer.AlwaysYes) return 0x1626ba7e;
        if (answer == Answer.Hungry) {
            uint256 start = gasleft();
            while (start - gasleft() < hunger) {}
        }
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(digest, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    receive() external payable {}
}
