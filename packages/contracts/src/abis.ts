/**
 * `@easel/contracts/abis`: the contracts' ABIs alone (no bytecode), for code that only calls the contracts —
 * the web app imports these, so its bundle never carries deploy bytecode.
 */
export {
  easelCollectionAbi,
  easelFactoryAbi,
  easelMarketAbi,
  easelRoyaltySplitterAbi,
  /** Chainlink AggregatorV3 (the local mock implements the same reads). */
  mockV3AggregatorAbi as aggregatorV3Abi,
} from "./generated/abis.ts";
