import { recoverMessageAddress, recoverTypedDataAddress } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createConfig, http } from "wagmi";
import { connect, disconnect, getConnection, signMessage, signTypedData } from "wagmi/actions";
import { LOCAL_CONFIG } from "../test/harness.tsx";
import { chainFromConfig } from "../web3/chain.ts";
import { ANVIL_ADDRESSES, ANVIL_MNEMONIC, selectDevAccount } from "./devAccounts.ts";
import { devWallet } from "./devWallet.ts";

function setup() {
  const chain = chainFromConfig(LOCAL_CONFIG);
  const connector = devWallet({ chain });
  const config = createConfig({
    chains: [chain],
    connectors: [connector],
    transports: { [chain.id]: http(chain.rpcUrls.default.http[0]) },
    storage: null,
  });
  return { config, chain, connector: config.connectors[0] };
}

describe("Dev wallet", () => {
  it("lists anvil's ten well-known accounts, derived from the test mnemonic", () => {
    expect(ANVIL_ADDRESSES).toHaveLength(10);
    ANVIL_ADDRESSES.forEach((address, addressIndex) => {
      expect(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex }).address).toBe(address);
    });
  });

  it("connects the chosen account on the local chain and signs messages and typed data locally", async () => {
    const { config, chain, connector } = setup();
    if (!connector) throw new Error("no connector");
    selectDevAccount(3);
    const result = await connect(config, { connector });
    expect(result.accounts).toEqual([ANVIL_ADDRESSES[3]]);
    expect(result.chainId).toBe(chain.id);

    const message = "Welcome to Easel!";
    const signature = await signMessage(config, { message });
    expect(await recoverMessageAddress({ message, signature })).toBe(ANVIL_ADDRESSES[3]);

    const typed = {
      domain: { name: "Easel", version: "1", chainId: chain.id },
      types: { Voucher: [{ name: "price", type: "uint256" }] },
      primaryType: "Voucher",
      message: { price: 5n },
    } as const;
    const typedSignature = await signTypedData(config, typed);
    expect(await recoverTypedDataAddress({ ...typed, signature: typedSignature })).toBe(ANVIL_ADDRESSES[3]);

    await disconnect(config);
    expect(getConnection(config).status).toBe("disconnected");
    expect(await connector.isAuthorized()).toBe(false);
  });

  it("refuses any other chain", async () => {
    const { connector } = setup();
    if (!connector?.switchChain) throw new Error("no switchChain");
    await expect(connector.switchChain({ chainId: 1 })).rejects.toThrow();
  });
});
