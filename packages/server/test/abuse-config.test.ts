/**
 * Production settings an attacker would love, each refused at start (or, where it may be meant, warned about):
 * keys anyone can find, secrets shared between jobs, media served where the session's cookies reach, the local
 * chain's shortcuts in a production build. Also the production role itself: it exits 1 naming the problem.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { isTestKey, loadConfig, sameSite, TEST_ACCOUNTS, testKeyAt } from "../src/config.ts";
import { configError, PRODUCTION_SECRETS, validEnv } from "./helpers.ts";

/** A production environment that loads: mainnet, https, shared storage, secrets of its own. */
const production = (overrides: Record<string, string | undefined> = {}) =>
  validEnv({
    CHAIN_ID: "1",
    PUBLIC_URL: "https://easel.art",
    MEDIA_DIR: "/shared/media",
    SMTP_URL: "smtps://user:pass@mail.example:465",
    ...PRODUCTION_SECRETS,
    ...overrides,
  });

const TEST_MNEMONIC = "test test test test test test test test test test test junk";
const hex32 = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe("the signer key", () => {
  it("knows the test mnemonic's accounts as viem derives them", () => {
    // anvil's first account, and any other as viem's own BIP-32 derivation finds it.
    expect(testKeyAt(0)).toBe("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
    for (const index of [19, 20, 57, TEST_ACCOUNTS - 1]) {
      expect(privateKeyToAccount(testKeyAt(index)).address).toBe(
        mnemonicToAccount(TEST_MNEMONIC, { addressIndex: index }).address,
      );
    }
  });

  it("refuses the test mnemonic's keys past the first 20 (anvil --accounts 100 and the like)", () => {
    for (const index of [0, 19, 20, 57, 99, TEST_ACCOUNTS - 1]) {
      const key = testKeyAt(index);
      expect(isTestKey(key), `account ${index}`).toBe(true);
      expect(configError(production({ SIGNER_PRIVATE_KEY: key }))).toContain(
        "SIGNER_PRIVATE_KEY is a public test key",
      );
    }
    // The same key in upper case is the same key.
    expect(
      configError(production({ SIGNER_PRIVATE_KEY: testKeyAt(42).toUpperCase().replace("0X", "0x") })),
    ).toContain("public test key");
  });

  it("refuses keys anyone can find by counting: small numbers and the curve order's edge", () => {
    for (const k of [1n, 2n, 0xdeadbeefn, 2n ** 64n - 1n, CURVE_ORDER - 1n, CURVE_ORDER - 2n ** 63n]) {
      expect(configError(production({ SIGNER_PRIVATE_KEY: hex32(k) })), k.toString(16)).toContain(
        "SIGNER_PRIVATE_KEY is a weak key",
      );
    }
    // Locally any key goes (the Dev wallet's), but not one that is no key at all.
    expect(loadConfig(validEnv({ SIGNER_PRIVATE_KEY: hex32(1n) })).chainId).toBe(31337);
    for (const k of [0n, CURVE_ORDER, CURVE_ORDER + 5n]) {
      expect(configError(validEnv({ SIGNER_PRIVATE_KEY: hex32(k) }))).toContain(
        "SIGNER_PRIVATE_KEY is not a secp256k1 private key",
      );
    }
    // A random key passes.
    expect(loadConfig(production()).signerPrivateKey).toBe(PRODUCTION_SECRETS.SIGNER_PRIVATE_KEY);
  });

  it("refuses an EMAIL_LINK_SECRET that is the signer key, however it is spelled", () => {
    const key = PRODUCTION_SECRETS.SIGNER_PRIVATE_KEY;
    for (const secret of [key, key.toUpperCase().replace("0X", "0x"), key.slice(2)]) {
      expect(configError(production({ EMAIL_LINK_SECRET: secret }))).toContain(
        "EMAIL_LINK_SECRET must not be the signer key",
      );
    }
  });
});

describe("the media origin", () => {
  it("refuses plain http off the local chain", () => {
    expect(configError(production({ MEDIA_PUBLIC_URL: "http://media.easelcontent.net" }))).toContain(
      "MEDIA_PUBLIC_URL must start with https://",
    );
  });

  it("refuses the site itself or a host that shares its cookies", () => {
    for (const media of [
      "https://easel.art",
      "https://easel.art:8443",
      "https://media.easel.art",
      "https://cdn.media.easel.art",
      "https://EASEL.ART.",
    ]) {
      expect(configError(production({ MEDIA_PUBLIC_URL: media })), media).toContain(
        "MEDIA_PUBLIC_URL must be on another site than PUBLIC_URL",
      );
    }
    // The site on a subdomain, media on its parent: the parent's cookies reach the site.
    expect(
      configError(production({ PUBLIC_URL: "https://www.easel.art", MEDIA_PUBLIC_URL: "https://easel.art" })),
    ).toContain("MEDIA_PUBLIC_URL must be on another site");
    // Another registrable domain is what docs/operating.md asks for.
    const config = loadConfig(production({ MEDIA_PUBLIC_URL: "https://media.easelcontent.net/" }));
    expect(config.mediaPublicUrl).toBe("https://media.easelcontent.net");
    // A name that merely ends with the same letters is another site.
    expect(sameSite("noteasel.art", "easel.art")).toBe(false);
  });
});

describe("the local chain in a production build", () => {
  it("refuses CHAIN_ID 31337 with NODE_ENV=production unless ALLOW_LOCAL_CHAIN_IN_PRODUCTION=1", () => {
    expect(configError(validEnv({ NODE_ENV: "production" }))).toContain(
      "CHAIN_ID 31337 (the local chain) with NODE_ENV=production",
    );
    expect(
      loadConfig(validEnv({ NODE_ENV: "production", ALLOW_LOCAL_CHAIN_IN_PRODUCTION: "1" })).localChain,
    ).toBe(true);
    expect(loadConfig(validEnv({ NODE_ENV: "development" })).localChain).toBe(true);
    expect(loadConfig(production({ NODE_ENV: "production" })).chainId).toBe(1);
  });
});

describe("settings that open the service to everyone", () => {
  it("warns about metrics on every interface and a TRUST_PROXY that believes every client", () => {
    expect(loadConfig(production()).warnings).toEqual([]);
    const open = loadConfig(
      production({ METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0", TRUST_PROXY: "true" }),
    );
    expect(open.trustProxy).toBe(true);
    expect(open.warnings).toHaveLength(2);
    expect(open.warnings[0]).toContain("METRICS_HOST=0.0.0.0");
    expect(open.warnings[1]).toContain("TRUST_PROXY trusts every address");
    expect(loadConfig(production({ TRUST_PROXY: "10.0.0.0/8, 0.0.0.0/0" })).warnings[0]).toContain(
      "TRUST_PROXY trusts every address",
    );
    expect(
      loadConfig(production({ METRICS_PORT: "9464", METRICS_HOST: "10.1.2.3", TRUST_PROXY: "1" })).warnings,
    ).toEqual([]);
  });

  it("says so in the production role's log", () => {
    const entry = fileURLToPath(new URL("../src/bin/api.ts", import.meta.url));
    // The database is never reached: the role logs its warnings, then waits for it, and is ended.
    const result = spawnSync(process.execPath, ["--import", "tsx", entry], {
      env: {
        ...validEnv({ TRUST_PROXY: "true", DATABASE_URL: "postgres://easel:easel@127.0.0.1:1/easel" }),
        PATH: process.env.PATH,
      },
      encoding: "utf8",
      timeout: 8_000,
    });
    expect(result.stdout).toContain("configuration warning: TRUST_PROXY trusts every address");
  });

  it("refuses the production role on a weak key, with one line and exit code 1", () => {
    const entry = fileURLToPath(new URL("../src/bin/api.ts", import.meta.url));
    const result = spawnSync(process.execPath, ["--import", "tsx", entry], {
      env: { ...production({ SIGNER_PRIVATE_KEY: hex32(1n) }), PATH: process.env.PATH },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      "Invalid configuration: SIGNER_PRIVATE_KEY is a weak key (a small number, or one just below the curve order): anyone can find it; use a random key outside the local chain",
    );
  });
});
