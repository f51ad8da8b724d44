import type { PublicConfig } from "@easel/common";
import type { Config } from "wagmi";
import { reconnect } from "wagmi/actions";
import { createWagmiConfig } from "./chain.ts";

/** The app's wagmi config (made from the server's public config unless given), reconnected to the last wallet. */
export async function prepareWallet(appConfig: PublicConfig, given?: Config): Promise<Config> {
  const config = given ?? (await createWagmiConfig(appConfig));
  void reconnect(config).catch(() => {});
  return config;
}
