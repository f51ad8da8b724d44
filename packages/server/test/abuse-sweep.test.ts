/**
 * Every route of the API's own OpenAPI document, sent malformed values: path parameters, query values, JSON
 * bodies, content types and multipart shapes. Whatever a client sends, the answer is never a 5xx: bad input
 * is the client's error (4xx), found before it reaches PostgreSQL, the chain or the disk. Real HTTP server,
 * real PostgreSQL, signed in as a moderator who is also a verified artist, so the handlers behind the
 * sign-in checks run too.
 */
import { request as httpRequest } from "node:http";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { createScratchDatabase, startTestChain, type TestChain } from "../src/indexer/testing.ts";
import { type AccountsApi, startAccountsApi, type TestUser } from "./accounts-helpers.ts";

type Schema = {
  type?: string;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minimum?: number;
  properties?: Record<string, Schema>;
  items?: Schema;
};
type Parameter = { in: "path" | "query" | "header"; name: string; required?: boolean; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
};

let chain: TestChain;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let api: AccountsApi;
/** The signed-in users the sweep sends as: the moderator first, then members (per-wallet limits are shared). */
let users: TestUser[] = [];
const works = `0x${"d4".repeat(20)}`;

beforeAll(async () => {
  // A chain with Easel deployed (name checks, the price feed and listing counters read its contracts) and a
  // database of its own.
  [chain, scratch] = await Promise.all([
    startTestChain(),
    createScratchDatabase(inject("databaseUrl"), "sweep"),
  ]);
  // Behind one trusted proxy: each request comes from its own address, so the flood guard (meant for one
  // client) does not cut the sweep short.
  api = await startAccountsApi({ ...chain.env(scratch.url), TRUST_PROXY: "1" });
  users = [await api.admin(), await api.signIn(), await api.signIn(), await api.signIn()];
  // All verified artists, the moderator owning a collection: the upload and collection routes run past their checks.
  for (const user of users)
    await scratch.db.execute(sql`
      INSERT INTO chain_accounts (address, verified_artist, updated_block) VALUES (${user.address}, true, 1)`);
  await scratch.db.execute(sql`
    INSERT INTO chain_collections (address, kind, owner, name, symbol, category, max_supply, created_block, created_tx, created_at)
    VALUES (${works}, 'standard', ${users[0]?.address}, 'Works', 'WRK', '', 0, 1, '0x', now())`);
});
afterAll(async () => {
  await api?.close();
  await scratch?.drop();
  await chain?.stop();
});

let client = 0;
type Answer = { status: number; text: string };

/**
 * One request, its path sent exactly as given. A live stream (text/event-stream) is answered by its status
 * alone; any answer is given up after 10 s (a hang is reported as status 0).
 */
function send(
  method: string,
  path: string,
  options: { body?: string | Buffer; headers?: Record<string, string>; cookie?: string | null } = {},
): Promise<Answer> {
  const url = new URL(api.url);
  client = (client + 1) % 60_000;
  const headers: Record<string, string> = {
    "x-forwarded-for": `198.18.${client >> 8}.${client & 255}`,
    ...options.headers,
  };
  if (options.cookie) headers.cookie = options.cookie;
  return new Promise((resolve) => {
    const request = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers, timeout: 10_000 },
      (response) => {
        const status = response.statusCode ?? 0;
        if (String(response.headers["content-type"]).includes("event-stream")) {
          request.destroy();
          resolve({ status, text: "(stream)" });
          return;
        }
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          if (text.length < 400) text += chunk;
        });
        response.on("end", () => resolve({ status, text }));
        response.on("error", () => resolve({ status, text }));
      },
    );
    request.on("timeout", () => request.destroy(new Error("timeout")));
    request.on("error", (error) => resolve({ status: 0, text: String(error) }));
    request.end(options.body);
  });
}

