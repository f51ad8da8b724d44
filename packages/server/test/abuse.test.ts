/**
 * Attacks on the API, each refused. Every test reproduces an abuse that worked before its fix, against a
 * real HTTP server and PostgreSQL (with the production configuration where the attack is about production).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import {
  type Health,
  type LazyMintVoucherResponse,
  MESSAGES,
  type MediaUploadResponse,
  type ProfileResponse,
  SESSION_COOKIE,
} from "@easel/common";
import { easelCollectionAbi } from "@easel/contracts/abis";
import { eq, sql } from "drizzle-orm";
import { CID } from "multiformats/cid";
import sharp from "sharp";
import { parseEther } from "viem";
import { mainnet } from "viem/chains";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createChainClient } from "../src/chain/client.ts";
import { loadConfig } from "../src/config.ts";
import { mailOutbox, newsletterSubscriptions, profiles } from "../src/db/schema.ts";
import {
  admin,
  alice,
  artist,
  createScratchDatabase,
  driver,
  indexToHead,
  startTestChain,
  type TestChain,
} from "../src/indexer/testing.ts";
import { STREAMS_PER_CLIENT } from "../src/routes/events.ts";
import { PAGE_RENDERS_PER_MINUTE } from "../src/web/pageBudget.ts";
import { type AccountsApi, expectError, startAccountsApi, type TestUser } from "./accounts-helpers.ts";
import { deployEnsResolver } from "./ens-helpers.ts";
import { configError, PRODUCTION_SECRETS, startTestApi, validEnv } from "./helpers.ts";

let local: AccountsApi;
let production: AccountsApi;
let user: TestUser;
beforeAll(async () => {
  local = await startAccountsApi();
  // Mainnet configuration, behind no declared proxy (TRUST_PROXY unset).
  production = await startAccountsApi({
    CHAIN_ID: "1",
    PUBLIC_URL: "https://easel.art",
    ...PRODUCTION_SECRETS,
  });
  user = await local.signIn();
});
afterAll(async () => {
  await local.close();
  await production.close();
});

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

describe("per-IP limits cannot be escaped", () => {
  it("ignores a client's own X-Forwarded-For in production: rotating it does not reset the newsletter limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const result = await production.call("POST", "/api/marketing/subscribe", {
        body: { email: `rotating-${unique()}@example.com` },
        headers: { "x-forwarded-for": `203.0.113.${i + 1}` },
      });
      statuses.push(result.status);
    }
    // The limit is 10 a minute per client address, whatever the header says.
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe("pages cost a bounded amount per client", () => {
  it("renders a client's first pages in full, then the plain prebuilt page; previews are shared for a while", async () => {
    const dist = mkdtempSync(join(tmpdir(), "easel-dist-"));
    writeFileSync(
      join(dist, "index.html"),
      "<!doctype html><html><head><title>Easel</title></head><body></body></html>",
    );
    // Behind one trusted proxy, so two clients can be told apart.
    const api = await startAccountsApi({ WEB_DIST: dist, TRUST_PROXY: "1" });
    try {
      const painter = await api.signIn();
      const named = await api.call("PUT", "/api/profile", { user: painter, body: { name: "Ada Painter" } });
      expect(named.status).toBe(200);
      const page = async (client: string) => {
        const response = await fetch(`${api.url}/profile/${painter.address}`, {
          headers: { "x-forwarded-for": client, "accept-encoding": "identity" },
        });
        expect(response.status).toBe(200);
        return response.text();
      };
      const first = await page("203.0.113.7");
      expect(first).toContain('content="Ada Painter on Easel"');
      expect(first).toContain('id="easel-answers"');
      // The preview is read once for everyone for a while: a new name shows after it, not on every request.
      await api.db.update(profiles).set({ name: "Renamed" }).where(eq(profiles.address, painter.address));
      expect(await page("203.0.113.8")).toContain('content="Ada Painter on Easel"');

      for (let i = 1; i < PAGE_RENDERS_PER_MINUTE; i++) await page("203.0.113.7");
      const past = await page("203.0.113.7");
      // Past the budget: the app's page as built, with its config and nothing read for this visitor.
      expect(past).toContain('id="easel-config"');
      expect(past).not.toContain("og:title");
      expect(past).not.toContain('id="easel-answers"');
      // Another client is not affected.
      expect(await page("203.0.113.9")).toContain('id="easel-answers"');
    } finally {
      await api.close();
    }
  });
});

/**
 * A POST whose body (declared 100,000 bytes) comes one byte every 250 ms after `start`: when the server
 * closed the connection, and what it answered. Gives up after 12 s.
 */
