import type { CreateConnectorFn } from "wagmi";

/** wagmi's id of its WalletConnect connector (and the `recentConnectorId` it stores after a connection). */
export const WALLETCONNECT_ID = "walletConnect";

/**
 * WalletConnect (a wallet on another device, or a phone wallet app, through WalletConnect's relay), for a
 * server that names a project (WALLETCONNECT_PROJECT_ID). wagmi's connector code is fetched here, when the wallet
 * code loads with the setting on; the provider itself (`@walletconnect/ethereum-provider`, its relay client and
 * QR code dialog, several hundred kB) is fetched by the connector only when WalletConnect is used: on a press of
 * its button, or to restore the session of a visitor whose last wallet it was.
 */
export async function walletConnectConnector(projectId: string): Promise<CreateConnectorFn> {
  const { walletConnect } = await import("wagmi/connectors");
  const origin = typeof window !== "undefined" ? window.location.origin : "https://easel.art";
  const connector = walletConnect({
    projectId,
    showQrModal: true,
    metadata: {
      name: "Easel",
      description: "A marketplace for digital art on Ethereum",
      url: origin,
      icons: [`${origin}/favicon.svg`],
    },
  });
  return onlyWhenUsed(connector);
}

/**
 * The connector as wagmi sees it, except that its provider is not made (nor its code fetched) at start, where
 * wagmi sets every connector up and asks each for its provider and whether it is authorized: only once
 * WalletConnect was the last wallet used here, or is being connected now.
 */
export function onlyWhenUsed(create: CreateConnectorFn): CreateConnectorFn {
  return (config) => {
    const connector = create(config);
    let wanted = false;
    const used = async () =>
      wanted || (await config.storage?.getItem("recentConnectorId")) === WALLETCONNECT_ID;
    return {
      ...connector,
      async setup() {
        if (await used()) await connector.setup?.call(this);
      },
      connect: function (this: unknown, parameters?: Parameters<typeof connector.connect>[0]) {
        wanted = true;
        return connector.connect.call(this, parameters);
      } as typeof connector.connect,
      async getProvider(parameters) {
        // wagmi's reconnect skips a connector without a provider.
        if (!(await used())) throw new Error("WalletConnect has not been used here");
        return connector.getProvider.call(this, parameters);
      },
      async isAuthorized() {
        return (await used()) ? connector.isAuthorized.call(this) : false;
      },
    };
  };
}