/** A plausible value for a parameter or field, so a request gets past it to the one under test. */
function plausible(name: string, schema: Schema = {}): string {
  if (schema.enum?.length) return String(schema.enum[0]);
  if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000000";
  if (schema.pattern?.includes("{40}") || /address|collection|creator|account|userkey/i.test(name))
    return works;
  if (schema.type === "integer" || schema.type === "number") return String(Math.max(1, schema.minimum ?? 1));
  if (schema.type === "boolean") return "true";
  if (/token/i.test(name)) return "1";
  if (schema.pattern?.startsWith("^\\d")) return "1";
  return "a";
}

/** Values no route should be troubled by, already URL-encoded (some on purpose malformed). */
const BAD_VALUES: { name: string; encoded: string }[] = [
  { name: "empty", encoded: "" },
  { name: "huge", encoded: "9".repeat(40) },
  { name: "1e309", encoded: "1e309" },
  { name: "negative", encoded: "-1" },
  { name: "huge negative", encoded: `-${"9".repeat(40)}` },
  { name: "fraction", encoded: "1.5" },
  { name: "not a number", encoded: "abc" },
  { name: "NaN", encoded: "NaN" },
  { name: "Infinity", encoded: "Infinity" },
  { name: "hex", encoded: "0x1f" },
  { name: "spaces", encoded: "%20%201%20" },
  { name: "long", encoded: "x".repeat(8000) },
  { name: "broken escape", encoded: "%ZZ" },
  { name: "invalid UTF-8", encoded: "%C0%AF%FF" },
  { name: "cut UTF-8", encoded: "%F0%9F" },
  { name: "JSON-looking", encoded: encodeURIComponent('{"a":[1]}') },
  { name: "an encoded slash", encoded: "a%2F..%2Fb" },
  { name: "dot-dot", encoded: "%2E%2E" },
  { name: "an address in capitals", encoded: `0X${"D4".repeat(20)}` },
];

/** Headers a route reads (the session cookie, content negotiation, ranges), malformed. */
const BAD_HEADERS = (cookieName: string): Record<string, Record<string, string>> => ({
  "a session cookie of garbage": { cookie: `${cookieName}=%ZZ%C0${"x".repeat(3000)}` },
  "a session cookie twice": { cookie: `${cookieName}=a; ${cookieName}=b` },
  "an unreadable Accept": { accept: "application/vnd.ipld.car; version=9; order=x; dups=y, */*;q=NaN" },
  "an impossible Range": { range: `bytes=${"9".repeat(30)}-1` },
  "an If-None-Match of garbage": { "if-none-match": `"${"x".repeat(2000)}` },
  "a Cache-Control of garbage": { "cache-control": "only-if-cached, max-age=-1" },
});

