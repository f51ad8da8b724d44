import type { PublicConfig } from "@easel/common";
import { createContext, type ReactNode, Suspense, useContext, useEffect, useState } from "react";
import { type Config, WagmiContext } from "wagmi";
import { Button } from "../ui/Button.tsx";
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

type WalletModule = Pick<typeof import("./walletConfig.ts"), "prepareWallet">;

/** Provides one wallet loader to the app: the wagmi config is created (and reconnected) once, on first need. */
export function WalletLoaderProvider({
  config,
  wagmiConfig,
  importWallet = () => import("./walletConfig.ts"),
  children,
}: {
  config: PublicConfig;
  /** A ready config (tests); otherwise one is made from `config` when first needed. */
  wagmiConfig?: Config;
  /** Fetches the wallet code (tests stand in for the network here). */
  importWallet?: () => Promise<WalletModule>;
  children: ReactNode;
}) {
  const [loader] = useState<WalletLoader>(() => {
    let pending: Promise<Config> | null = null;
    let made: Config | null = null;
    return {
      load: () => {
        if (!pending) {
          const loading = importWallet()
            .then((wallet) => wallet.prepareWallet(config, wagmiConfig))
            .then((ready) => {
              made = ready;
              return ready;
            });
          // A failed load (offline, or the chunk was replaced by a newer deployment) is not kept: the next
          // call fetches again.
          loading.catch(() => {
            if (pending === loading) pending = null;
          });
          pending = loading;
        }
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
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (config || failed) return;
    let live = true;
    loader.load().then(
      (ready) => {
        if (live) setConfig(ready);
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [loader, config, failed]);
  if (failed) {
    // A boundary without a fallback has no place on the page (it holds a dialog): its failure floats.
    return <WalletLoadFailed floating={fallback === null} onRetry={() => setFailed(false)} />;
  }
  if (!config) return fallback;
  return (
    <WagmiContext value={config}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </WagmiContext>
  );
}

/** The wallet code did not arrive: say so where the wallet was awaited, and offer to fetch it again. */
function WalletLoadFailed({ floating, onRetry }: { floating: boolean; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className={
        floating
          ? "fixed inset-x-4 bottom-4 z-50 mx-auto max-w-md rounded-lg border border-neutral-200 bg-white p-4 text-sm shadow-lg dark:border-neutral-800 dark:bg-neutral-900"
          : "mx-auto max-w-md px-4 py-12 text-center text-sm"
      }
    >
      <p>The wallet could not load. Check your connection and try again.</p>
      <Button className="mt-3" variant="secondary" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
