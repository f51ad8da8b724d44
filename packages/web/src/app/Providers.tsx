import type { PublicConfig } from "@easel/common";
import { TOAST_DURATION_MS } from "@easel/common";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Toaster } from "sonner";
import type { Config } from "wagmi";
import { AppConfigProvider } from "../api/appConfig.tsx";
import { WalletDialogProvider } from "../wallet/walletDialogState.tsx";
import { WalletLoaderProvider } from "../web3/walletLoader.tsx";

/**
 * Where toasts stand (the spec: top-right): below the sticky header (h-16, 64 px, and its border), so that they
 * never cover the header's avatar or its notification badge; on phones (sonner's layout under 600 px, full
 * width) below the header too.
 */
export const TOAST_OFFSET = { top: 80, right: 24 } as const;
export const TOAST_MOBILE_OFFSET = { top: 72, right: 16, left: 16 } as const;

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
            {/* Top right, under the header (TOAST_OFFSET). The page's direction is given: left to its default,
                sonner reads it from the computed style, which makes the browser compute the whole page's
                style in the middle of the first render. */}
            <Toaster
              position="top-right"
              offset={TOAST_OFFSET}
              mobileOffset={TOAST_MOBILE_OFFSET}
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
