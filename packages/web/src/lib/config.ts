import { type PublicConfig, readPublicConfig } from "@easel/common";
import { apiFetch } from "../api/client.ts";

/**
 * The server's public config: which chain, RPC, explorer and contracts. Read from the page (the server puts
 * it in every page it serves, `#easel-config`), or asked for when the page has none (the Vite dev server).
 */
export async function loadPublicConfig(): Promise<PublicConfig> {
  const inline = document.getElementById("easel-config")?.textContent;
  if (inline) {
    try {
      const config = readPublicConfig(JSON.parse(inline));
      if (config) return config;
    } catch {
      // Not JSON: ask the API below.
    }
  }
  const config = readPublicConfig(await apiFetch<unknown>("/api/config"));
  if (!config) throw new Error("The server sent an invalid configuration (GET /api/config).");
  return config;
}
