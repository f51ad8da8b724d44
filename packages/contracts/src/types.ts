/** Where an Easel deployment lives. `contracts` names every deployed address. */
export type EaselDeployment = {
  chainId: number;
  /** Block number (decimal string) of the first deployment transaction: where an indexer starts. */
  deployBlock: string;
  /**
   * market, factory, collectionImplementation, defaultCollection, royaltySplitterImplementation, marketAdmin (the
   * code the market runs for administration and views; never called at its own address), and ethUsdFeed when
   * known (always on the local chain, where it is a mock aggregator).
   */
  contracts: Record<string, `0x${string}`>;
};
