import { type PublicConfig, readPublicConfig } from "@easel/common";
import { apiFetch } from "../api/client.ts";

/** Loads the server's public config once at start: which chain, RPC, explorer and contracts. */
export async function loadPublicConfig(): Promise<PublicConfig> {
  const config = readPublicConfig(await apiFetch<unknown>("/api/config"));
  if (!config) throw new Error("The server sent an invalid configuration (GET /api/config).");
  return config;
}