async function drip(base: string, path: string, headers: Record<string, string>, start = "") {
  const url = new URL(base);
  const socket = connect(Number(url.port), url.hostname);
  const opened = Date.now();
  let answer = "";
  socket.on("data", (chunk) => {
    answer += chunk.toString("latin1");
  });
  socket.on("error", () => {});
  const head = Object.entries({ host: url.host, "content-length": "100000", ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n${start}`);
  const ticker = setInterval(() => {
    if (!socket.destroyed) socket.write("a");
  }, 250);
  const closedAfterMs = await new Promise<number>((resolve) => {
    const giveUp = setTimeout(() => resolve(Number.POSITIVE_INFINITY), 12_000);
    socket.on("close", () => {
      clearTimeout(giveUp);
      resolve(Date.now() - opened);
    });
  });
  clearInterval(ticker);
  socket.destroy();
  return { answer, closedAfterMs };
}

describe("slow bodies are cut", () => {
  it("closes the connection of a request refused 429 before its body arrived, without waiting for the body", async () => {
    const api = await startAccountsApi();
    try {
      for (let i = 0; i < 10; i++) {
        const result = await api.call("POST", "/api/marketing/subscribe", {
          body: { email: `s${i}-${unique()}@example.com` },
        });
        expect(result.status).toBe(200);
      }
      const refused = await drip(api.url, "/api/marketing/subscribe", { "content-type": "application/json" });
      expect(refused.answer).toMatch(/^HTTP\/1\.1 429/);
      expect(refused.answer.toLowerCase()).toContain("connection: close");
      // Well before the request allowance (30 s by default).
      expect(refused.closedAfterMs).toBeLessThan(2_000);
    } finally {
      await api.close();
    }
  });
});

describe("clients cannot make statement shapes at will", () => {
  it("keeps the prepared statements flat over 2,000 distinct pages, page sizes and unknown categories", async () => {
    const api = await startAccountsApi({ TRUST_PROXY: "1" });
    try {
      const sorts = ["newest", "oldest", "owners", "floorPriceHighest", "floorPriceLowest"];
      const urls = [
        ...Array.from(
          { length: 1_500 },
          (_, i) => `/api/explore/collections?page=${i + 2}&limit=${1 + (i % 50)}&sort=${sorts[i % 5]}`,
        ),
        ...Array.from({ length: 500 }, (_, i) => `/api/explore?category=${100_000 + i}`),
      ];
      let n = 0;
      const statuses = new Set<number>();
      // Eight clients at a time, each request from its own address (the flood guard is not what is tested).
      for (let i = 0; i < urls.length; i += 8) {
        await Promise.all(
          urls.slice(i, i + 8).map(async (url) => {
            n++;
            const response = await fetch(`${api.url}${url}`, {
              headers: { "x-forwarded-for": `198.19.${(n >> 8) & 255}.${n & 255}` },
            });
            statuses.add(response.status);
            await response.arrayBuffer();
          }),
        );
      }
      expect([...statuses]).toEqual([200]);
      // What each of the repeated pool's sessions holds, asked of PostgreSQL on ten sessions at once.
      const counts = await Promise.all(
        Array.from({ length: 10 }, async () => {
          const { rows } = await api.db.$repeated.execute<{ n: number }>(
            sql`SELECT count(*)::int AS n, pg_sleep(0.05) IS NULL AS slept FROM pg_prepared_statements`,
          );
          return Number(rows[0]?.n);
        }),
      );
      // A handful of shapes (six page sizes for five sorts, the count), not one per page.
      expect(Math.max(...counts)).toBeLessThan(50);
    } finally {
      await api.close();
    }
  }, 120_000);
});

describe("cross-site requests change nothing", () => {
  it("refuses an admin action posted from another site through the admin's browser", async () => {
    const admin = await local.admin();
    const victim = await local.signIn();
    const attempts: Record<string, string>[] = [
      { "sec-fetch-site": "same-site", origin: "http://127.0.0.1:4000" },
      { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
      { origin: "https://evil.example" },
    ];
    for (const headers of attempts) {
      const result = await local.call("POST", `/api/admin/users/${victim.address}/ban`, {
        user: admin,
        body: {},
        headers,
      });
      expect(result.status, JSON.stringify(headers)).toBe(403);
    }
    const profile = await local.call<{ data: { user: { active: boolean } } }>(
      "GET",
      `/api/profile?userkey=${victim.address}`,
    );
    expect(profile.body.data.user.active).toBe(true);
  });

  it("refuses a plain-text form post (a form needs no preflight) with 415", async () => {
    const admin = await local.admin();
    const victim = await local.signIn();
    const response = await fetch(`${local.url}/api/admin/users/${victim.address}/ban`, {
      method: "POST",
      headers: { cookie: admin.cookie, "content-type": "text/plain" },
      body: "{}",
    });
    expect(response.status).toBe(415);
  });

  it("accepts the app's own same-origin requests", async () => {
    const result = await local.call("POST", "/api/contact", {
      body: { name: "Alice", email: "alice@example.com", message: "hello" },
      headers: { "sec-fetch-site": "same-origin", origin: "http://127.0.0.1:3000" },
    });
    expect(result.status).toBe(200);
  });

  it("names the session cookie __Host-… in production, so no sibling subdomain can plant it", async () => {
    const response = await fetch(`${production.url}/api/auth/logout`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `__Host-${SESSION_COOKIE}=x` },
      body: "{}",
    });
    expect(response.headers.get("set-cookie") ?? "").toMatch(new RegExp(`^__Host-${SESSION_COOKIE}=;`));
  });
});

describe("limits hold across API replicas", () => {
  it("counts the nonce limit once for two replicas sharing the database", async () => {
    // Two API processes on the same database, as two replicas of one deployment behind a load balancer.
    const first = await startTestApi();
    const second = await startTestApi({}, { rateLimitScope: first.rateLimitScope });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 70; i++) {
        const url = i % 2 === 0 ? first.url : second.url;
        statuses.push((await fetch(`${url}/api/auth/nonce`)).status);
      }
      // 60 a minute per client, whichever replica answers.
      expect(statuses.filter((status) => status === 200)).toHaveLength(60);
      expect(statuses.slice(60)).toEqual(Array(10).fill(429));
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("per-user limits follow the wallet, not the cookie", () => {
  it("counts reports sent with a fresh random cookie each time against the same client", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const result = await local.call("POST", "/api/reports", {
        body: { target: user.address, reason: "spam" },
        headers: { cookie: `${SESSION_COOKIE}=${randomBytes(16).toString("hex")}` },
      });
      statuses.push(result.status);
    }
    // 30 a minute per wallet or, without a session, per client address: the 31st is refused.
    expect(statuses.at(-1)).toBe(429);
  });
});

describe("what the API tells strangers", () => {
  it("keeps Node's and PostgreSQL's versions for operators", async () => {
    const visitor = await local.call<Health>("GET", "/api/health");
    expect(visitor.body.status).toBe("ok");
    expect(visitor.body.node).toBeUndefined();
    expect(visitor.body.database.version).toBeNull();
    const operator = await local.call<Health>("GET", "/api/health", { user: await local.admin() });
    expect(operator.body.node).toBe(process.version);
    expect(operator.body.database.version).toMatch(/^\d+/);
  });

  it("marks a user's trading lists as not to be stored by any cache", async () => {
    for (const path of ["/api/profile/offers", "/api/profile/auctions", "/api/profile/open-orders"]) {
      const result = await local.call("GET", path, { user });
      expect(result.status, path).toBe(200);
      expect(result.headers.get("cache-control"), path).toBe("no-store");
    }
  });
});

describe("reports name things that exist, by id", () => {
  const report = (targetType: string, targetId: string) => ({
    reason: "Counterfeit Artwork",
    email: "reporter@example.com",
    description: "Please look at this one.",
    targetType,
    targetId,
  });

  it("refuses a link as a target, and a profile that does not exist", async () => {
    for (const [type, id] of [
      ["item", "//evil.example/claim"],
      ["collection", "https://evil.example"],
      ["profile", "0x000000000000000000000000000000000000dead"],
    ]) {
      const result = await local.call<{ error: { fields?: Record<string, string> } }>(
        "POST",
        "/api/reports",
        {
          user,
          body: report(type as string, id as string),
        },
      );
      expect(result.status, id).toBe(400);
      expect(result.body.error.fields?.targetId, id).toBe(MESSAGES.reportTarget);
    }
  });
});

/** A valid PNG of width x height grey pixels, all black: tiny on disk, huge once decoded. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  // One filter byte per row, then the row's pixels: all zero, so it compresses about 1000 to 1.
  const raw = Buffer.alloc(height * (width + 1));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("image bombs", () => {
  it("refuses a 1 x 49,000,000 PNG of about 100 KB from its header, without decoding it", async () => {
    const bomb = pngBomb(1, 49_000_000);
    expect(bomb.length).toBeLessThan(200_000);
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(bomb)], { type: "image/png" }), "bomb.png");
    const response = await fetch(`${local.url}/api/profile/media_uploader`, {
      method: "POST",
      headers: { cookie: user.cookie },
      body: form,
    });
    // Refused from its header (before this fix it was decoded, for about 16 s of a thread, and accepted).
    expect(response.status).toBe(400);
  });
});

describe("live-update streams are capped", () => {
  it("refuses a seventh stream from one client, and takes one again when a stream closes", async () => {
    const open = async () => {
      const controller = new AbortController();
      const response = await fetch(`${local.url}/api/events`, { signal: controller.signal });
      return { status: response.status, close: () => controller.abort() };
    };
    const streams = [];
    for (let i = 0; i < STREAMS_PER_CLIENT; i++) streams.push(await open());
    expect(streams.map((s) => s.status)).toEqual(Array(STREAMS_PER_CLIENT).fill(200));
    const extra = await open();
    expect(extra.status).toBe(429);
    streams[0]?.close();
    await expect
      .poll(async () => {
        const again = await open();
        if (again.status === 200) streams.push(again);
        return again.status;
      })
      .toBe(200);
    for (const stream of streams) stream.close();
  });
});

describe("names cannot pass for others", () => {
  it("refuses a username that only looks like a taken one (a capital I for an l)", async () => {
    const suffix = unique().replace(/[^a-z]/g, "x");
    const alice = await local.signIn();
    const first = await local.call("PUT", "/api/profile", {
      user: alice,
      body: { username: `Alice_${suffix}` },
    });
    expect(first.status).toBe(200);
    const impostor = await local.signIn();
    const second = await local.call<{ error: { code: string } }>("PUT", "/api/profile", {
      user: impostor,
      body: { username: `aIice_${suffix}` },
    });
    expect(second.status).toBe(400);
    expect(second.body.error.code).toBe("username_taken");
  });

  it("keeps staff-like names for Easel's team", async () => {
    const member = await local.signIn();
    for (const body of [{ name: "Easel Support" }, { username: "easel_team" }, { name: "Site Admin" }]) {
      const result = await local.call<{ error: { code: string; fields: Record<string, string> } }>(
        "PUT",
        "/api/profile",
        { user: member, body },
      );
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.error.code).toBe("name_reserved");
      expect(Object.values(result.body.error.fields)).toEqual([MESSAGES.nameReserved]);
    }
  });
});

describe("the page's content security policy", () => {
  it("lets scripts reach only the site and the chain's RPC, and load images only from the site", async () => {
    const response = await fetch(`${production.url}/api/health`);
    const policy = response.headers.get("content-security-policy") ?? "";
    const directive = (name: string) => policy.split(";").find((d) => d.trim().startsWith(name)) ?? "";
    expect(directive("connect-src").trim()).toBe(
      `connect-src 'self' ${new URL(mainnet.rpcUrls.default.http[0] as string).origin}`,
    );
    expect(directive("img-src")).not.toMatch(/https:(\s|$)/);
    expect(directive("media-src")).not.toMatch(/https:(\s|$)/);
  });
});

describe("follows cannot be used to mail strangers", () => {
  it("tells a user once a day that someone follows them, however often the follow is toggled", async () => {
    const [fan, star] = [await local.signIn(), await local.signIn()];
    for (let i = 0; i < 20; i++) {
      const result = await local.call("POST", "/api/profile/follow", {
        user: fan,
        body: { userAddress: star.address },
      });
      expect(result.status).toBe(200);
    }
    const notes = await local.call<{ data: { notificationsTemp: { kind: string }[] } }>(
      "GET",
      "/api/profile/notifications",
      { user: star },
    );
    expect(notes.body.data.notificationsTemp.filter((n) => n.kind === "follow")).toHaveLength(1);
  });

  it("limits follow toggles to 30 a minute per wallet", async () => {
    const [fan, star] = [await local.signIn(), await local.signIn()];
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push(
        (await local.call("POST", "/api/profile/follow", { user: fan, body: { userAddress: star.address } }))
          .status,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe("Easel mails only addresses their owners confirmed", () => {
  /** The link's values, as the confirmation page reads them from its address. */
  const linkValues = (text: string) => {
    const link = text.match(/http:\/\/127\.0\.0\.1:3000\/email\/confirm\?\S+/)?.[0];
    expect(link, "the mail links the confirmation page").toBeTruthy();
    return Object.fromEntries(new URL(link as string).searchParams);
  };
  const confirm = (body: Record<string, unknown>) =>
    local.call("POST", "/api/profile/email/confirm", { body });
  const verified = async (user: Awaited<ReturnType<typeof local.signIn>>) =>
    (await local.call<ProfileResponse>("GET", `/api/profile?userkey=${user.address}`, { user })).body.data
      .user.emailVerified;

  it("sends no notification mail to a stranger's address named in a profile, only the confirmation link", async () => {
    const [attacker, fan] = [await local.signIn(), await local.signIn()];
    const victim = `victim-${unique()}@example.com`;
    const saved = await local.call<{ message: string; data: { user: { emailVerified: boolean } } }>(
      "PUT",
      "/api/profile",
      { user: attacker, body: { email: victim, name: "Claim ETH at evil example" } },
    );
    expect(saved.body.message).toBe(`${MESSAGES.profileUpdated} ${MESSAGES.emailConfirmSent}`);
    expect(saved.body.data.user.emailVerified).toBe(false);
    await local.call("PUT", "/api/profile/notif_allow", { user: attacker, body: { email: true } });
    const confirmation = await local.waitForMail(victim, /Confirm your email/);
    // The link mail carries nothing the attacker wrote.
    expect(confirmation.text).not.toContain("Claim ETH");
    await local.call("POST", "/api/profile/follow", { user: fan, body: { userAddress: attacker.address } });
    const notes = await local.call<{ data: { notificationsTemp: { kind: string }[] } }>(
      "GET",
      "/api/profile/notifications",
      { user: attacker },
    );
    expect(notes.body.data.notificationsTemp.map((n) => n.kind)).toContain("follow");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(local.mails().filter((m) => m.text.includes(`To: ${victim}`))).toHaveLength(1);
  });

  it("confirms only the address and profile a link was made for, with its signature intact", async () => {
    const [owner, other] = [await local.signIn(), await local.signIn()];
    const first = `first-${unique()}@example.com`;
    await local.call("PUT", "/api/profile", { user: owner, body: { email: first } });
    const values = linkValues((await local.waitForMail(first, /Confirm your email/)).text);

    // Opening a link (as mail scanners do) confirms nothing: an old API link only leads to the page.
    const query = new URLSearchParams(values).toString();
    const opened = await local.call("GET", `/api/profile/email/confirm?${query}`);
    expect(opened.status).toBe(303);
    expect(opened.headers.get("location")).toBe(`/email/confirm?${query}`);
    expect(await verified(owner)).toBe(false);

    // The page's button posts the values; tampered, cut or foreign ones confirm nothing.
    const tampered = [
      { ...values, sig: "AAAA" },
      { ...values, email: `x${first}` },
      { ...values, address: other.address.toLowerCase() },
      { ...values, expires: "1000" },
    ];
    for (const body of tampered)
      expectError(await confirm(body), 400, { message: MESSAGES.emailLinkInvalid });
    expectError(await confirm({ email: values.email }), 400, { message: MESSAGES.emailLinkIncomplete });
    expect(await verified(owner)).toBe(false);

    // Changing the email makes the first link worthless: it confirms an address the profile no longer has.
    await local.call("PUT", "/api/profile", {
      user: owner,
      body: { email: `second-${unique()}@example.com` },
    });
    expectError(await confirm(values), 400, { message: MESSAGES.emailLinkInvalid });
    expect(await verified(owner)).toBe(false);
  });

  it("confirms an email with the page's button, and a second press changes nothing", async () => {
    const owner = await local.signIn();
    const email = `owner-${unique()}@example.com`;
    await local.call("PUT", "/api/profile", { user: owner, body: { email } });
    const values = linkValues((await local.waitForMail(email, /Confirm your email/)).text);
    const confirmed = await confirm(values);
    expect(confirmed.status).toBe(200);
    expect((confirmed.body as { message: string }).message).toBe(MESSAGES.emailConfirmed);
    expect(await verified(owner)).toBe(true);
    expect((await confirm(values)).status).toBe(200);
  });

  it("mails one address at most three links a day, however many wallets name it", async () => {
    const victim = `flooded-${unique()}@example.com`;
    const wallets = await Promise.all([1, 2, 3, 4, 5].map(() => local.signIn()));
    const messages = await Promise.all(
      wallets.map(
        async (user) =>
          (await local.call<{ message: string }>("PUT", "/api/profile", { user, body: { email: victim } }))
            .body.message,
      ),
    );
    expect(messages.filter((m) => m.endsWith(MESSAGES.emailConfirmSent))).toHaveLength(3);
    expect(messages.filter((m) => m.endsWith(MESSAGES.emailConfirmLimit))).toHaveLength(2);
    const queued = await local.db.select().from(mailOutbox).where(eq(mailOutbox.to, victim));
    expect(queued).toHaveLength(3);
  });

  it("sends a profile at most one link a minute when asked again", async () => {
    const owner = await local.signIn();
    await local.call("PUT", "/api/profile", {
      user: owner,
      body: { email: `again-${unique()}@example.com` },
    });
    expectError(await local.call("POST", "/api/profile/email/confirmation", { user: owner }), 429, {
      message: MESSAGES.emailConfirmWait,
    });
  });
});

describe("the newsletter cannot be used to mail strangers", () => {
  it("sends a pending address at most three confirmations a day and five in all, however often it is subscribed", async () => {
    // Behind a trusted proxy, each attempt from another address: the per-IP form limit is not what stops them.
    const api = await startAccountsApi({ TRUST_PROXY: "1" });
    const victim = `newsletter-${unique()}@example.com`;
    let attempt = 0;
    const subscribe = async () => {
      const result = await api.call("POST", "/api/marketing/subscribe", {
        body: { email: victim },
        headers: { "x-forwarded-for": `198.51.100.${++attempt}` },
      });
      expect(result.status).toBe(200);
      // A minute passes between attempts: the resend interval alone would allow each one.
      await api.db
        .update(newsletterSubscriptions)
        .set({ lastMailAt: new Date(Date.now() - 2 * 60_000) })
        .where(eq(newsletterSubscriptions.email, victim));
    };
    const queued = async () =>
      (await api.db.select().from(mailOutbox).where(eq(mailOutbox.to, victim))).length;
    for (let i = 0; i < 5; i++) await subscribe();
    expect(await queued()).toBe(3);
    // The next days: two more, then never again while nobody confirms.
    for (let day = 0; day < 3; day++) {
      await api.db
        .update(mailOutbox)
        .set({ createdAt: new Date(Date.now() - 2 * 24 * 60 * 60_000) })
        .where(eq(mailOutbox.to, victim));
      await subscribe();
      await subscribe();
    }
    expect(await queued()).toBe(5);
    await api.close();
  });
});

describe("ENS names are the chain's word, not the user's", () => {
  it("refuses an ENS name on the local chain, which has no ENS, and finds nobody by one", async () => {
    expectError(await local.call("PUT", "/api/profile", { user, body: { ens: "vitalik.eth" } }), 400, {
      field: "ens",
      message: MESSAGES.ensUnavailable,
    });
    expect((await local.call("GET", "/api/profile?userkey=vitalik.eth")).status).toBe(404);
  });

  describe("with ENS on the chain", () => {
    let ens: Awaited<ReturnType<typeof deployEnsResolver>>;
    let withEns: AccountsApi;
    beforeAll(async () => {
      ens = await deployEnsResolver();
      withEns = await startAccountsApi({ ENS_UNIVERSAL_RESOLVER: ens.address });
    });
    afterAll(() => withEns.close());

    it("refuses a name that resolves to someone else, or whose owner did not make it their primary name", async () => {
      const [claimant, owner] = [await withEns.signIn(), await withEns.signIn()];
      const name = `vitalik-${unique()}.eth`;
      await ens.setAddress(name, owner.address);
      await ens.setPrimaryName(owner.address, name);
      const refused = { field: "ens", message: MESSAGES.ensNotYours, code: "ens_not_yours" };
      expectError(
        await withEns.call("PUT", "/api/profile", { user: claimant, body: { ens: name } }),
        400,
        refused,
      );
      // Forward resolution alone is not enough: the claimant's own primary name must be the name too.
      const half = `half-${unique()}.eth`;
      await ens.setAddress(half, claimant.address);
      expectError(
        await withEns.call("PUT", "/api/profile", { user: claimant, body: { ens: half } }),
        400,
        refused,
      );
      expect((await withEns.call("GET", `/api/profile?userkey=${name}`)).status).toBe(404);

      const saved = await withEns.call("PUT", "/api/profile", { user: owner, body: { ens: name } });
      expect(saved.status).toBe(200);
      const found = await withEns.call<ProfileResponse>("GET", `/api/profile?userkey=${name}`);
      expect(found.body.data.user).toMatchObject({ address: owner.address, ens: name });
    });

    it("gives a name to its new owner when it moves, and stops showing it for the old one", async () => {
      const [seller, buyer] = [await withEns.signIn(), await withEns.signIn()];
      const name = `moving-${unique()}.eth`;
      await ens.setAddress(name, seller.address);
      await ens.setPrimaryName(seller.address, name);
      expect((await withEns.call("PUT", "/api/profile", { user: seller, body: { ens: name } })).status).toBe(
        200,
      );

      await ens.setAddress(name, buyer.address);
      await ens.setPrimaryName(buyer.address, name);
      await ens.setPrimaryName(seller.address, "");
      // The old claim does not block the new owner (before: ens_taken).
      expect((await withEns.call("PUT", "/api/profile", { user: buyer, body: { ens: name } })).status).toBe(
        200,
      );
      const found = await withEns.call<ProfileResponse>("GET", `/api/profile?userkey=${name}`);
      expect(found.body.data.user.address).toBe(buyer.address);
      const old = await withEns.call<ProfileResponse>("GET", `/api/profile?userkey=${seller.address}`);
      expect(old.body.data.user.ens).toBeNull();
    });

    it("checks a shown name again after a day, and drops it when the chain no longer agrees", async () => {
      const holder = await withEns.signIn();
      const name = `lapsed-${unique()}.eth`;
      await ens.setAddress(name, holder.address);
      await ens.setPrimaryName(holder.address, name);
      expect((await withEns.call("PUT", "/api/profile", { user: holder, body: { ens: name } })).status).toBe(
        200,
      );
      await ens.setAddress(name, "0x0000000000000000000000000000000000000000");
      // Within the day the stored check stands; a day later the chain is asked again.
      expect((await withEns.call("GET", `/api/profile?userkey=${name}`)).status).toBe(200);
      await withEns.db
        .update(profiles)
        .set({ ensCheckedAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
        .where(eq(profiles.address, holder.address));
      expect((await withEns.call("GET", `/api/profile?userkey=${name}`)).status).toBe(404);
      const page = await withEns.call<ProfileResponse>("GET", `/api/profile?userkey=${holder.address}`);
      expect(page.body.data.user.ens).toBeNull();
      // The holder learns why (the `ens` preference).
      const notes = await withEns.call<{ data: { notificationsTemp: { kind: string; message: string }[] } }>(
        "GET",
        "/api/profile/notifications",
        { user: holder },
      );
      expect(notes.body.data.notificationsTemp).toEqual([
        expect.objectContaining({
          kind: "ens_removed",
          message: `Your ENS name ${name} no longer names your wallet, so Easel removed it from your profile.`,
        }),
      ]);
    });
  });
});

describe("sessions end when they must", () => {
  const signedIn = async (who: TestUser) =>
    (await local.call<{ session: unknown }>("GET", "/api/auth/session", { user: who })).body.session !== null;

  it("signs a wallet out on every device with 'sign out everywhere'", async () => {
    const laptop = await local.signIn();
    const phone = await local.signIn(laptop.wallet);
    expect(await signedIn(phone)).toBe(true);
    const result = await local.call("POST", "/api/auth/logout-everywhere", { user: laptop, body: {} });
    expect(result.status).toBe(200);
    expect(await signedIn(laptop)).toBe(false);
    expect(await signedIn(phone)).toBe(false);
  });

  it("ends a banned user's sessions; they may sign in again to see the notice", async () => {
    const member = await local.signIn();
    const ban = await local.call("POST", `/api/admin/users/${member.address}/ban`, {
      user: await local.admin(),
      body: {},
    });
    expect(ban.status).toBe(200);
    expect(await signedIn(member)).toBe(false);
    const again = await local.signIn(member.wallet);
    expect(await signedIn(again)).toBe(true);
  });
});

describe("bad bytes are bad input", () => {
  it("refuses a NUL byte in a query or a body with 400, on routes open to anyone", async () => {
    for (const [method, path, body] of [
      ["GET", "/api/profile?userkey=al%00ice", undefined],
      ["GET", "/api/profile/search-complete-users?userKey=a%00b", undefined],
      ["POST", "/api/contact", { name: "Al\u0000ice", email: "a@example.com", message: "hello" }],
      ["POST", "/api/marketing/subscribe", { email: "a\u0000@example.com" }],
    ] as const) {
      const result = await local.call(method, path, body ? { body } : {});
      expect(result.status, `${method} ${path}`).toBe(400);
    }
  });

  describe("in what an artist stores", () => {
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
    let api: AccountsApi;
    let artistUser: TestUser;
    const works = `0x${"a1".repeat(20)}`;
    beforeAll(async () => {
      // A database of its own holding a verified artist and their collection, as the indexer writes them.
      scratch = await createScratchDatabase(inject("databaseUrl"), "abuse");
      // Short body allowances, so slow bodies are cut within the test's time.
      api = await startAccountsApi({
        DATABASE_URL: scratch.url,
        REQUEST_TIMEOUT_SECONDS: "1",
        UPLOAD_TIMEOUT_SECONDS: "4",
      });
      artistUser = await api.signIn();
      await scratch.db.execute(sql`
        INSERT INTO chain_accounts (address, verified_artist, updated_block) VALUES (${artistUser.address}, true, 1)`);
      await scratch.db.execute(sql`
        INSERT INTO chain_collections (address, kind, owner, name, symbol, category, max_supply, created_block, created_tx, created_at)
        VALUES (${works}, 'standard', ${artistUser.address}, 'Works', 'WRK', '', 0, 1, '0x', now())`);
    });
    afterAll(async () => {
      await api?.close();
      await scratch?.drop();
    });

    it("cuts a body dripped a byte at a time: after the request allowance, or the longer upload allowance", async () => {
      const boundary = "----easel";
      const [contact, upload] = await Promise.all([
        drip(api.url, "/api/contact", { "content-type": "application/json" }),
        drip(
          api.url,
          "/api/mint",
          {
            "content-type": `multipart/form-data; boundary=${boundary}`,
            cookie: artistUser.cookie,
          },
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
      ]);
      expect(contact.answer).toMatch(/^HTTP\/1\.1 408/);
      expect(contact.closedAfterMs).toBeLessThan(3_500);
      // The upload is still being received after the ordinary allowance, and cut after its own.
      expect(upload.closedAfterMs).toBeGreaterThan(3_500);
      expect(upload.answer).toMatch(/^HTTP\/1\.1 408/);
    }, 20_000);

    it("refuses lone surrogates in a collection's rich-text description (stored as jsonb) with 400", async () => {
      for (const text of ["a\ud800b", "\udfff", "tail\ud83d"]) {
        const result = await api.call("PUT", "/api/collection/edit", {
          user: artistUser,
          body: { id: works, description: { type: "doc", paragraphs: [{ runs: [{ text }] }] } },
        });
        expect(result.status, JSON.stringify(text)).toBe(400);
      }
      // A whole character (a surrogate pair) is text like any other.
      const fine = await api.call("PUT", "/api/collection/edit", {
        user: artistUser,
        body: {
          id: works,
          description: { type: "doc", paragraphs: [{ runs: [{ text: "\ud83c\udfa8 art" }] }] },
        },
      });
      expect(fine.status).toBe(200);
    });

    // A lone surrogate cannot cross multipart as such (it is sent as UTF-8, which has none): only as an escape in
    // the JSON fields.
    it("refuses NUL and lone surrogates in the mint form's fields with 400, and stores no media for them", async () => {
      const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#336699" } })
        .png()
        .toBuffer();
      const { body: categories } = await api.call<{ data: { category_web2: { _id: number }[] } }>(
        "GET",
        "/api/category-web2",
      );
      const category = String(categories.data.category_web2[0]?._id);
      const fine = {
        category_web2_id: category,
        collection: works,
        name: "Harbour",
        royalty: "5",
        description: "A harbour at night",
      };
      for (const bad of [
        { description: "A har\u0000bour" },
        { tags: JSON.stringify(["sea", "n\u0000l"]) },
        { tags: '["sea", "\\ud800"]' },
        { description_ui: '{"type":"doc","paragraphs":[{"runs":[{"text":"\\udc00 x"}]}]}' },
      ]) {
        const form = new FormData();
        for (const [name, value] of Object.entries({ ...fine, ...bad })) form.append(name, value);
        form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "harbour.png");
        const response = await fetch(`${api.url}/api/mint`, {
          method: "POST",
          headers: { cookie: artistUser.cookie },
          body: form,
        });
        expect(response.status, JSON.stringify(bad)).toBe(400);
      }
      // Nothing of the refused uploads stayed in the media store (it was never even opened).
      const stored = existsSync(join(api.dir, "ipfs"))
        ? readdirSync(join(api.dir, "ipfs"), { recursive: true })
        : [];
      expect(stored.filter((f) => String(f).endsWith(".data"))).toEqual([]);
    });
  });

  it("refuses line breaks in the contact form's name (they would forge lines in the operators' mail)", async () => {
    const result = await local.call<{ error: { fields: Record<string, string> } }>("POST", "/api/contact", {
      body: { name: "Alice\nSubject: Claim ETH", email: "alice@example.com", message: "hello" },
    });
    expect(result.status).toBe(400);
    expect(result.body.error.fields.name).toBe(MESSAGES.singleLine);
  });
});

describe("the media gateway serves only what it stores, as it was stored", () => {
  it("answers 404, not 500, for a CID of another version or codec over a stored file's hash", async () => {
    const png = await sharp({
      create: { width: 64, height: 64, channels: 3, background: `#${randomBytes(3).toString("hex")}` },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "a.png");
    const response = await fetch(`${local.url}/api/profile/media_uploader`, {
      method: "POST",
      headers: { cookie: user.cookie },
      body: form,
    });
    const { data } = (await response.json()) as MediaUploadResponse;
    const stored = CID.parse(data.cid);
    expect((await fetch(`${local.url}/ipfs/${stored}`)).status).toBe(200);
    const sameHash = [
      CID.createV1(0x71, stored.multihash), // dag-cbor: bafyrei…
      CID.createV1(0x70, stored.multihash), // dag-pb over a raw leaf: bafybei…
      CID.createV0(stored.multihash as Parameters<typeof CID.createV0>[0]), // Qm…
    ];
    for (const cid of sameHash) {
      expect((await fetch(`${local.url}/ipfs/${cid}`)).status, cid.toString()).toBe(404);
    }
  });
});

