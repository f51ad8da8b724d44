import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { configError, PRODUCTION_SECRETS, startTestApi, validEnv } from "./helpers.ts";

/** What production needs so that every API replica sees the same media and mail. */
const PRODUCTION_STORAGE = { MEDIA_DIR: "/shared/media", SMTP_URL: "smtps://user:pass@mail.example:465" };

describe("loadConfig", () => {
  it("reads a complete environment", () => {
    const config = loadConfig(validEnv({ RPC_URL: "http://a.example, https://b.example", PORT: "8080" }));
    expect(config.chainId).toBe(31337);
    expect(config.rpcUrls).toEqual(["http://a.example", "https://b.example"]);
    expect(config.port).toBe(8080);
    expect(config.contracts.factory).toBe("0x5fbdb2315678afecb367f032d93f642f64180aa3");
    expect(config.localChain).toBe(true);
    expect(config.siweDomains).toEqual(["127.0.0.1:3000", "localhost:3000"]);
  });

  it("takes an empty optional variable (METRICS_PORT= in an env file) for an unset one", () => {
    const empty = loadConfig(
      validEnv({
        METRICS_PORT: "",
        METRICS_HOST: "",
        DATABASE_READ_CONNECTIONS: "",
        ENS_UNIVERSAL_RESOLVER: "",
        DEPLOY_BLOCK: "",
        HOST: " ",
        PORT: "",
        SMTP_URL: "",
        DATA_DIR: "",
        MEDIA_DIR: "",
        MAIL_DIR: "",
        IPFS_API_URL: "",
        IPFS_API_AUTH: "",
        MEDIA_PUBLIC_URL: "",
        MAIL_FROM: "",
        OPERATOR_EMAILS: "",
        EMAIL_LINK_SECRET: "",
        ADMIN_ADDRESSES: "",
        TRUST_PROXY: "",
        REQUEST_TIMEOUT_SECONDS: "",
        UPLOAD_TIMEOUT_SECONDS: "",
        INDEXER_CONFIRMATIONS: "",
        WEB_DIST: "",
        LOG_LEVEL: "",
        NODE_ENV: "",
        ALLOW_LOCAL_CHAIN_IN_PRODUCTION: "",
      }),
    );
    expect(empty).toEqual(loadConfig(validEnv({ LOG_LEVEL: undefined, DATA_DIR: undefined })));
    expect(empty).toMatchObject({
      metrics: null,
      port: 3000,
      host: "0.0.0.0",
      logLevel: "info",
      trustProxy: false,
    });
    // A required variable left empty is still missing.
    expect(configError(validEnv({ DATABASE_URL: "" }))).toBe(
      "Invalid configuration: DATABASE_URL is missing",
    );
  });

  it("names a missing variable", () => {
    expect(configError(validEnv({ DATABASE_URL: undefined }))).toBe(
      "Invalid configuration: DATABASE_URL is missing",
    );
  });

  it("names malformed variables, all on one line", () => {
    const message = configError(
      validEnv({ CHAIN_ID: "5", SIGNER_PRIVATE_KEY: "0x1234", RPC_URL: "ftp://x" }),
    );
    expect(message).not.toContain("\n");
    expect(message).toContain("CHAIN_ID must be 1 (mainnet), 11155111 (Sepolia) or 31337 (local)");
    expect(message).toContain("SIGNER_PRIVATE_KEY must be a 0x-prefixed 32-byte hex private key");
    expect(message).toContain("RPC_URL must be a URL starting with http:// or https:// or ws:// or wss://");
  });

  it("rejects a database URL that is not PostgreSQL and a malformed address", () => {
    expect(configError(validEnv({ DATABASE_URL: "mysql://db/easel" }))).toContain(
      "DATABASE_URL must be a URL starting with postgres://",
    );
    expect(configError(validEnv({ MARKET_ADDRESS: "0x123" }))).toContain(
      "MARKET_ADDRESS must be a 0x-prefixed 20-byte hex address",
    );
  });

  it("does not accept the localhost alias outside the local chain", () => {
    const config = loadConfig(
      validEnv({
        CHAIN_ID: "1",
        PUBLIC_URL: "https://easel.art",
        ...PRODUCTION_STORAGE,
        ...PRODUCTION_SECRETS,
      }),
    );
    expect(config.siweDomains).toEqual(["easel.art"]);
    expect(config.browserRpcUrl).toBeNull();
  });
});

describe("production storage every replica sees", () => {
  it("refuses to start without a named media folder, and without SMTP or a named mail folder", () => {
    const message = configError(validEnv({ CHAIN_ID: "1", PUBLIC_URL: "https://easel.art" }));
    expect(message).toContain(
      "MEDIA_DIR is missing: in production media must live in a folder every API replica reads",
    );
    expect(message).toContain("SMTP_URL is missing: in production mail goes through SMTP");
    const withFiles = loadConfig(
      validEnv({
        CHAIN_ID: "1",
        PUBLIC_URL: "https://easel.art",
        MEDIA_DIR: "/shared/media",
        MAIL_DIR: "/shared/mail",
        ...PRODUCTION_SECRETS,
      }),
    );
    expect(withFiles).toMatchObject({
      mediaDir: "/shared/media",
      mailDir: "/shared/mail",
      smtpUrl: undefined,
    });
  });

  it("serves a built web app from WEB_DIST, and says when the build is missing", async () => {
    const dist = mkdtempSync(join(tmpdir(), "easel-dist-"));
    expect(configError(validEnv({ WEB_DIST: dist }))).toContain("WEB_DIST has no index.html");
    writeFileSync(join(dist, "index.html"), "<!doctype html><title>Easel</title>");
    expect(loadConfig(validEnv({ WEB_DIST: dist })).webDist).toBe(dist);
    expect(loadConfig(validEnv()).webDist).toBeNull();
    // The API process then answers the app's routes with the app, and /api with the API.
    const api = await startTestApi({ WEB_DIST: dist });
    try {
      for (const path of ["/", "/ExploreNFTs", "/profile/alice"]) {
        const page = await fetch(`${api.url}${path}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("<title>Easel</title>");
      }
      expect((await fetch(`${api.url}/api/no-such-route`)).status).toBe(404);
    } finally {
      await api.close();
    }
  });
});

describe("role entry points", () => {
  for (const role of ["api", "indexer", "worker"]) {
    it(`${role} exits with code 1 and one line naming the variable`, () => {
      const entry = fileURLToPath(new URL(`../src/bin/${role}.ts`, import.meta.url));
      const env = { ...validEnv({ DATABASE_URL: undefined }), PATH: process.env.PATH };
      const result = spawnSync(process.execPath, ["--import", "tsx", entry], {
        env,
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe("Invalid configuration: DATABASE_URL is missing");
    });
  }
});
