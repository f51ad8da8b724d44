import type { PublicConfig } from "@easel/common";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createConnector } from "wagmi";
import { createWagmiConfig } from "./chain.ts";
import { onlyWhenUsed, WALLETCONNECT_ID } from "./walletConnect.ts";

const base: PublicConfig = {
  chainId: 11155111,
  localChain: false,
  rpcUrl: null,
  explorerUrl: "https://sepolia.etherscan.io",
  contracts: {},
  ens: true,
  mediaUrl: null,
};

afterEach(() => localStorage.clear());

describe("WalletConnect in the wallet config", () => {
  it("is offered when the server names a project", async () => {
    const config = await createWagmiConfig({
      ...base,
      walletConnectProjectId: "0123456789abcdef0123456789abcdef",
    });
    const ids = config.connectors.map((c) => c.id);
    expect(ids).toContain(WALLETCONNECT_ID);
    expect(config.connectors.find((c) => c.id === WALLETCONNECT_ID)?.name).toBe("WalletConnect");
  });

  it("is not offered without one", async () => {
    for (const walletConnectProjectId of [undefined, null]) {
      const config = await createWagmiConfig({ ...base, walletConnectProjectId });
      expect(config.connectors.map((c) => c.id)).not.toContain(WALLETCONNECT_ID);
    }
  });
});

describe("onlyWhenUsed", () => {
  const fake = (getProvider: () => Promise<unknown>) =>
    createConnector(() => ({
      id: WALLETCONNECT_ID,
      name: "WalletConnect",
      type: "walletConnect",
      async setup() {
        await getProvider();
      },
      async isAuthorized() {
        await getProvider();
        return true;
      },
      connect: async () => ({ accounts: [], chainId: 1 }),
      disconnect: async () => {},
      getAccounts: async () => [],
      getChainId: async () => 1,
      getProvider,
      onAccountsChanged() {},
      onChainChanged() {},
      onDisconnect() {},
    }));
  const setupWith = (recent: string | null) => {
    const getProvider = vi.fn(async () => ({}));
    const connector = onlyWhenUsed(fake(getProvider))({
      chains: [{ id: 1 }] as never,
      emitter: {} as never,
      providers: [],
      storage: { getItem: async () => recent, setItem: async () => {}, removeItem: async () => {} } as never,
    });
    return { connector, getProvider };
  };

  it("makes no provider at start for a visitor who never used WalletConnect", async () => {
    const { connector, getProvider } = setupWith("injected");
    await connector.setup?.();
    // wagmi's reconnect asks every connector for its provider first, and skips one that has none.
    await expect(connector.getProvider()).rejects.toThrow();
    expect(await connector.isAuthorized()).toBe(false);
    expect(getProvider).not.toHaveBeenCalled();
  });

  it("makes it when the visitor picks WalletConnect", async () => {
    const { connector, getProvider } = setupWith(null);
    await connector.connect();
    expect(await connector.getProvider()).toEqual({});
    expect(getProvider).toHaveBeenCalledTimes(1);
  });

  it("restores the session of one whose last wallet it was", async () => {
    const { connector, getProvider } = setupWith(WALLETCONNECT_ID);
    await connector.setup?.();
    expect(await connector.isAuthorized()).toBe(true);
    expect(getProvider).toHaveBeenCalledTimes(2);
  });
});
