import { describe, expect, it } from "vitest";
import { loadConfig, publicConfig } from "../src/config.ts";
import { configError, startTestApi, validEnv } from "./helpers.ts";

const PROJECT_ID = "0123456789abcdef0123456789abcdef";

/** One directive of a content security policy, e.g. `connect-src 'self' …`. */
const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `)) ?? "";

describe("WALLETCONNECT_PROJECT_ID", () => {
  it("is handed to the web app when set, and null when not", () => {
    expect(
      publicConfig(loadConfig(validEnv({ WALLETCONNECT_PROJECT_ID: PROJECT_ID }))).walletConnectProjectId,
    ).toBe(PROJECT_ID);
    expect(publicConfig(loadConfig(validEnv({}))).walletConnectProjectId).toBeNull();
    expect(
      publicConfig(loadConfig(validEnv({ WALLETCONNECT_PROJECT_ID: "" }))).walletConnectProjectId,
    ).toBeNull();
  });

  it("is refused when it is not a project id", () => {
    expect(configError(validEnv({ WALLETCONNECT_PROJECT_ID: "my-project" }))).toBe(
      "Invalid configuration: WALLETCONNECT_PROJECT_ID must be a WalletConnect project id (32 hex digits)",
    );
  });

  it("opens the page's policy to WalletConnect's relay and Verify frame only when set", async () => {
    const on = await startTestApi({ WALLETCONNECT_PROJECT_ID: PROJECT_ID });
    const off = await startTestApi();
    try {
      const withIt = await fetch(`${on.url}/api/config`);
      expect(((await withIt.json()) as { walletConnectProjectId: string }).walletConnectProjectId).toBe(
        PROJECT_ID,
      );
      const policy = withIt.headers.get("content-security-policy") ?? "";
      expect(directive(policy, "connect-src")).toContain("wss://relay.walletconnect.org");
      expect(directive(policy, "connect-src")).toContain("wss://relay.walletconnect.com");
      expect(directive(policy, "frame-src")).toContain("https://verify.walletconnect.org");
      expect(directive(policy, "script-src")).toBe("script-src 'self'");

      const without = await fetch(`${off.url}/api/config`);
      expect(((await without.json()) as { walletConnectProjectId: null }).walletConnectProjectId).toBeNull();
      expect(without.headers.get("content-security-policy")).not.toContain("walletconnect");
    } finally {
      await Promise.all([on.close(), off.close()]);
    }
  });
});
