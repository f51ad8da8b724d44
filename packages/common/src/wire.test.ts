import { describe, expect, it } from "vitest";
import { apiErrorSchema, publicConfigSchema } from "./api.ts";
import { readApiError, readPublicConfig } from "./wire.ts";

const config = {
  chainId: 31337,
  localChain: true,
  rpcUrl: "http://127.0.0.1:8545",
  explorerUrl: null,
  contracts: { market: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
  ens: false,
  mediaUrl: null,
};

// Each case goes to the hand-written reader and to the zod schema the server documents: both must agree.
const configCases: [string, unknown][] = [
  ["a local chain's config", config],
  [
    "an explorer, no RPC and a media origin",
    { ...config, rpcUrl: null, explorerUrl: "https://etherscan.io", mediaUrl: "https://media.example" },
  ],
  ["mediaUrl missing", { ...config, mediaUrl: undefined }],
  ["a WalletConnect project id", { ...config, walletConnectProjectId: "0123456789abcdef0123456789abcdef" }],
  ["WalletConnect off", { ...config, walletConnectProjectId: null }],
  ["a WalletConnect project id as a number", { ...config, walletConnectProjectId: 7 }],
  ["chain id 0", { ...config, chainId: 0 }],
  ["a negative chain id", { ...config, chainId: -1 }],
  ["a fractional chain id", { ...config, chainId: 1.5 }],
  ["a chain id as a string", { ...config, chainId: "1" }],
  ["localChain missing", { ...config, localChain: undefined }],
  ["ens as a string", { ...config, ens: "false" }],
  ["rpcUrl a number", { ...config, rpcUrl: 8545 }],
  ["a contract address too short", { ...config, contracts: { market: "0x1234" } }],
  ["a contract address as a number", { ...config, contracts: { market: 1 } }],
  ["contracts as an array", { ...config, contracts: ["0x5FbDB2315678afecb367f032d93F642f64180aa3"] }],
  ["null", null],
  ["an array", [config]],
];

const errorCases: [string, unknown][] = [
  ["an error", { error: { code: "not_found", message: "User not found." } }],
  ["an error with fields", { error: { code: "invalid", message: "Bad", fields: { name: "Too long" } } }],
  ["a field message that is not text", { error: { code: "invalid", message: "Bad", fields: { name: 1 } } }],
  ["no code", { error: { message: "Bad" } }],
  ["a message that is not text", { error: { code: "x", message: 2 } }],
  ["a proxy's body", { message: "Bad gateway" }],
  ["text", "Bad gateway"],
  ["null", null],
];

describe("the first load's hand-written checks agree with the API's schemas", () => {
  it.each(configCases)("public config: %s", (_, body) => {
    const parsed = publicConfigSchema.safeParse(body);
    expect(readPublicConfig(body)).toEqual(parsed.success ? parsed.data : null);
  });

  it.each(errorCases)("API error: %s", (_, body) => {
    const parsed = apiErrorSchema.safeParse(body);
    expect(readApiError(body)).toEqual(parsed.success ? parsed.data.error : null);
  });

  it("the cases include bodies both accept and bodies both refuse", () => {
    const accepted = configCases.filter(([, body]) => readPublicConfig(body) !== null).length;
    expect(accepted).toBe(4);
    expect(errorCases.filter(([, body]) => readApiError(body) !== null).length).toBe(2);
  });
});