type OpenApiSchema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, OpenApiSchema>;
  anyOf?: OpenApiSchema[];
  items?: OpenApiSchema;
};
type OpenApiOperation = {
  parameters?: { in: string; name: string; required?: boolean; schema?: OpenApiSchema }[];
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
};

describe("malformed input is never a server error", () => {
  /** Values of the wrong type, too big, empty, or not text: each must be refused as bad input. */
  const BAD_QUERY = [
    "",
    "abc",
    "-1",
    "1.5",
    "1e400",
    "9".repeat(400),
    "%00",
    "a%00b",
    "%ED%A0%80",
    "%C0%80",
    "0x",
    "[]",
  ];
  const BAD_JSON: unknown[] = [
    "",
    "abc",
    "\u0000",
    "a\ud800b",
    "\udc00",
    "9".repeat(400),
    -1,
    1.5,
    1e308,
    2 ** 64,
    true,
    null,
    [],
    {},
    ["\ud800"],
    { "\u0000": 1 },
  ];
  /** A plausible value of a schema, so one bad field is checked among otherwise fine ones. */
  const plausible = (schema: OpenApiSchema | undefined): unknown => {
    if (!schema) return "1";
    if (schema.enum) return schema.enum[0];
    if (schema.anyOf) return plausible(schema.anyOf[0]);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === "integer" || type === "number") return 1;
    if (type === "boolean") return true;
    if (type === "array") return [plausible(schema.items)];
    if (type === "object")
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v)]));
    return "1";
  };

  it("answers 4xx, never 5xx, to bad values in every parameter and body field of every route in the OpenAPI document", async () => {
    // Its own chain with Easel deployed (name checks read the factory), and its own API, trusting one proxy
    // hop, so each request comes from its own address and no per-IP limit stops the sweep before validation.
    const chain = await startTestChain();
    const api = await startAccountsApi({ ...chain.env(inject("databaseUrl")), TRUST_PROXY: "1" });
    try {
      const member = await api.signIn();
      const doc = await api.call<{ paths: Record<string, Record<string, OpenApiOperation>> }>(
        "GET",
        "/api/docs",
      );
      let n = 0;
      const failures: string[] = [];
      const send = async (method: string, url: string, body?: unknown, signedIn = false) => {
        n++;
        const headers: Record<string, string> = { "x-forwarded-for": `198.18.${(n >> 8) & 255}.${n & 255}` };
        if (signedIn) headers.cookie = member.cookie;
        let payload: string | undefined;
        if (body !== undefined) {
          headers["content-type"] = "application/json";
          payload = JSON.stringify(body);
        }
        const response = await fetch(`${api.url}${url}`, {
          method,
          headers,
          body: payload,
          redirect: "manual",
        });
        await response.arrayBuffer();
        if (response.status >= 500)
          failures.push(`${response.status} ${method} ${url} ${payload ?? ""}`.slice(0, 300));
      };
      let routes = 0;
      for (const [template, operations] of Object.entries(doc.body.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          if (method === "parameters" || template === "/api/events") continue;
          routes++;
          const params = operation.parameters ?? [];
          const pathParams = params.filter((p) => p.in === "path");
          const queryParams = params.filter((p) => p.in === "query");
          const url = (pathValue: (name: string) => string, query: Record<string, string>) => {
            const path = template.replace(/\{(\w+)\}/g, (_, name: string) => pathValue(name));
            const search = Object.entries(query)
              .map(([k, v]) => `${encodeURIComponent(k)}=${v}`)
              .join("&");
            return search ? `${path}?${search}` : path;
          };
          const fineQuery = Object.fromEntries(
            queryParams.map((p) => [p.name, encodeURIComponent(String(plausible(p.schema)))]),
          );
          const finePath = (name: string) =>
            encodeURIComponent(String(plausible(pathParams.find((p) => p.name === name)?.schema)));
          const schema = operation.requestBody?.content?.["application/json"]?.schema;
          const fineBody = schema ? plausible(schema) : undefined;
          const upper = method.toUpperCase();
          for (const signedIn of [false, true]) {
            for (const bad of BAD_QUERY) {
              for (const p of queryParams)
                await send(upper, url(finePath, { ...fineQuery, [p.name]: bad }), fineBody, signedIn);
              for (const p of pathParams)
                await send(
                  upper,
                  url((name) => (name === p.name ? bad || "%20" : finePath(name)), fineQuery),
                  fineBody,
                  signedIn,
                );
            }
            if (!schema) continue;
            for (const bad of BAD_JSON) {
              await send(upper, url(finePath, fineQuery), bad, signedIn);
              for (const field of Object.keys(schema.properties ?? {}))
                await send(
                  upper,
                  url(finePath, fineQuery),
                  { ...(fineBody as object), [field]: bad },
                  signedIn,
                );
            }
          }
        }
      }
      expect(routes).toBeGreaterThan(50);
      expect(failures).toEqual([]);
    } finally {
      await api.close();
      await chain.stop();
    }
  }, 300_000);
});

