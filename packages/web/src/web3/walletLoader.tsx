import type { PublicConfig } from "@easel/common";
import { createContext, type ReactNode, Suspense, useContext, useEffect, useState } from "react";
import { type Config, WagmiContext } from "wagmi";
import { PageLoader } from "../ui/PageLoader.tsx";

/**
 * The wallet code (wagmi, viem's clients, the connectors) is a third of the app's JavaScript and most
 * visitors browse without a wallet, so it loads only where a wallet is needed: the wallet dialog, a signed-in
 * session, and the pages that read the chain or send transactions. This module is the small part every page
 * carries: it knows how to load the wallet, not the wallet itself.
 */
type WalletLoader = {
  /** Loads the wallet code and makes the config, once. */
  load: () => Promise<Config>;
  /** The config once made, so a boundary mounted later renders at once. */
  loaded: () => Config | null;
};

const WalletLoaderContext = createContext<WalletLoader | null>(null);

/** Provides one wallet loader to the app: the wagmi config is created (and reconnected) once, on first need. */
export function WalletLoaderProvider({
  config,
  wagmiConfig,
  children,
}: {
  config: PublicConfig;
  /** A ready config (tests); otherwise one is made from `config` when first needed. */
  wagmiConfig?: Config;
  children: ReactNode;
}) {
  const [loader] = useState<WalletLoader>(() => {
    let pending: Promise<Config> | null = null;
    let made: Config | null = null;
    return {
      load: () => {
        pending ??= import("./walletConfig.ts")
          .then((wallet) => wallet.prepareWallet(config, wagmiConfig))
          .then((ready) => {
            made = ready;
            return ready;
          });
        return pending;
      },
      loaded: () => made,
    };
  });
  return <WalletLoaderContext value={loader}>{children}</WalletLoaderContext>;
}

/** Loads the wallet (once) and answers the app's wagmi config: for actions outside a wallet boundary. */
export function useWalletLoader(): () => Promise<Config> {
  return useLoader().load;
}

function useLoader(): WalletLoader {
  const loader = useContext(WalletLoaderContext);
  if (!loader) throw new Error("useWalletLoader must be used inside <WalletLoaderProvider>");
  return loader;
}

/**
 * Renders `children` with wagmi's context and the app's one config, loading the wallet code first
 * (`fallback` shows meanwhile, and while a lazy child that needs the wallet loads beside it). Not WagmiProvider: its hydration runs on every render and each mount; the
 * config reconnects once, when it is made (walletConfig.ts), and any number of these boundaries share it.
 */
export function WithWallet({
  children,
  fallback = <PageLoader />,
}: {
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const loader = useLoader();
  const [config, setConfig] = useState(loader.loaded);
  useEffect(() => {
    if (config) return;
    let live = true;
    void loader.load().then((ready) => {
      if (live) setConfig(ready);
    });
    return () => {
      live = false;
    };
  }, [loader, config]);
  if (!config) return fallback;
  return (
    <WagmiContext value={config}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </WagmiContext>
  );
}
