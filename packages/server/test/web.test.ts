import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { INTER_COOKIE, SESSION_COOKIE } from "@easel/common";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profiles } from "../src/db/schema.ts";
import { LEAD_MARK } from "../src/web/firstPaint.ts";
import { withInterLater } from "../src/web/webFont.ts";
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
    `<!doctype html><html><head><meta charset="UTF-8" /><title>Easel</title><script type="module" src="/assets/app-3f2a.js"></script><link rel="modulepreload" href="/assets/shared-9c1d.js"></head><body><div id=root><main>${LEAD_MARK}<div role="status"></div></main></div></body></html>`,
  );
  // Vite's manifest: the entry and a page, each with its static imports.
  mkdirSync(join(web, ".vite"));
  writeFileSync(
    join(web, ".vite", "manifest.json"),
    JSON.stringify({
      // The entry's styles are inlined in index.html: no page links them again.
      "index.html": {
        file: "assets/app-3f2a.js",
        isEntry: true,
        imports: ["_shared.js"],
        css: ["assets/app-3f2a.css"],
      },
      "_shared.js": { file: "assets/shared-9c1d.js" },
      "_follow.js": { file: "assets/follow-77aa.js", imports: ["_shared.js"], css: ["assets/app-3f2a.css"] },
      "src/pages/UserProfile.tsx": {
        file: "assets/UserProfile-41be.js",
        imports: ["_shared.js", "_follow.js"],
        css: ["assets/UserProfile-41be.css"],
      },
      "src/pages/Home.tsx": { file: "assets/Home-0d2e.js", imports: ["_shared.js"] },
    }),
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
          fetch(`${api.url}${["/assets/app-3f2a.js", "/FAQ", "/api/health"][i % 3]}`),
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
    const remaining = Number(config.headers.get("x-ratelimit-remaining"));
    expect(remaining).toBeGreaterThan(1100);
    // A landing page's first answers are reads of the API for its visitor, counted as the app's own would be:
    // the marketplace carries two (who is signed in, the first cards), so flooding pages is limited as well.
    await (await fetch(`${api.url}/ExploreNFTs`)).text();
    const after = await fetch(`${api.url}/api/config`);
    expect(Number(after.headers.get("x-ratelimit-remaining"))).toBe(remaining - 3);
  });

  it("answer every client-side route with a fresh index.html", async () => {
    for (const path of ["/ExploreNFTs", "/"]) {
      const page = await fetch(`${api.url}${path}`, { headers: { "accept-encoding": "br" } });
      expect(page.status, path).toBe(200);
      // Fresh every time, and the visitor's own (it carries their answers): never in a shared cache.
      expect(page.headers.get("cache-control"), path).toBe("private, no-cache");
      expect(await page.text(), path).toContain("<div id=root>");
    }
  });

  it("answer pages compressed for browsers that take brotli or gzip, the same page as sent plain", async () => {
    const raw = (encoding: string) =>
      new Promise<{ encoding: string | undefined; vary: string | undefined; body: Buffer }>(
        (resolve, reject) => {
          get(`${api.url}/ExploreNFTs`, { headers: { "accept-encoding": encoding } }, (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () =>
              resolve({
                encoding: response.headers["content-encoding"],
                vary: response.headers.vary,
                body: Buffer.concat(chunks),
              }),
            );
          }).on("error", reject);
        },
      );
    const plain = await raw("identity");
    expect(plain.encoding).toBeUndefined();
    const br = await raw("gzip, deflate, br");
    expect(br.encoding).toBe("br");
    expect(br.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.body.toString());
    // br refused (q=0): gzip.
    const gz = await raw("br;q=0, gzip");
    expect(gz.encoding).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(plain.body.toString());
  });

  it("read in Inter's fallback until the browser has said it has Inter, on every page", async () => {
    for (const path of ["/", "/ExploreNFTs", "/collection/Anything", "/no/such/page/here"]) {
      const first = await (await fetch(`${api.url}${path}`)).text();
      expect(first, path).toMatch(/^<!doctype html><html class="inter-later"><head>/);
      for (const cookie of [`${INTER_COOKIE}=1`, `other=2; ${INTER_COOKIE}=1`]) {
        const later = await (await fetch(`${api.url}${path}`, { headers: { cookie } })).text();
        expect(later, `${path} ${cookie}`).toMatch(/^<!doctype html><html><head>/);
      }
      // Any other value is not the app's word.
      const forged = await (
        await fetch(`${api.url}${path}`, { headers: { cookie: `${INTER_COOKIE}=yes` } })
      ).text();
      expect(forged, path).toContain('<html class="inter-later">');
    }
    expect(withInterLater('<html lang="en">')).toBe('<html lang="en" class="inter-later">');
    expect(withInterLater('<html lang="en" class="dark">')).toBe('<html lang="en" class="inter-later dark">');
  });

  it("carry the public config in every page, the same as GET /api/config, so the app starts without asking", async () => {
    const config = await (await fetch(`${api.url}/api/config`)).json();
    for (const path of ["/", "/ExploreNFTs", "/collection/Anything"]) {
      const html = await (await fetch(`${api.url}${path}`)).text();
      const block = html.match(/<script type="application\/json" id="easel-config">(.*?)<\/script>/)?.[1];
      expect(block, path).toBeTruthy();
      expect(JSON.parse(block as string), path).toEqual(config);
    }
  });
});

