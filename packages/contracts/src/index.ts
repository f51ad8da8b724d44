/**
 * @easel/contracts: typed ABIs (and bytecode) of the Easel contracts for the server and the web app.
 * Addresses come from a deployment (`deployEasel` in `./deploy.ts`, or environment variables in production).
 */
import {
  easelCollectionArtifact,
  easelFactoryArtifact,
  easelMarketArtifact,
  mockV3AggregatorArtifact,
} from "./generated/artifacts.ts";

export {
  easelCollectionArtifact,
  easelFactoryArtifact,
  easelMarketArtifact,
  mockV3AggregatorArtifact,
} from "./generated/artifacts.ts";

/** The market: sell orders, auctions, offers, payouts, roles, settings and moderation. */
export const easelMarketAbi = easelMarketArtifact.abi;
/** The factory: createCollection, createLazyCollection. */
export const easelFactoryAbi = easelFactoryArtifact.abi;
/** Every Easel collection (standard, lazy and the default collection share one implementation). */
export const easelCollectionAbi = easelCollectionArtifact.abi;
/** Chainlink AggregatorV3 (the local mock implements the same reads). */
export const aggregatorV3Abi = mockV3AggregatorArtifact.abi;

export * from "./constants.ts";
export type { EaselDeployment } from "./types.ts";