/** Malformed and mistyped JSON bodies, and bodies of the wrong kind. */
function badBodies(schema: Schema | undefined): { name: string; body: string | Buffer; type?: string }[] {
  const base: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema?.properties ?? {})) {
    const value = plausible(name, field);
    base[name] =
      field.type === "integer" || field.type === "number"
        ? Number(value)
        : field.type === "boolean"
          ? true
          : field.type === "array"
            ? []
            : field.type === "object"
              ? {}
              : value;
  }
  const bodies: { name: string; body: string | Buffer; type?: string }[] = [
    { name: "cut JSON", body: '{"a":' },
    { name: "empty JSON", body: "" },
    { name: "null", body: "null" },
    { name: "an array", body: "[]" },
    { name: "a string", body: '"x"' },
    { name: "a number", body: "1e309" },
    { name: "__proto__", body: '{"__proto__":{"admin":true}}' },
    { name: "constructor.prototype", body: '{"constructor":{"prototype":{"admin":true}}}' },
    { name: "deep nesting", body: `${"[".repeat(20_000)}${"]".repeat(20_000)}` },
    {
      name: "invalid UTF-8",
      body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]),
    },
    { name: "plausible", body: JSON.stringify(base) },
    { name: "plain text", body: "a=1", type: "text/plain" },
    { name: "a form", body: "a=1", type: "application/x-www-form-urlencoded" },
    { name: "JSON as UTF-16", body: "{}", type: "application/json; charset=utf-16" },
    { name: "an unknown type", body: "{}", type: "application/x-easel" },
    { name: "multipart without a boundary", body: "--x\r\n\r\n--x--\r\n", type: "multipart/form-data" },
    {
      name: "multipart with a wrong boundary",
      body: '--y\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--y--\r\n',
      type: "multipart/form-data; boundary=x",
    },
    {
      name: "multipart cut inside a file",
      body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
      type: "multipart/form-data; boundary=x",
    },
    {
      name: "multipart with an empty file",
      body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\r\n--x--\r\n',
      type: "multipart/form-data; boundary=x",
    },
    {
      name: "multipart with a part without headers",
      body: "--x\r\n\r\nabc\r\n--x--\r\n",
      type: "multipart/form-data; boundary=x",
    },
    {
      name: "multipart with a part header larger than the parser takes",
      body: `--x\r\nContent-Disposition: form-data; name="file"; filename="${"a".repeat(100_000)}"\r\n\r\nabc\r\n--x--\r\n`,
      type: "multipart/form-data; boundary=x",
    },
    {
      name: "multipart with two files and no end",
      body: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc\r\n--x\r\nContent-Disposition: form-data; name="poster"; filename="b.png"\r\n\r\nab',
      type: "multipart/form-data; boundary=x",
    },
    {
      name: "multipart with a quoted boundary and a charset",
      body: '--"x"\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--"x"--\r\n',
      type: 'multipart/form-data; charset=utf-99; boundary="x"',
    },
    {
      name: "multipart with JSON fields",
      body: `--x\r\nContent-Disposition: form-data; name="_collaborators"\r\n\r\n{"a":\r\n--x\r\nContent-Disposition: form-data; name="tags"\r\n\r\n[1,2\r\n--x--\r\n`,
      type: "multipart/form-data; boundary=x",
    },
  ];
  for (const name of Object.keys(base)) {
    for (const [label, value] of [
      ["a huge number", 1e308],
      ["a negative number", -1],
      ["a fraction", 1.5],
      ["a huge integer string", "9".repeat(80)],
      ["a long string", "x".repeat(100_000)],
      ["an array", [1, "a", null]],
      ["an object", { a: 1 }],
      ["null", null],
      ["a boolean", false],
      ["an address in capitals", `0X${"D4".repeat(20)}`],
    ] as const) {
      bodies.push({ name: `${name} as ${label}`, body: JSON.stringify({ ...base, [name]: value }) });
    }
  }
  return bodies;
}

