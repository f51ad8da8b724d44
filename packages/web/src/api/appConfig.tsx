import type { PublicConfig } from "@easel/common";
import { createContext, type ReactNode, useContext } from "react";

const AppConfigContext = createContext<PublicConfig | null>(null);

/** Provides the server's public config (loaded once at start) to the whole app. */
export function AppConfigProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  return <AppConfigContext value={config}>{children}</AppConfigContext>;
}

export function useAppConfig(): PublicConfig {
  const config = useContext(AppConfigContext);
  if (!config) throw new Error("useAppConfig must be used inside <AppConfigProvider>");
  return config;
}
