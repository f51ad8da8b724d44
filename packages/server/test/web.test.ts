import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccountsApi, startAccountsApi } from "./accounts-helpers.ts";

let api: AccountsApi;
let web: string;
const script = `export const art = "${"brush stroke ".repeat(400)}";\n`;

beforeAll(async () => {
  // A build as the web app's makes it: fingerprinted assets with .br and .gz copies beside them.
  web = mkdtempSync(join(tmpdir(), "easel-web-"));
  mkdirSync(join(web, "assets"));
  writeFileSync(
    join(web, "index.html"),
    "<!doctype html><html><head><title>Easel</title></head><body><div id=root></div></body></html>",
  );
  writeFileSync(join(web, "assets", "app-3f2a.js"), script);
  writeFileSync(join(web, "assets", "app-3f2a.js.br"), brotliCompressSync(script));
  writeFileSync(join(web, "assets", "app-3f2a.js.gz"), gzipSync(script));
  api = await startAccountsApi({ WEB_DIST: web });
});
afterAll(async () => {
  await api.close();
  rmSync(web, { recursive: true, force: true });
});

describe("the web app's files", () => {
  const asset = (encoding?: string) =>
    fetch(`${api.url}/assets/app-3f2a.js`, { headers: encoding ? { "accept-encoding": encoding } : {} });

  it("are sent precompressed to browsers that take brotli or gzip, as they are to others, cached for good", async () => {
    const br = await asset("gzip, deflate, br");
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toMatch(/accept-encoding/i);
    expect(br.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // fetch decodes the body: what arrives is the script itself.
    expect(await br.text()).toBe(script);

    // The bytes on the wire (node:http does not decode them): the gzip copy, a fraction of the script.
    const gz = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      get(`${api.url}/assets/app-3f2a.js`, { headers: { "accept-encoding": "gzip" } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }),
        );
      }).on("error", reject);
    });
    expect(gz.encoding).toBe("gzip");
    expect(gz.body.length).toBeLessThan(script.length / 5);
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await asset("identity");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(script);
  });

  it("are not counted by the API's rate limit, nor is the health check the app polls", async () => {
    // More than the 1,200 a minute one address may send to the API: pages, assets and health checks.
    const statuses = new Set<number>();
    for (let batch = 0; batch < 13; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          fetch(`${api.url}${["/assets/app-3f2a.js", "/ExploreNFTs", "/api/health"][i % 3]}`),
        ),
      );
      for (const response of responses) {
        statuses.add(response.status);
        await response.arrayBuffer();
      }
    }
    expect([...statuses].filter((status) => status === 429)).toEqual([]);
    // The API itself is still counted for this address.
    const config = await fetch(`${api.url}/api/config`);
    expect(Number(config.headers.get("x-ratelimit-remaining"))).toBeGreaterThan(1100);
  });

  it("answer every client-side route with a fresh index.html", async () => {
    for (const path of ["/ExploreNFTs", "/"]) {
      const page = await fetch(`${api.url}${path}`, { headers: { "accept-encoding": "br" } });
      expect(page.status, path).toBe(200);
      expect(page.headers.get("cache-control"), path).toBe("no-cache");
      expect(await page.text(), path).toContain("<div id=root>");
    }
  });

  it("carry the public config in every page, the same as GET /api/config, so the app starts without asking", async () => {
    const config = await (await fetch(`${api.url}/api/config`)).json();
    for (const path of ["/", "/ExploreNFTs", "/collection/Anything"]) {
      const html = await (await fetch(`${api.url}${path}`)).text();
      const block = html.match(
        /<script type="application\/json" id="easel-config">(.*?)<\/script><\/head>/,
      )?.[1];
      expect(block, path).toBeTruthy();
      expect(JSON.parse(block as string), path).toEqual(config);
    }
  });
});

describe("the public config block", () => {
  it("cannot be closed by a value, and leaves a page without a head as it is", async () => {
    const { withPublicConfig } = await import("../src/app.ts");
    const hostile = {
      chainId: 1,
      localChain: false,
      rpcUrl: "</script><script>alert(1)</script>",
      explorerUrl: null,
      contracts: {},
      ens: true,
    };
    const html = withPublicConfig("<html><head></head><body></body></html>", hostile);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const json = html.match(/id="easel-config">(.*?)<\/script>/)?.[1] as string;
    expect(JSON.parse(json).rpcUrl).toBe(hostile.rpcUrl);
    expect(withPublicConfig("<div id=root></div>", hostile)).toBe("<div id=root></div>");
  });
});
