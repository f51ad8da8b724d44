/**
 * @easel/contracts: typed ABIs (and bytecode) of the Easel contracts for the server and the web app.
 * Addresses come from a deployment (`deployEasel` in `./deploy.ts`, or environment variables in production).
 */

export * from "./abis.ts";
export * from "./constants.ts";
export {
  easelCollectionArtifact,
  easelFactoryArtifact,
  easelMarketAdminArtifact,
  easelMarketArtifact,
  easelRoyaltySplitterArtifact,
  mockEnsUniversalResolverArtifact,
  mockV3AggregatorArtifact,
  testWalletArtifact,
} from "./generated/artifacts.ts";
export * from "./orders.ts";
export type { EaselDeployment } from "./types.ts";
