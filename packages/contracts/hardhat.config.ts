import { createRequire } from "node:module";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatNodeTestRunner from "@nomicfoundation/hardhat-node-test-runner";
import hardhatViem from "@nomicfoundation/hardhat-viem";
import hardhatViemAssertions from "@nomicfoundation/hardhat-viem-assertions";
import { defineConfig } from "hardhat/config";

const require = createRequire(import.meta.url);

// The compiler comes from the npm `solc` package (pinned to exactly this version), so builds never download one.
const compiler = {
  version: "0.8.37",
  path: require.resolve("solc/soljson.js"),
  settings: {
    evmVersion: "prague",
    optimizer: { enabled: true, runs: 2_000 },
    viaIR: true,
  },
};

export default defineConfig({
  plugins: [hardhatViem, hardhatNodeTestRunner, hardhatNetworkHelpers, hardhatViemAssertions],
  solidity: {
    profiles: {
      default: compiler,
      production: compiler,
    },
  },
  paths: {
    sources: "contracts",
    tests: { solidity: "test/solidity", nodejs: "test/ts" },
  },
  test: {
    solidity: {
      fuzz: { runs: 2_000, seed: "0x5eed" },
      invariant: { runs: 2_000, depth: 40, failOnRevert: false },
    },
  },
});
