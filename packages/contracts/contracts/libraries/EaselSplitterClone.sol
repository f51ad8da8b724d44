// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title EaselSplitterClone
/// @notice The royalty splitters' proxy: an EIP-1167 minimal proxy with the split as immutable arguments after its
/// code, preceded by six bytes that accept a plain ETH payment (empty calldata) without calling the
/// implementation. A payment sent with only the 2,300-gas stipend (`transfer`, `send`, as some marketplaces pay
/// royalties) therefore succeeds: it costs 15 gas, where the delegate call to a cold implementation alone costs
/// 2,600. Every call with calldata is delegated as usual.
/// @dev Runtime: `36 6005 57 00 5b` (CALLDATASIZE, PUSH1 5, JUMPI, STOP, JUMPDEST), then the standard 45-byte
/// EIP-1167 body with its final jump moved by those six bytes (0x2b -> 0x31), then the arguments at byte 51.
library EaselSplitterClone {
    /// @dev Where the immutable arguments start in the runtime code.
    uint256 internal constant ARGS_OFFSET = 51;

    error SplitterDeploymentFailed();

    /// @dev The creation code: a 10-byte constructor that returns the runtime (the proxy and the arguments).
    function initCode(address implementation, bytes memory args) internal pure returns (bytes memory) {
        return abi.encodePacked(
            hex"61",
            uint16(ARGS_OFFSET + args.length),
            hex"3d81600a3d39f3",
            hex"36600557005b",
            hex"363d3d373d3d3d363d73",
            implementation,
            hex"5af43d82803e903d91603157fd5bf3",
            args
        );
    }

    /// @dev Deploys the splitter of `args` with CREATE2 (salt 0).
    function deploy(address implementation, bytes memory args) internal returns (address instance) {
        bytes memory code = initCode(implementation, args);
        assembly ("memory-safe") {
            instance := create2(0, add(code, 0x20), mload(code), 0)
        }
        if (instance == address(0)) revert SplitterDeploymentFailed();
    }

    /// @dev The address `deployer` gives the splitter of `args` (whether or not it exists yet).
    function predict(address implementation, bytes memory args, address deployer) internal pure returns (address) {
        bytes32 hash = keccak256(
            abi.encodePacked(bytes1(0xff), deployer, bytes32(0), keccak256(initCode(implementation, args)))
        );
        return address(uint160(uint256(hash)));
    }

    /// @dev The immutable arguments of the splitter at `instance`.
    function argsOf(address instance) internal view returns (bytes memory a) {
        uint256 size = instance.code.length - ARGS_OFFSET;
        a = new bytes(size);
        assembly ("memory-safe") {
            extcodecopy(instance, add(a, 0x20), ARGS_OFFSET, size)
        }
    }
}
