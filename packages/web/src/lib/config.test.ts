import { afterEach, describe, expect, it } from "vitest";
import { fakeApi } from "../test/harness.tsx";
import { loadPublicConfig } from "./config.ts";

const config = {
  chainId: 31337,
  localChain: true,
  rpcUrl: "http://127.0.0.1:8545",
  explorerUrl: null,
  contracts: { market: "0x5FbDB2315678afecb367f032d93F642f64180aa3" },
  ens: false,
  mediaUrl: null,
};

function inlineConfig(text: string) {
  const block = document.createElement("script");
  block.type = "application/json";
  block.id = "easel-config";
  block.textContent = text;
  document.head.append(block);
}

afterEach(() => document.getElementById("easel-config")?.remove());

describe("the public config at start", () => {
  it("is read from the page when the server put it there, without asking the API", async () => {
    const api = fakeApi({});
    inlineConfig(JSON.stringify(config));
    expect(await loadPublicConfig()).toEqual(config);
    expect(api.calls).toHaveLength(0);
  });

  it("is asked for when the page has none, or one that is not a config", async () => {
    const api = fakeApi({ "GET /api/config": () => ({ body: config }) });
    expect(await loadPublicConfig()).toEqual(config);
    inlineConfig('{"chainId": "1"');
    expect(await loadPublicConfig()).toEqual(config);
    document.getElementById("easel-config")?.remove();
    inlineConfig(JSON.stringify({ ...config, chainId: 0 }));
    expect(await loadPublicConfig()).toEqual(config);
    expect(api.calls.map((call) => call.path)).toEqual(["/api/config", "/api/config", "/api/config"]);
  });

  it("fails in words when the API's answer is not a config either", async () => {
    fakeApi({ "GET /api/config": () => ({ body: { ...config, contracts: { market: "0x12" } } }) });
    await expect(loadPublicConfig()).rejects.toThrow("The server sent an invalid configuration");
  });
});
