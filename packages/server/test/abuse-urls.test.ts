/**
 * Attacks through how a request is spelled or framed, each refused: another spelling of a limited path, a
 * malformed multipart body, page sizes that each made a statement of their own. Real HTTP server, real
 * PostgreSQL.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ITEM_SORTS, MAX_PAGE_SIZE } from "@easel/common";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { createChainClient } from "../src/chain/client.ts";
import { loadConfig } from "../src/config.ts";
import { createDatabase } from "../src/db/client.ts";
import { createScratchDatabase } from "../src/indexer/testing.ts";
import { type AccountsApi, startAccountsApi, type TestUser } from "./accounts-helpers.ts";
import { startTestApi, validEnv } from "./helpers.ts";

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
let artist: TestUser;
let member: TestUser;
const works = `0x${"b2".repeat(20)}`;
const lazyWorks = `0x${"c3".repeat(20)}`;

beforeAll(async () => {
  // A database of its own, holding a verified artist and their collections as the indexer writes them.
  scratch = await createScratchDatabase(inject("databaseUrl"), "urls");
  api = await startAccountsApi({ DATABASE_URL: scratch.url });
  artist = await api.signIn();
  member = await api.signIn();
  await scratch.db.execute(sql`
    INSERT INTO chain_accounts (address, verified_artist, updated_block) VALUES (${artist.address}, true, 1)`);
  await scratch.db.execute(sql`
    INSERT INTO chain_collections (address, kind, owner, name, symbol, category, max_supply, created_block, created_tx, created_at)
    VALUES (${works}, 'standard', ${artist.address}, 'Works', 'WRK', '', 0, 1, '0x', now()),
           (${lazyWorks}, 'lazy', ${artist.address}, 'Lazy works', 'LZY', '', 0, 1, '0x', now())`);
});
afterAll(async () => {
  await api?.close();
  await scratch?.drop();
});

type Answer = { status: number; text: string };

/** A request sent with its path exactly as given: fetch would clean `/./` and `//` up before sending. */
function raw(
  base: string,
  method: string,
  path: string,
  options: { body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: options.headers },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** Other spellings of an `/api/…` path: ones the router decodes to the same route, and ones it may not. */
function spellings(path: string): string[] {
  const rest = path.slice("/api/".length);
  const lastSlash = path.lastIndexOf("/");
  const last = path.at(-1) ?? "";
  return [
    `/%61pi/${rest}`,
    `/%61%70%69/${rest}`,
    `${path.slice(0, -1)}%${last.charCodeAt(0).toString(16)}`,
    `${path.slice(0, -1)}%${last.charCodeAt(0).toString(16).toUpperCase()}`,
    `/api%2F${rest}`,
    `/api%2f${rest}`,
    `${path.slice(0, lastSlash)}%2F${path.slice(lastSlash + 1)}`,
    `/api//${rest}`,
    `//api/${rest}`,
    `/api/./${rest}`,
    `/./api/${rest}`,
    `/api/x/../${rest}`,
    `/API/${rest}`,
    path.toUpperCase(),
    `${path}/`,
    `${path}//`,
    `${path}?`,
    `${path}#fragment`,
  ];
}

describe("every spelling of a path meets the limits of the route it reaches", () => {
  const routes: {
    name: string;
    method: string;
    path: string;
    limit: number;
    send: () => { body?: string; headers: Record<string, string> };
  }[] = [
    {
      name: "sign-in nonce",
      method: "GET",
      path: "/api/auth/nonce",
      limit: 60,
      send: () => ({ headers: {} }),
    },
    {
      name: "newsletter",
      method: "POST",
      path: "/api/marketing/subscribe",
      limit: 10,
      // An address nobody owns: the limit is counted before anything is mailed.
      send: () => ({
        body: JSON.stringify({ email: "not-an-address" }),
        headers: { "content-type": "application/json" },
      }),
    },
    {
      name: "reports, per wallet",
      method: "POST",
      path: "/api/reports",
      limit: 30,
      send: () => ({ body: "{}", headers: { "content-type": "application/json", cookie: member.cookie } }),
    },
    ...["/api/mint", "/api/mint/lazymint"].map((path) => ({
      name: `upload ${path}`,
      method: "POST",
      path,
      limit: 60,
      send: () => ({ body: "", headers: { "content-type": "multipart/form-data; boundary=x" } }),
    })),
    {
      name: "profile upload",
      method: "POST",
      path: "/api/profile/media_uploader",
      limit: 30,
      send: () => ({ body: "", headers: { "content-type": "multipart/form-data; boundary=x" } }),
    },
  ];

  for (const route of routes) {
    it(`${route.name}: once ${route.path} is refused, no other spelling is answered`, async () => {
      const send = (path: string, method = route.method) => raw(api.url, method, path, route.send());
      // Spent through the plain path (sign-in took some of it already).
      let answered = 0;
      while ((await send(route.path)).status !== 429) expect(++answered).toBeLessThanOrEqual(route.limit);
      expect(answered).toBeGreaterThan(route.limit - 5);
      const reached: string[] = [];
      for (const path of spellings(route.path)) {
        const { status, text } = await send(path);
        // Refused by the limit, or no route at all: never the route without its limit.
        if (status !== 429 && status !== 404) reached.push(`${path} → ${status} ${text.slice(0, 80)}`);
      }
      expect(reached).toEqual([]);
    });
  }

  it("HEAD runs a GET route's handler, so it spends the GET's budget", async () => {
    const own = await startTestApi();
    try {
      let answered = 0;
      while ((await raw(own.url, "GET", "/api/auth/nonce")).status !== 429)
        expect(++answered).toBeLessThan(61);
      expect((await raw(own.url, "HEAD", "/api/auth/nonce")).status).toBe(429);
    } finally {
      await own.close();
    }
  });

  it("an encoded spelling of an unknown API path is the API's 404, not the app's page", async () => {
    const dist = mkdtempSync(join(tmpdir(), "easel-dist-"));
    writeFileSync(join(dist, "index.html"), "<!doctype html><html><head></head><body></body></html>");
    const own = await startTestApi({ WEB_DIST: dist });
    try {
      for (const path of ["/api/nothing-here", "/%61pi/nothing-here", "/api%2Fnothing-here"]) {
        const { status, text } = await raw(own.url, "GET", path);
        expect(status, path).toBe(404);
        expect(JSON.parse(text)).toMatchObject({ error: { code: "not_found" } });
      }
      // Pages are still pages.
      expect((await raw(own.url, "GET", "/explore")).status).toBe(200);
    } finally {
      await own.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it("an encoded spelling of a read counts against the flood guard like the plain one", async () => {
    const own = await startTestApi();
    try {
      const paths = ["/api/config", "/%61pi/config", "/api/confi%67"];
      let refused = 0;
      // 1,200 a minute per client: spent through the spellings in turn, so each must count.
      for (let i = 0; i < 1260 && refused === 0; i += 12) {
        const answers = await Promise.all(
          Array.from({ length: 12 }, (_, j) => raw(own.url, "GET", paths[(i + j) % paths.length] ?? "")),
        );
        refused = answers.filter((a) => a.status === 429).length;
      }
      expect(refused).toBeGreaterThan(0);
      for (const path of paths) expect((await raw(own.url, "GET", path)).status, path).toBe(429);
    } finally {
      await own.close();
    }
  }, 60_000);
});

describe("a malformed multipart body is the client's error", () => {
  const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");
  const part = (boundary: string) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
    ]);
  const bodies: { name: string; contentType: string; body: Buffer }[] = [
    {
      name: "no boundary",
      contentType: "multipart/form-data",
      body: Buffer.concat([part("x"), Buffer.from("\r\n--x--\r\n")]),
    },
    {
      name: "a boundary the body does not use",
      contentType: "multipart/form-data; boundary=expected",
      body: Buffer.concat([part("other"), Buffer.from("\r\n--other--\r\n")]),
    },
    { name: "a body cut inside the file", contentType: "multipart/form-data; boundary=x", body: part("x") },
    { name: "an empty boundary", contentType: "multipart/form-data; boundary=", body: part("x") },
    {
      name: "a boundary longer than the parser takes",
      contentType: `multipart/form-data; boundary=${"b".repeat(300)}`,
      body: part("b".repeat(300)),
    },
  ];
  const uploads = [
    { path: "/api/mint", user: () => artist },
    { path: "/api/mint/lazymint", user: () => artist },
    { path: "/api/profile/media_uploader", user: () => member },
  ];

  for (const upload of uploads) {
    it(`${upload.path}: 400 invalid_multipart for each malformed body`, async () => {
      const answers: string[] = [];
      for (const { name, contentType, body } of bodies) {
        const { status, text } = await raw(api.url, "POST", upload.path, {
          body,
          headers: { "content-type": contentType, cookie: upload.user().cookie },
        });
        const code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        answers.push(`${name}: ${status} ${code}`);
      }
      expect(answers).toEqual(bodies.map(({ name }) => `${name}: 400 invalid_multipart`));
    });
  }

  it("logs a malformed body at info, not as an unexpected error", async () => {
    const lines: string[] = [];
    const logStream = {
      write(chunk: string) {
        lines.push(...chunk.split("\n").filter(Boolean));
        return true;
      },
    } as unknown as NodeJS.WritableStream;
    const config = loadConfig(
      validEnv({ DATABASE_URL: scratch.url, MEDIA_DIR: api.config.mediaDir, LOG_LEVEL: "info" }),
    );
    const db = createDatabase(config.databaseUrl);
    const own = await buildApp(
      { config, db, chain: createChainClient(config.chainId, config.rpcUrls) },
      { rateLimitScope: `${Math.random()}:`, logStream },
    );
    try {
      const url = await own.listen({ host: "127.0.0.1", port: 0 });
      // The session is in the shared database: the member is signed in on this API too.
      const { status } = await raw(url, "POST", "/api/profile/media_uploader", {
        body: Buffer.concat([part("x"), Buffer.from("\r\n--x--\r\n")]),
        headers: { "content-type": "multipart/form-data", cookie: member.cookie },
      });
      expect(status).toBe(400);
      const logged = lines.map((line) => JSON.parse(line) as { level: number; msg?: string });
      expect(logged.filter((line) => line.level >= 50)).toEqual([]);
      expect(logged.find((line) => line.msg === "malformed multipart body")?.level).toBe(30);
    } finally {
      await own.close();
      await db.$client.end();
    }
  });
});

describe("values a client picks do not each make a prepared statement", () => {
  let db: ReturnType<typeof createDatabase>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    const config = loadConfig(validEnv({ DATABASE_URL: scratch.url }));
    // One read connection, so the statements counted are those every request prepared.
    db = createDatabase(config.databaseUrl, { readConnections: 1 });
    app = await buildApp(
      { config, db, chain: createChainClient(config.chainId, config.rpcUrls) },
      { logger: false, rateLimitScope: `${Math.random()}:` },
    );
  });
  afterAll(async () => {
    await app?.close();
    await db?.$client.end();
  });
  const prepared = async () =>
    Number((await db.$repeated.execute(sql`SELECT count(*) AS n FROM pg_prepared_statements`)).rows[0]?.n);
  const read = async (url: string) => {
    const response = await app.inject({ method: "GET", url });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  };

  it("reads every page size of explore and of a collection's activity with a few statements", async () => {
    const sorts = ITEM_SORTS.slice(0, 3);
    const before = await prepared();
    for (let limit = 1; limit <= MAX_PAGE_SIZE; limit++) {
      for (const sort of sorts) await read(`/api/explore?sort=${sort}&limit=${limit}`);
      await read(`/api/collection/activity?id=${works}&limit=${limit}`);
    }
    const made = (await prepared()) - before;
    // A handful of page sizes per list (and what a page's cards need), not one per size asked for.
    expect(made).toBeLessThanOrEqual(4 * (sorts.length + 1));
  }, 60_000);

  it("reads explore's collections for 1 to 50 artwork types with the same statements", async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(",");
    await read(`/api/explore/collections?category_web2_ids=${ids(1)}`);
    const before = await prepared();
    for (let n = 2; n <= 50; n++) await read(`/api/explore/collections?category_web2_ids=${ids(n)}`);
    expect((await prepared()) - before).toBe(0);
  }, 60_000);
});
