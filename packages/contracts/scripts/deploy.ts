/**
 * Deploys Easel to Sepolia or mainnet from environment variables and prints the addresses as env lines.
 *
 *   RPC_URL=https://... DEPLOYER_PRIVATE_KEY=0x... ADMIN_ADDRESS=0x... SIGNER_ADDRESS=0x... \
 *   ETH_USD_FEED_ADDRESS=0x... npm run deploy -w @easel/contracts
 */
import { type Address, createPublicClient, createWalletClient, defineChain, http, isAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { mainnet, sepolia } from "viem/chains";
import { deployEasel, deploymentToEnv } from "../src/deploy.ts";

function env(name: string, required: boolean): string | undefined {
  const value = process.env[name]?.trim();
  if (required && !value) throw new Error(`${name} is required`);
  return value || undefined;
}

function address(name: string, required: boolean): Address | undefined {
  const value = env(name, required);
  if (value !== undefined && !isAddress(value)) throw new Error(`${name} is not an address: ${value}`);
  return value as Address | undefined;
}

async function main() {
  const rpcUrl = env("RPC_URL", true) as string;
  const key = env("DEPLOYER_PRIVATE_KEY", true) as `0x${string}`;
  const account = privateKeyToAccount(key);
  const probe = createPublicClient({ transport: http(rpcUrl) });
  const chainId = await probe.getChainId();
  const known = [mainnet, sepolia].find((c) => c.id === chainId);
  const local = chainId === 31337;
  const chain =
    known ??
    defineChain({
      id: chainId,
      name: `chain-${chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) });
  const walletClient = createWalletClient({ account, chain, transport: http(rpcUrl) });
  const ethUsdFeed = address("ETH_USD_FEED_ADDRESS", !local);
  console.error(`Deploying Easel to chain ${chainId} from ${account.address}...`);
  const deployment = await deployEasel({
    walletClient,
    publicClient,
    admin: address("ADMIN_ADDRESS", false),
    signer: address("SIGNER_ADDRESS", false),
    local,
    ethUsdFeed,
  });
  console.log(deploymentToEnv(deployment));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
