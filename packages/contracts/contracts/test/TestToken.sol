// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @dev A plain ERC-20 (think WETH) for royalty-splitter tests: anyone may mint.
contract TestToken is ERC20("Test Wrapped Ether", "TWETH") {
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
