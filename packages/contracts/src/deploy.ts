/**
 * Deploys Easel with viem, from the generated artifacts only (no Hardhat at run time): the server launcher calls
 * it against anvil on `npm start`, and `npm run deploy` calls it for Sepolia or mainnet.
 */
import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  getAddress,
  type Hash,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import {
  easelFactoryArtifact,
  easelMarketAdminArtifact,
  easelMarketArtifact,
  easelRoyaltySplitterArtifact,
  mockV3AggregatorArtifact,
} from "./generated/artifacts.ts";
import type { EaselDeployment } from "./types.ts";

export type { EaselDeployment } from "./types.ts";

export type DeployEaselOptions = {
  /** Sends the transactions; must carry an account and a chain. */
  walletClient: WalletClient;
  publicClient: PublicClient;
  /** Receives the controller and operator roles and owns the default collection. Default: the deployer. */
  admin?: Address;
  /** The platform voucher signer. Default: the deployer. */
  signer?: Address;
  /** Local chain: also deploy a mock ETH/USD aggregator and verify the admin (and deployer) as artists. */
  local?: boolean;
  /** Chainlink ETH/USD aggregator to record in the deployment (ignored when `local`). */
  ethUsdFeed?: Address;
  /** Initial mock ETH/USD answer with 8 decimals (local only). Default 3000 USD. */
  mockEthUsd?: bigint;
};

/**
 * Deploys the royalty splitter implementation and the market's administration code (`EaselMarketAdmin`), then the
 * market with both addresses (it creates the factory, the collection implementation and the default collection).
 * Each of the first two is deployed on its own because the market's creation code would otherwise pass the
 * 48 KB initcode limit. The market runs `EaselMarketAdmin`'s functions from its fallback: everything is called
 * at the market's address, with `easelMarketAbi`.
 */
export async function deployEasel(opts: DeployEaselOptions): Promise<EaselDeployment> {
  const { publicClient } = opts;
  const walletClient = opts.walletClient as WalletClient<Transport, Chain, Account>;
  const account = walletClient.account;
  const chain = walletClient.chain;
  if (!account || !chain) throw new Error("deployEasel: the wallet client needs an account and a chain");
  const deployer = account.address;
  const admin = opts.admin ?? deployer;
  const signer = opts.signer ?? deployer;

  const wait = async (hash: Hash) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`deployEasel: transaction ${hash} reverted`);
    return receipt;
  };

  /** Deploys one contract and waits for it: its address and the block it is in. */
  const deploy = async (
    name: string,
    artifact: { abi: Abi; bytecode: Hex },
    args: readonly unknown[] = [],
  ) => {
    const receipt = await wait(
      await walletClient.deployContract({
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        args,
        account,
        chain,
      }),
    );
    if (!receipt.contractAddress) throw new Error(`deployEasel: no ${name} address in the receipt`);
    return { address: receipt.contractAddress, block: receipt.blockNumber };
  };

  const { address: royaltySplitterImplementation } = await deploy("splitter", easelRoyaltySplitterArtifact);
  const { address: marketAdmin } = await deploy("market admin", easelMarketAdminArtifact);
  const { address: market, block: deployBlock } = await deploy("market", easelMarketArtifact, [
    admin,
    signer,
    royaltySplitterImplementation,
    marketAdmin,
  ]);
  const marketContract = { address: market, abi: easelMarketArtifact.abi } as const;
  const factory = await publicClient.readContract({ ...marketContract, functionName: "factory" });
  const factoryContract = { address: factory, abi: easelFactoryArtifact.abi } as const;
  const [collectionImplementation, defaultCollection] = await Promise.all([
    publicClient.readContract({ ...factoryContract, functionName: "collectionImplementation" }),
    publicClient.readContract({ ...factoryContract, functionName: "defaultCollection" }),
  ]);

  const contracts: Record<string, `0x${string}`> = {
    market,
    factory,
    collectionImplementation,
    defaultCollection,
    royaltySplitterImplementation,
    marketAdmin,
  };

  const write = async (functionName: "setArtistVerified" | "renounceRole", args: readonly unknown[]) =>
    wait(
      await walletClient.writeContract({
        ...marketContract,
        functionName,
        args: args as never,
        account,
        chain,
      }),
    );

  if (opts.local) {
    const feed = await deploy("aggregator", mockV3AggregatorArtifact, [
      8,
      opts.mockEthUsd ?? 3_000n * 10n ** 8n,
    ]);
    contracts.ethUsdFeed = feed.address;
    // Local users can try minting at once.
    await write("setArtistVerified", [admin, true]);
    if (admin.toLowerCase() !== deployer.toLowerCase()) await write("setArtistVerified", [deployer, true]);
  } else if (opts.ethUsdFeed) {
    contracts.ethUsdFeed = opts.ethUsdFeed;
  }

  if (admin.toLowerCase() !== deployer.toLowerCase()) {
    // The deployer held the roles only for setup.
    const [operatorRole, controllerRole] = await Promise.all([
      publicClient.readContract({ ...marketContract, functionName: "OPERATOR_ROLE" }),
      publicClient.readContract({ ...marketContract, functionName: "CONTROLLER_ROLE" }),
    ]);
    await write("renounceRole", [operatorRole, deployer]);
    await write("renounceRole", [controllerRole, deployer]);
  }

  for (const [name, value] of Object.entries(contracts)) contracts[name] = getAddress(value);
  return { chainId: chain.id, deployBlock: deployBlock.toString(), contracts };
}

/** The deployment as `NAME=0x...` environment lines (FACTORY_ADDRESS=..., MARKET_ADDRESS=..., ...). */
export function deploymentToEnv(deployment: EaselDeployment): string {
  const lines = [`CHAIN_ID=${deployment.chainId}`, `DEPLOY_BLOCK=${deployment.deployBlock}`];
  for (const [name, address] of Object.entries(deployment.contracts)) {
    const key = name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
    lines.push(`${key}_ADDRESS=${address}`);
  }
  return lines.join("\n");
}