it("answers no malformed request to any route of its OpenAPI document with a 5xx", async () => {
  const started = Date.now();
  const doc = JSON.parse(await docText()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  const failures: string[] = [];
  let sent = 0;
  const check = async (what: string, answer: Promise<Answer>) => {
    const { status, text } = await answer;
    sent++;
    if (status >= 500 || status === 0) failures.push(`${what} → ${status} ${text.slice(0, 160)}`);
  };

  const routes = Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      path,
      method: method.toUpperCase(),
      operation,
    })),
  );
  expect(routes.length).toBeGreaterThan(60);
  for (const { path, method, operation } of routes) {
    const parameters = operation.parameters ?? [];
    const pathParams = parameters.filter((p) => p.in === "path");
    const queryParams = parameters.filter((p) => p.in === "query");
    const fill = (overrides: Record<string, string>) =>
      path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        name in overrides
          ? (overrides[name] ?? "")
          : encodeURIComponent(plausible(name, pathParams.find((p) => p.name === name)?.schema)),
      );
    const query = (name: string | null, encoded: string) =>
      queryParams
        .filter((p) => p.name !== name && (p.required || name === null))
        .map((p) => `${p.name}=${encodeURIComponent(plausible(p.name, p.schema))}`)
        .concat(name === null ? [] : [`${name}=${encoded}`])
        .join("&");
    const jobs: [string, () => Promise<Answer>][] = [];
    const hasBody = method !== "GET" && method !== "DELETE";
    const json = { "content-type": "application/json" };
    // Moderators' routes as the moderator; the others in turn as each user, so per-wallet limits refuse fewer.
    const senders = path.startsWith("/api/admin/") ? users.slice(0, 1) : users;
    let turn = 0;
    const cookie = () => senders[turn++ % senders.length]?.cookie;
    const plain = (target: string) => () =>
      send(method, target, { ...(hasBody ? { body: "{}", headers: json } : {}), cookie: cookie() });

    jobs.push([`${method} ${path} with plausible values`, plain(`${fill({})}?${query(null, "")}`)]);
    jobs.push([
      `${method} ${path} signed out`,
      () => send(method, `${fill({})}?${query(null, "")}`, { cookie: null }),
    ]);
    const cookieName = users[0]?.cookie.split("=")[0] ?? "";
    for (const [name, headers] of Object.entries(BAD_HEADERS(cookieName))) {
      jobs.push([
        `${method} ${path} with ${name}`,
        () =>
          send(method, `${fill({})}?${query(null, "")}`, {
            ...(hasBody ? { body: "{}" } : {}),
            headers: { ...(hasBody ? json : {}), ...headers },
          }),
      ]);
    }
    for (const param of pathParams) {
      for (const { name, encoded } of BAD_VALUES) {
        if (encoded === "") continue; // an empty segment is another path
        jobs.push([
          `${method} ${path} ${param.name}=${name}`,
          plain(`${fill({ [param.name]: encoded })}?${query(null, "")}`),
        ]);
      }
    }
    for (const param of queryParams) {
      for (const { name, encoded } of BAD_VALUES) {
        jobs.push([
          `${method} ${path} ?${param.name}=${name}`,
          plain(`${fill({})}?${query(param.name, encoded)}`),
        ]);
      }
      const good = encodeURIComponent(plausible(param.name, param.schema));
      jobs.push([
        `${method} ${path} ?${param.name} twice`,
        plain(`${fill({})}?${query(param.name, good)}&${param.name}=${good}`),
      ]);
      jobs.push([
        `${method} ${path} ?${param.name}[]`,
        plain(`${fill({})}?${query(null, "")}&${param.name}[]=${good}&${param.name}[a]=1`),
      ]);
    }
    if (hasBody) {
      const schema = operation.requestBody?.content["application/json"]?.schema;
      for (const { name, body, type } of badBodies(schema)) {
        jobs.push([
          `${method} ${path} body: ${name}`,
          () =>
            send(method, `${fill({})}?${query(null, "")}`, {
              body,
              headers: { "content-type": type ?? "application/json" },
              cookie: cookie(),
            }),
        ]);
      }
    }
    // A few at a time: the sweep is bounded in time, and one route's answers do not wait on another's.
    for (let i = 0; i < jobs.length; i += 8) {
      await Promise.all(jobs.slice(i, i + 8).map(([what, job]) => check(what, job())));
    }
    // A route that signs out (logout, logout everywhere) must not leave the rest of the sweep signed out.
    if (path.startsWith("/api/auth/")) {
      for (const [i, user] of users.entries()) {
        const session = await send("GET", "/api/auth/session", { cookie: user.cookie });
        if (!session.text.includes(user.address)) users[i] = await api.signIn(user.wallet);
      }
    }
  }
  expect(failures).toEqual([]);
  expect(sent).toBeGreaterThan(1000);
  // Bounded: the whole sweep stays well under a minute on a busy machine.
  expect(Date.now() - started).toBeLessThan(60_000);
}, 90_000);

async function docText(): Promise<string> {
  const { text, status } = await new Promise<Answer>((resolve, reject) => {
    const url = new URL(api.url);
    httpRequest({ host: url.hostname, port: url.port, path: "/api/docs" }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: body }));
    })
      .on("error", reject)
      .end();
  });
  expect(status).toBe(200);
  return text;
}