describe("a landing page's first paint", () => {
  const page = async (path: string, cookie?: string) =>
    (await fetch(`${api.url}${path}`, { headers: cookie ? { cookie } : {} })).text();
  const answers = (html: string) => {
    const block = html.match(/<script type="application\/json" id="easel-answers">(.*?)<\/script>/)?.[1];
    return block === undefined ? null : (JSON.parse(block) as Record<string, unknown>);
  };
  const banner = "bafkreibannerbannerbannerbannerbannerbannerbannerbannerbanner";
  const pageCode = (html: string) => {
    const block = html.match(/<script type="application\/json" id="easel-page-code">(.*?)<\/script>/)?.[1];
    return block === undefined ? null : (JSON.parse(block) as string[]);
  };

  it("carries the page's code, its first read answered as the API answers it, and its banner where the page draws it", async () => {
    const artist = await api.signIn();
    await api.db
      .update(profiles)
      .set({ username: "mira", name: "Mira", banner })
      .where(eq(profiles.address, artist.address));
    const html = await page("/profile/mira");

    // The page's own code, without what index.html already loads, named for the app's entry to fetch once
    // the banner has painted: not preloaded beside it.
    expect(pageCode(html)).toEqual(["/assets/UserProfile-41be.js", "/assets/follow-77aa.js"]);
    expect(html).not.toContain('<link rel="modulepreload" crossorigin href="/assets/UserProfile-41be.js">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/UserProfile-41be.css">');
    expect(html.match(/shared-9c1d\.js/g)).toHaveLength(1);
    expect(html).not.toContain("app-3f2a.css");

    // The first read, exactly what the app would fetch, answered as the API answers it.
    const api_ = await (await fetch(`${api.url}/api/profile?userkey=mira`)).json();
    const session = await (await fetch(`${api.url}/api/auth/session`)).json();
    expect(answers(html)).toEqual({ "/api/auth/session": session, "/api/profile?userkey=mira": api_ });

    // The banner: preloaded, and drawn in the frame at the mark. The fetches come first in the head, before
    // the (inlined) stylesheet and the app's script.
    expect(html).toContain(
      `<meta charset="UTF-8" /><link rel="preload" as="image" href="/ipfs/${banner}" fetchpriority="high">`,
    );
    expect(html.indexOf("UserProfile-41be.css")).toBeLessThan(html.indexOf("app-3f2a.js"));
    const main = html.match(/<main>(.*)<\/main>/)?.[1] ?? "";
    expect(main).toMatch(
      new RegExp(`^<div class="w-full"><div class="aspect-\\[12/5\\][^"]*"><img src="/ipfs/${banner}"`),
    );
    expect(main).toContain('<div role="status"></div>');
  });

  it("reads as the visitor: a signed-in visitor's answer is their own", async () => {
    const artist = await api.signIn();
    await api.db.update(profiles).set({ username: "noor" }).where(eq(profiles.address, artist.address));
    const fan = await api.signIn();
    const follow = await api.call("POST", "/api/profile/follow", {
      user: fan,
      body: { userAddress: artist.address },
    });
    expect(follow.status).toBe(200);
    const read = "/api/profile?userkey=noor";
    const asFan = answers(await page("/profile/noor", fan.cookie))?.[read] as {
      data: { isFollowing: boolean };
    };
    const asStranger = answers(await page("/profile/noor"))?.[read] as { data: { isFollowing: boolean } };
    expect(asFan.data.isFollowing).toBe(true);
    expect(asStranger.data.isFollowing).toBe(false);
    // Who is signed in comes with the page too, so its first paint knows the visitor.
    const session = (html: string) =>
      answers(html)?.["/api/auth/session"] as { session: { address: string } | null };
    expect(session(await page("/profile/noor", fan.cookie)).session?.address).toBe(fan.address);
    expect(session(await page("/profile/noor")).session).toBeNull();
    // A cookie that signs in no one is cleared by the page, as by the session read itself.
    const stale = await fetch(`${api.url}/profile/noor`, { headers: { cookie: `${SESSION_COOKIE}=stale` } });
    expect(stale.headers.get("set-cookie")).toMatch(
      new RegExp(`^${SESSION_COOKIE}=;.*Expires=Thu, 01 Jan 1970`),
    );
  });

  it("names the chain's position its answers were read after, as the page's live stream names it until a batch lands", async () => {
    const positionOf = (html: string) => {
      const block = html.match(
        /<script type="application\/json" id="easel-chain-position">(.*?)<\/script>/,
      )?.[1];
      return block === undefined ? null : (JSON.parse(block) as string);
    };
    const streamPosition = async () => {
      const abort = new AbortController();
      const response = await fetch(`${api.url}/api/events?account=0x${"1".repeat(40)}`, {
        signal: abort.signal,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = "";
      while (!/event: ready\ndata: .*\n\n/.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        text += new TextDecoder().decode(value);
      }
      abort.abort();
      return (JSON.parse(text.match(/event: ready\ndata: (.*)\n\n/)?.[1] ?? "{}") as { position?: string })
        .position;
    };
    const before = positionOf(await page("/"));
    expect(before).toEqual(expect.any(String));
    expect(await streamPosition()).toBe(before);
    // An event the indexer stored (here by hand): the page and the stream both name it.
    const { rows } = await api.db.$client.query(
      "SELECT coalesce(max(block_number), 0) + 1 AS next FROM chain_events",
    );
    const block = String(rows[0].next);
    await api.db.$client.query(
      `INSERT INTO chain_events (block_number, log_index, block_hash, tx_hash, address, name, args, block_time)
       VALUES ($1, 3, '0xfeed', '0xbeef', '0x${"2".repeat(40)}', 'Transfer', '{}', now())`,
      [block],
    );
    try {
      const after = positionOf(await page("/"));
      expect(after).toBe(`${block}:3:0xfeed`);
      expect(await streamPosition()).toBe(after);
      // A page without a first read carries no position: its stream refreshes as before.
      expect(positionOf(await page("/somewhere/else/entirely/x"))).toBeNull();
    } finally {
      await api.db.$client.query("DELETE FROM chain_events WHERE block_number = $1", [block]);
    }
  });

  it("carries no answer and no picture when the read fails, and no picture when the page leads with text", async () => {
    // Without a lead, nothing waits for a paint: the page's code is preloaded with the HTML.
    const missing = await page("/profile/nobody-here");
    expect(Object.keys(answers(missing) ?? {})).toEqual(["/api/auth/session"]);
    expect(missing).not.toContain('rel="preload" as="image"');
    expect(missing).toContain(`<main>${LEAD_MARK}<div role="status">`);
    expect(missing).toContain('<link rel="modulepreload" crossorigin href="/assets/UserProfile-41be.js">');
    expect(pageCode(missing)).toBeNull();

    // The home page leads with its hero's text, drawn in the frame; its code is fetched once it has painted.
    const home = await page("/");
    expect(Object.keys(answers(home) ?? {})).toEqual(["/api/auth/session", "/api/home"]);
    expect(pageCode(home)).toEqual(["/assets/Home-0d2e.js"]);
    expect(home).not.toContain('rel="modulepreload" crossorigin href="/assets/Home-0d2e.js"');
    expect(home).not.toContain('rel="preload" as="image"');
    expect(home.match(/<main>(.*)<\/main>/)?.[1]).toMatch(
      /^<div class="mx-auto w-full max-w-7xl px-4"><section class="py-16 sm:py-24"><h1 [^>]*>Digital art, collected on Ethereum\.<\/h1><p [^>]*>Easel is a marketplace/,
    );
    // A page with filters reads something else: no answer is guessed for it.
    expect(Object.keys(answers(await page("/ExploreNFTs?status=buyNow")) ?? {})).toEqual([
      "/api/auth/session",
    ]);
  });

  it("cannot be broken out of by what people write", async () => {
    const artist = await api.signIn();
    const name = "</script><script>alert(1)</script> $& $' $`";
    await api.db
      .update(profiles)
      .set({ username: "quill", name, bio: name })
      .where(eq(profiles.address, artist.address));
    const html = await page("/profile/quill");
    const read = answers(html)?.["/api/profile?userkey=quill"] as { data: { user: { name: string } } };
    expect(read.data.user.name).toBe(name);
    // The share preview's title carries the name as text, `$` patterns and all.
    expect(html).toContain(
      "<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; $&amp; $&#39; $` on Easel</title>",
    );
    expect(html).not.toContain("<script>alert(1)");
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
      mediaUrl: null,
    };
    const html = withPublicConfig("<html><head></head><body></body></html>", hostile);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const json = html.match(/id="easel-config">(.*?)<\/script>/)?.[1] as string;
    expect(JSON.parse(json).rpcUrl).toBe(hostile.rpcUrl);
    expect(withPublicConfig("<div id=root></div>", hostile)).toBe("<div id=root></div>");
  });
});
