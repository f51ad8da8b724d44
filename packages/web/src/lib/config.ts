import { type PublicConfig, publicConfigSchema } from "@easel/common";
import { apiFetch } from "../api/client.ts";

/** Loads the server's public config once at start: which chain, RPC, explorer and contracts. */
export async function loadPublicConfig(): Promise<PublicConfig> {
  const body = await apiFetch<unknown>("/api/config");
  const parsed = publicConfigSchema.safeParse(body);
  if (!parsed.success) throw new Error("The server sent an invalid configuration (GET /api/config).");
  return parsed.data;
}
