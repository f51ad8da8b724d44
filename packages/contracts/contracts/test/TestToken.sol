// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "solady/src/tokens/ERC20.sol";

/// @dev A plain ERC-20 (think WETH) for royalty-splitter tests: anyone may mint.
contract TestToken is ERC20 {
    function name() public pure override returns (string memory) {
        return "Test Wrapped Ether";
    }

    function symbol() public pure override returns (string memory) {
        return "TWETH";
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
