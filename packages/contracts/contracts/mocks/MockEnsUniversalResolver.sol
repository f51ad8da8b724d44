// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice A stand-in for ENS's UniversalResolver on a local chain, which has no ENS: it answers the two
/// calls viem's `getEnsAddress` and `getEnsName` make (`resolveWithGateways` for `addr(node)`,
/// `reverseWithGateways` for coin type 60) from records anyone may set. Tests use it to check the server's
/// ENS verification against a real EVM. Never deployed outside local chains.
contract MockEnsUniversalResolver {
    mapping(bytes32 node => address) public addrOf;
    mapping(address => string) public nameOf;

    function setAddr(bytes32 node, address addr) external {
        addrOf[node] = addr;
    }

    function setName(address addr, string calldata name) external {
        nameOf[addr] = name;
    }

    /// @param data An `addr(bytes32 node)` call (the only query viem makes for an ETH address).
    function resolveWithGateways(bytes calldata, bytes calldata data, string[] calldata)
        external
        view
        returns (bytes memory, address)
    {
        bytes32 node = abi.decode(data[4:], (bytes32));
        return (abi.encode(addrOf[node]), address(this));
    }

    /// @param lookupAddress The 20 bytes of the address whose primary name is asked for.
    function reverseWithGateways(bytes calldata lookupAddress, uint256, string[] calldata)
        external
        view
        returns (string memory, address, address)
    {
        address addr = address(bytes20(lookupAddress));
        return (nameOf[addr], address(this), address(this));
    }
}