describe("production refuses development settings", () => {
  const production = (overrides: Record<string, string | undefined>) =>
    validEnv({
      CHAIN_ID: "1",
      PUBLIC_URL: "https://easel.art",
      MEDIA_DIR: "/shared/media",
      SMTP_URL: "smtps://user:pass@mail.example:465",
      ...PRODUCTION_SECRETS,
      ...overrides,
    });

  it("refuses plain http, a key of the public test mnemonic and a missing email-link secret, one line each", () => {
    // Anvil's account #9 (the local voucher signer) and #0 (the local admin).
    for (const key of [
      "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
      "0xAC0974BEC39A17E36BA4A6B4D238FF944BACB478CBED5EFCAE784D7BF4F2FF80",
    ]) {
      expect(configError(production({ SIGNER_PRIVATE_KEY: key }))).toBe(
        "Invalid configuration: SIGNER_PRIVATE_KEY is a public test key (of the 'test test … junk' mnemonic): use a key of your own outside the local chain",
      );
    }
    expect(configError(production({ PUBLIC_URL: "http://easel.art" }))).toBe(
      "Invalid configuration: PUBLIC_URL must start with https:// outside the local chain",
    );
    expect(configError(production({ EMAIL_LINK_SECRET: undefined }))).toBe(
      "Invalid configuration: EMAIL_LINK_SECRET is missing: outside the local chain email links sign with a secret of their own",
    );
    for (const chain of ["1", "11155111"])
      expect(loadConfig(production({ CHAIN_ID: chain })).chainId).toBe(Number(chain));
  });

  it("keeps the development shortcuts on the local chain", () => {
    const local = loadConfig(validEnv({ PUBLIC_URL: "http://127.0.0.1:3000", EMAIL_LINK_SECRET: undefined }));
    expect(local.emailLinkSecret).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("nobody can freeze a lazy item's price", () => {
  let t: TestChain;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let api: AccountsApi;
  let creator: TestUser;
  let stranger: TestUser;
  let night: `0x${string}`;
  const tokenId = "1";
  beforeAll(async () => {
    t = await startTestChain();
    scratch = await createScratchDatabase(inject("databaseUrl"), "abuse_lazy");
    const d = driver(t);
    await d.market(admin, "setArtistVerified", [artist.address, true]);
    night = await d.createLazyCollection(artist, "Night Shift", "NGT", 4, "photography");
    const env = t.env(scratch.url);
    const config = loadConfig(env);
    await indexToHead({
      db: scratch.db,
      chain: createChainClient(config.chainId, config.rpcUrls),
      config,
      log: () => {},
    });
    api = await startAccountsApi(env);
    creator = await api.signIn(artist as never);
    stranger = await api.signIn(alice as never);
    const { body } = await api.call<{ data: { category_web2: { _id: number; title: string }[] } }>(
      "GET",
      "/api/category-web2",
    );
    const photography = String(body.data.category_web2.find((c) => c.title === "Photography")?._id);
    const registered = await api.call("POST", "/api/collection", {
      user: creator,
      body: {
        contract_address: night,
        name: "Night Shift",
        symbol: "NGT",
        collectionType: "lazy",
        category_web2_id: Number(photography),
      },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const form = new FormData();
    const fields = {
      category_web2_id: photography,
      collection: night.toLowerCase(),
      name: "Night Bus",
      royalty: "5",
      description: "A bus at night",
      price: parseEther("0.25").toString(),
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "bus.png");
    const listed = await fetch(`${api.url}/api/mint/lazymint`, {
      method: "POST",
      headers: { cookie: creator.cookie },
      body: form,
    });
    expect(listed.status, await listed.clone().text()).toBe(200);
  }, 180_000);
  afterAll(async () => {
    await api?.close();
    await scratch?.drop();
    await t?.stop();
  });

  const ask = (user: TestUser) =>
    api.call<LazyMintVoucherResponse>("POST", "/api/nft/buy-lazy-mint", {
      user,
      body: { collection: night.toLowerCase(), nft_id: tokenId },
    });
  const setPrice = (eth: string) =>
    api.call("PUT", "/api/nft/edit", {
      user: creator,
      body: { collection: night.toLowerCase(), nft_id: tokenId, price: parseEther(eth).toString() },
    });
  const nonce = async () =>
    (
      await t.publicClient.readContract({
        address: night,
        abi: easelCollectionAbi,
        functionName: "collectionInfo",
      })
    )[3];

  it("lets the creator raise the price over a stranger's open voucher, and voids that voucher on chain", async () => {
    const first = await ask(stranger);
    expect(first.status).toBe(200);
    const old = first.body.data.voucher;
    // Asking again (every 10 minutes, or every second) gives the same voucher: one open voucher per buyer.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await ask(stranger)).body.data.voucher).toEqual(old);

    const before = await nonce();
    expect((await setPrice("0.5")).status).toBe(200);
    expect(await nonce()).toBe(before + 1n);
    // The voucher at the old price no longer mints.
    await expect(
      driver(t).send(
        alice,
        night,
        easelCollectionAbi,
        "lazyMint",
        [
          {
            ...old,
            tokenId: BigInt(old.tokenId),
            price: BigInt(old.price),
            deadline: BigInt(old.deadline),
            cid: old.cid as `0x${string}`,
            signature: old.signature as `0x${string}`,
          },
        ],
        BigInt(old.price),
      ),
    ).rejects.toThrow(/VoucherRevoked/);
    const fresh = await ask(stranger);
    expect(fresh.body.data.voucher).toMatchObject({
      price: parseEther("0.5").toString(),
      nonce: Number(before + 1n),
    });
    // Lowering the price voids nothing: nobody holds a voucher below it.
    expect((await setPrice("0.3")).status).toBe(200);
    expect(await nonce()).toBe(before + 1n);
  });
});

describe("user media can live on its own origin", () => {
  it("loads media from MEDIA_PUBLIC_URL when set: the app's config, the page's policy and its preview say so", async () => {
    const dist = mkdtempSync(join(tmpdir(), "easel-dist-"));
    writeFileSync(
      join(dist, "index.html"),
      "<!doctype html><html><head><title>Easel</title></head><body></body></html>",
    );
    const media = "https://media.easelcontent.test";
    const api = await startAccountsApi({ WEB_DIST: dist, MEDIA_PUBLIC_URL: `${media}/` });
    try {
      const config = await api.call<{ mediaUrl: string | null }>("GET", "/api/config");
      expect(config.body.mediaUrl).toBe(media);
      const policy = config.headers.get("content-security-policy") ?? "";
      for (const name of ["img-src", "media-src", "frame-src"]) {
        const directive = policy.split(";").find((d) => d.trim().startsWith(name)) ?? "";
        expect(directive, name).toContain(media);
      }
      // A profile's picture in its share preview is an address on the media origin.
      const member = await api.signIn();
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#224466" } })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "me.png");
      const uploaded = (await (
        await fetch(`${api.url}/api/profile/media_uploader`, {
          method: "POST",
          headers: { cookie: member.cookie },
          body: form,
        })
      ).json()) as MediaUploadResponse;
      expect(
        (await api.call("PUT", "/api/profile", { user: member, body: { avatar: uploaded.data.path } }))
          .status,
      ).toBe(200);
      const page = await (await fetch(`${api.url}/profile/${member.address}`)).text();
      expect(page).toContain(`<meta property="og:image" content="${media}${uploaded.data.path}" />`);
      // The media origin lets the site (alone) frame a file: a PDF opens in a frame of the item page.
      const file = await fetch(`${api.url}${uploaded.data.path}`);
      expect(file.headers.get("x-frame-options")).toBeNull();
      expect(file.headers.get("content-security-policy")).toBe(
        "default-src 'none'; img-src 'self'; sandbox; frame-ancestors http://127.0.0.1:3000",
      );
      // Without it, media stays on the site (and no other origin is allowed).
      const plain = await local.call("GET", "/api/config");
      expect((plain.body as { mediaUrl: string | null }).mediaUrl).toBeNull();
      expect(plain.headers.get("content-security-policy")).not.toContain("easelcontent");
    } finally {
      await api.close();
    }
  });
});
