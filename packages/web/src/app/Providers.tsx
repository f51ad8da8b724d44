import type { PublicConfig } from "@easel/common";
import { TOAST_DURATION_MS } from "@easel/common";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Toaster } from "sonner";
import type { Config } from "wagmi";
import { AppConfigProvider } from "../api/appConfig.tsx";
import { WalletDialogProvider } from "../wallet/walletDialogState.tsx";
import { WalletLoaderProvider } from "../web3/walletLoader.tsx";

/** Everything a page needs around it: config, the wallet loader, TanStack Query, the wallet dialog state and toasts. */
export function Providers({
  config,
  wagmiConfig,
  queryClient,
  children,
}: {
  config: PublicConfig;
  /** A ready wagmi config (tests); the app makes its own when a wallet is first needed. */
  wagmiConfig?: Config;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <AppConfigProvider config={config}>
      <WalletLoaderProvider config={config} wagmiConfig={wagmiConfig}>
        <QueryClientProvider client={queryClient}>
          <WalletDialogProvider>
            {children}
            {/* Bottom right: a toast at the top would cover the avatar and the notification badge. The page's
                direction is given: left to its default, sonner reads it from the computed style, which makes
                the browser compute the whole page's style in the middle of the first render. */}
            <Toaster
              position="bottom-right"
              duration={TOAST_DURATION_MS}
              theme="dark"
              dir="ltr"
              closeButton
            />
          </WalletDialogProvider>
        </QueryClientProvider>
      </WalletLoaderProvider>
    </AppConfigProvider>
  );
}
