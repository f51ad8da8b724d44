import type { PublicConfig } from "@easel/common";
import { TOAST_DURATION_MS } from "@easel/common";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Toaster } from "sonner";
import { type Config, WagmiProvider } from "wagmi";
import { AppConfigProvider } from "../api/appConfig.tsx";
import { WalletDialogProvider } from "../wallet/walletDialogState.tsx";

/** Everything a page needs around it: config, wagmi, TanStack Query, the wallet dialog state and toasts. */
export function Providers({
  config,
  wagmiConfig,
  queryClient,
  children,
}: {
  config: PublicConfig;
  wagmiConfig: Config;
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <AppConfigProvider config={config}>
      <WagmiProvider config={wagmiConfig}>
        <QueryClientProvider client={queryClient}>
          <WalletDialogProvider>
            {children}
            {/* Bottom right: a toast at the top would cover the avatar and the notification badge. */}
            <Toaster position="bottom-right" duration={TOAST_DURATION_MS} theme="dark" closeButton />
          </WalletDialogProvider>
        </QueryClientProvider>
      </WagmiProvider>
    </AppConfigProvider>
  );
}
