// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title MockV3Aggregator
/// @notice A Chainlink AggregatorV3Interface stand-in for the local chain (ETH/USD, 8 decimals). Anyone may set
/// the answer: it only exists on development chains.
contract MockV3Aggregator {
    uint8 public immutable decimals;
    int256 public latestAnswer;
    uint256 public latestTimestamp;
    uint80 public latestRound;

    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    constructor(uint8 decimals_, int256 initialAnswer) {
        decimals = decimals_;
        updateAnswer(initialAnswer);
    }

    function description() external pure returns (string memory) {
        return "ETH / USD (mock)";
    }

    function version() external pure returns (uint256) {
        return 4;
    }

    /// @notice Sets a new answer as a new round.
    function updateAnswer(int256 answer) public {
        latestAnswer = answer;
        latestTimestamp = block.timestamp;
        latestRound++;
        emit AnswerUpdated(answer, latestRound, block.timestamp);
    }

    function latestRoundData()
        external
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return (latestRound, latestAnswer, latestTimestamp, latestTimestamp, latestRound);
    }
}
