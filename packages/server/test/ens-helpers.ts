import { mockEnsUniversalResolverArtifact } from "@easel/contracts";
import { createPublicClient, createTestClient, createWalletClient, http, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { namehash } from "viem/ens";
import { inject } from "vitest";
import { localChain } from "../src/chain/client.ts";

/**
 * Deploys the mock ENS UniversalResolver on the test chain (which has no ENS), from a fresh funded
 * account so parallel test files never race on a nonce. Records are set with real transactions.
 */
export async function deployEnsResolver() {
  const transport = http(inject("rpcUrl"));
  const account = privateKeyToAccount(generatePrivateKey());
  await createTestClient({ mode: "anvil", chain: localChain, transport }).setBalance({
    address: account.address,
    value: parseEther("10"),
  });
  const publicClient = createPublicClient({ chain: localChain, transport });
  const wallet = createWalletClient({ account, chain: localChain, transport });
  const { abi, bytecode } = mockEnsUniversalResolverArtifact;
  const deployed = await publicClient.waitForTransactionReceipt({
    hash: await wallet.deployContract({ abi, bytecode }),
  });
  const address = deployed.contractAddress as `0x${string}`;
  const send = async (hash: Promise<`0x${string}`>) =>
    publicClient.waitForTransactionReceipt({ hash: await hash });
  return {
    address,
    /** What `name` resolves to (the forward record). */
    setAddress: (name: string, to: string) =>
      send(
        wallet.writeContract({
          address,
          abi,
          functionName: "setAddr",
          args: [namehash(name), to as `0x${string}`],
        }),
      ),
    /** The primary (reverse) name of `of`. */
    setPrimaryName: (of: string, name: string) =>
      send(
        wallet.writeContract({ address, abi, functionName: "setName", args: [of as `0x${string}`, name] }),
      ),
  };
}
