import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BAD_CHARACTER_MESSAGE, containsBadCharacter, type PublicConfig } from "@easel/common";
import fastifyCookie from "@fastify/cookie";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import fastifySwagger from "@fastify/swagger";
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from "fastify";
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import helmet from "helmet";
import type { PublicClient } from "viem";
import { mainnet, sepolia } from "viem/chains";
import { type Config, publicConfig } from "./config.ts";
import {
  isChainUnavailable,
  isDatabaseUnavailable,
  isStorageUnavailable,
  RETRY_AFTER_S,
} from "./db/availability.ts";
import type { Database } from "./db/client.ts";
import { ApiError, dataError, loggableError } from "./errors.ts";
import { chainPosition } from "./indexer/live.ts";
import { createMailer } from "./mail/mailer.ts";
import { MailService } from "./mail/outbox.ts";
import { kuboPinner } from "./media/pin.ts";
import { MediaStore } from "./media/store.ts";
import { observeRequests } from "./metrics.ts";
import { sharedRateLimitStore } from "./rateLimitStore.ts";
import { echoRequestId, requestIdOf } from "./requestId.ts";
import { activityRoutes } from "./routes/activity.ts";
import { adminRoutes } from "./routes/admin.ts";
import { authRoutes } from "./routes/auth.ts";
import { cartRoutes } from "./routes/cart.ts";
import { collectionOfferRoutes } from "./routes/collectionOffers.ts";
import { collectionRoutes } from "./routes/collections.ts";
import { communityRoutes } from "./routes/community.ts";
import { eventsRoutes } from "./routes/events.ts";
import { exploreRoutes } from "./routes/explore.ts";
import { homeRoutes } from "./routes/home.ts";
import { itemRoutes } from "./routes/items.ts";
import { mediaRoutes } from "./routes/media.ts";
import { mintRoutes } from "./routes/mint.ts";
import { profileRoutes } from "./routes/profile.ts";
import { signedListingRoutes } from "./routes/signedListings.ts";
import { type HealthOptions, systemRoutes } from "./routes/system.ts";
import { watchlistRoutes } from "./routes/watchlist.ts";
import { serializerCompiler } from "./serializer.ts";
import {
  applyHeadersTimeout,
  bodyDeadlines,
  closeConnectionsWhenStopping,
  serverTimeouts,
} from "./timeouts.ts";
import { EASEL_VERSION } from "./version.ts";
import { pageEncoder } from "./web/encodePage.ts";
import { firstRead, PAGES, pageCode, pageLead, readManifest, withFirstPaint } from "./web/firstPaint.ts";
import { pageBudget, plainPage } from "./web/pageBudget.ts";
import { type Page, pageOf } from "./web/pages.ts";
import { cachedSharePreviews, withPreview } from "./web/sharePreview.ts";
import { interCached, withInterLater } from "./web/webFont.ts";

/** Who is signed in: every landing page carries the answer (web/firstPaint.ts). */
const SESSION_READ = "/api/auth/session";

export type AppDeps = { config: Config; db: Database; chain: PublicClient };

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
    /** Outbox mail: queue in a transaction, then `flush()` after it commits. */
    mail: MailService;
    /** Uploaded media on IPFS (filesystem blockstore), served at /ipfs/:cid. */
    media: MediaStore;
  }
}

export type App = FastifyInstance;

/** Builds the HTTP API (and, when configured, the web app it serves). Does not listen. */
/**
 * @param options.rateLimitScope Prefix of the shared rate-limit counters: replicas of one deployment share
 * the default (""); tests give each API they start its own, since they all share one database.
 * @param options.logStream Where the JSON log lines go (default stdout).
 * @param options.health Thresholds of `/api/health` (tests shorten them).
 */
export async function buildApp(
  deps: AppDeps,
  options: {
    logger?: boolean;
    rateLimitScope?: string;
    logStream?: NodeJS.WritableStream;
    health?: HealthOptions;
  } = {},
): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    // JSON lines; every line of a request carries its id, also sent back as X-Request-Id (requestId.ts).
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId: requestIdOf,
    logController: new LogController({ requestIdLogLabel: "requestId" }),
    // A hop count trusts that many proxies nearest to the server (proxy-addr's hop 0 is the socket peer).
    trustProxy:
      typeof config.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1_000_000,
    ...serverTimeouts(config.timeouts),
  }).withTypeProvider<ZodTypeProvider>();
  applyHeadersTimeout(app.server);
  bodyDeadlines(app, config.timeouts);
  closeConnectionsWhenStopping(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("deps", deps);
  echoRequestId(app);
  observeRequests(app);
  const mailLog = (line: string) => app.log.info(`mail: ${line}`);
  app.decorate("mail", new MailService(deps.db, createMailer(config, mailLog), mailLog));
  app.decorate("media", new MediaStore(config.mediaDir, config.ipfsApi ? kuboPinner(config.ipfsApi) : null));
  // Let a delivery pass that started before close finish, so no mail is left half-sent.
  app.addHook("onClose", () => app.mail.idle());

  app.setErrorHandler((raw, request, reply) => {
    const error = dataError(raw) ?? raw;
    if (error instanceof ApiError) {
      return reply
        .status(error.statusCode)
        .send({ error: { code: error.code, message: error.message, fields: error.fields } });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      // A bad query parameter's message names it ("limit: ..."), so a caller knows which one to fix.
      const inQuery = error.validationContext === "querystring";
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || "body";
        const message = issue.message ?? "Invalid value";
        fields[key] ??= inQuery && !message.includes(key) ? `${key}: ${message}` : message;
      }
      const first = Object.values(fields)[0] ?? "Invalid request";
      return reply.status(400).send({ error: { code: "invalid_request", message: first, fields } });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = error instanceof Error ? error.message : "Bad request";
      return reply
        .status(status)
        .send({ error: { code: status === 429 ? "rate_limited" : "bad_request", message } });
    }
    // The database (or the chain's RPC) is restarting, failing over or unreachable, or the media folder's disk
    // is full: a retry once it is back will work, so say when.
    if (isDatabaseUnavailable(error) || isChainUnavailable(error) || isStorageUnavailable(error)) {
      request.log.warn({ err: loggableError(error) }, "dependency unavailable");
      return reply
        .status(503)
        .header("retry-after", String(RETRY_AFTER_S))
        .send({
          error: { code: "unavailable", message: "Easel is briefly unavailable. Try again in a moment." },
        });
    }
    request.log.error({ err: loggableError(error) }, "unexpected error");
    return reply.status(500).send({ error: { code: "internal", message: "Something went wrong." } });
  });

  // Cross-site requests may not change anything: a browser marks them (Sec-Fetch-Site, else Origin), and
  // SameSite=Lax alone lets a sibling subdomain or another port of the same host through. Bodies must be
  // JSON (or multipart for uploads): no plain-text form post reaches a route.
  const ownOrigins = new Set(config.siweDomains.map((host) => `${config.publicUrl.protocol}//${host}`));
  app.removeContentTypeParser("text/plain");
  // The hooks every request passes through take a callback, not a promise: an async hook costs each request a
  // promise and a turn of the microtask queue (seen in the API's CPU profile under load).
  app.addHook("onRequest", (request, _reply, done) => {
    if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return done();
    const site = request.headers["sec-fetch-site"];
    const origin = request.headers.origin;
    const crossSite = site ? site !== "same-origin" && site !== "none" : !!origin && !ownOrigins.has(origin);
    done(
      crossSite ? new ApiError(403, "cross_site", "Requests from other sites are not accepted.") : undefined,
    );
  });

  // A NUL or half a character is never meaningful input, and PostgreSQL refuses them (a 500): bad input.
  app.addHook("preValidation", (request, _reply, done) => {
    const bad =
      containsBadCharacter(request.query) ||
      containsBadCharacter(request.body) ||
      containsBadCharacter(request.params);
    done(bad ? new ApiError(400, "invalid_request", BAD_CHARACTER_MESSAGE) : undefined);
  });

  // The only hosts the page may reach besides its own: the RPC its wagmi transport reads the chain from
  // (the local anvil, or viem's public RPC of mainnet or Sepolia), and the media origin when media has its own
  // (MEDIA_PUBLIC_URL); otherwise media and images come from our gateway.
  const browserRpc = config.browserRpcUrl ?? publicRpcOf(config.chainId);
  const rpcOrigin = browserRpc ? new URL(browserRpc).origin : null;
  const mediaOrigin = config.mediaPublicUrl ? [new URL(config.mediaPublicUrl).origin] : [];
  // With WALLETCONNECT_PROJECT_ID: WalletConnect's relay, RPC, wallet list and Verify frame (Reown's CSP guide).
  const walletConnect = config.walletConnectProjectId ? WALLETCONNECT_SOURCES : null;
  // Helmet's headers are worked out once here: @fastify/helmet built its middleware again on every request (its
  // CSP parse showed in the API's CPU profile under load), and none of ours depends on the request.
  const securityHeaders = fixedHeadersOf(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          // The media origin too: the site's /ipfs/ redirects there, and the item page's check fetches CARs.
          connectSrc: [
            "'self'",
            ...(rpcOrigin ? [rpcOrigin] : []),
            ...mediaOrigin,
            ...(walletConnect?.connect ?? []),
          ],
          imgSrc: ["'self'", "data:", "blob:", ...mediaOrigin, ...(walletConnect?.img ?? [])],
          mediaSrc: ["'self'", "blob:", ...mediaOrigin],
          // A PDF opens in a frame of its own origin.
          frameSrc: ["'self'", ...mediaOrigin, ...(walletConnect?.frame ?? [])],
          styleSrc: ["'self'", "'unsafe-inline'"],
          fontSrc: ["'self'", "data:", ...(walletConnect?.font ?? [])],
          scriptSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      hsts: config.publicUrl.protocol === "https:",
    }),
  );
  app.addHook("onRequest", (_request, reply, done) => {
    for (const [name, value] of securityHeaders.set) reply.raw.setHeader(name, value);
    for (const name of securityHeaders.removed) reply.raw.removeHeader(name);
    done();
  });
  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, {
    max: 1200,
    timeWindow: "1 minute",
    // Only the API is counted. A page load fetches dozens of static files (and everyone behind one proxy shares
    // an address), and the app polls the health check while the indexer catches up with its own transaction:
    // counted, those used up the address's minute and a busy tab was refused its own pages.
    allowList: exemptFromFloodGuard,
    // Route limits count in PostgreSQL, shared by every replica (see rateLimitStore.ts).
    store: sharedRateLimitStore(deps.db.$client, options.rateLimitScope ?? "") as never,
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: "Easel API",
        description: "The HTTP API of Easel, a marketplace for digital art on Ethereum.",
        version: EASEL_VERSION,
      },
    },
    transform: jsonSchemaTransform,
  });

  await app.register(systemRoutes, { prefix: "/api", ...options.health });
  await app.register(eventsRoutes, { prefix: "/api" });
  await app.register(authRoutes, { prefix: "/api/auth" });
  await app.register(profileRoutes, { prefix: "/api/profile" });
  await app.register(homeRoutes, { prefix: "/api/home" });
  await app.register(collectionRoutes, { prefix: "/api/collection" });
  await app.register(itemRoutes, { prefix: "/api/nft" });
  await app.register(mintRoutes, { prefix: "/api/mint" });
  await app.register(exploreRoutes, { prefix: "/api" });
  await app.register(communityRoutes, { prefix: "/api" });
  await app.register(adminRoutes, { prefix: "/api/admin" });
  await app.register(signedListingRoutes, { prefix: "/api/signed-listings" });
  await app.register(collectionOfferRoutes, { prefix: "/api/collection-offers" });
  await app.register(cartRoutes, { prefix: "/api/cart" });
  await app.register(activityRoutes, { prefix: "/api/activity" });
  await app.register(watchlistRoutes, { prefix: "/api/watchlist" });
  await app.register(mediaRoutes);
  app.get("/api/docs", { schema: { hide: true } }, async () => app.swagger());

  const webIndex = config.webDist ? join(config.webDist, "index.html") : null;
  if (config.webDist && webIndex && existsSync(webIndex)) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      // "/" is a page like the others (below), not the bare index.html.
      index: false,
      // The build writes .br and .gz copies of its text files (packages/web/build/precompress.ts): sent as
      // they are to browsers that take them, so no request pays for compression.
      preCompressed: true,
      setHeaders(reply, path) {
        // Vite fingerprints assets, so they never change; index.html must always be fresh.
        const fingerprinted = path.startsWith(join(config.webDist ?? "", "assets"));
        reply.header("cache-control", fingerprinted ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
    // Read once: Vite's index.html is small. Every page carries the public config, so the app starts
    // without waiting for GET /api/config; item, collection and profile pages add their preview tags, and the
    // pages people land on what they need first (web/firstPaint.ts).
    const indexHtml = withPublicConfig(readFileSync(webIndex, "utf8"), publicConfig(config));
    // Each page's code, worked out once: the build does not change while the server runs.
    const manifest = readManifest(config.webDist);
    const codeOf = new Map(
      PAGES.map((page) => [
        page,
        manifest ? pageCode(manifest, page, indexHtml) : { scripts: [], styles: [] },
      ]),
    );
    const previewOf = cachedSharePreviews(deps.db, config.contracts.defaultCollection);
    // Past a client's page budget, the app's plain page (web/pageBudget.ts).
    const budget = pageBudget();
    const plain = await plainPage(indexHtml);
    // The same for a browser that has not fetched Inter yet (web/webFont.ts).
    const plainInterLater = await plainPage(withInterLater(indexHtml));
    const encodePage = pageEncoder();
    app.get("/*", { schema: { hide: true } }, async (request, reply) => {
      const [path = "/", search = ""] = request.url.split("?");
      // The router's decoded path: `/%61pi/nope` is an API path too, and answers the API's 404.
      if (`/${(request.params as { "*"?: string })["*"] ?? ""}`.startsWith("/api/"))
        return reply.callNotFound();
      // A page carries its visitor's own answers: browsers may keep it, shared caches may not.
      reply.header("cache-control", "private, no-cache");
      reply.header("vary", "accept-encoding");
      // Client-side routes all answer with the app; the router shows the not-found page itself. A page the
      // server adds nothing to, or one past its client's budget, is the plain page compressed at start.
      const page = pageOf(path);
      const interLater = !interCached(request);
      if (!page || !budget.take(request.ip)) {
        const { body, encoding } = (interLater ? plainInterLater : plain).send(
          request.headers["accept-encoding"],
        );
        if (encoding) reply.header("content-encoding", encoding);
        return reply.type("text/html; charset=utf-8").send(body);
      }
      const [preview, paint] = await Promise.all([
        previewOf(page).catch((error) => {
          request.log.warn({ err: loggableError(error) }, "share preview failed");
          return null;
        }),
        firstPaint(page, new URLSearchParams(search), request),
      ]);
      const origin = config.publicUrl.origin;
      const mediaBase = config.mediaPublicUrl ?? origin;
      let html = preview ? withPreview(indexHtml, preview, `${origin}${path}`, origin, mediaBase) : indexHtml;
      html = withFirstPaint(html, paint);
      if (interLater) html = withInterLater(html);
      // The session read may clear a cookie that no longer signs in: the browser gets that too.
      for (const cookie of paint.cookies) reply.header("set-cookie", cookie);
      // A signed-in visitor's page is theirs alone: no one else would get its best copy.
      const shared = !(paint.answers[SESSION_READ] as { session?: unknown } | undefined)?.session;
      const { body, encoding } = await encodePage(html, request.headers["accept-encoding"], { shared });
      if (encoding) reply.header("content-encoding", encoding);
      return reply.type("text/html; charset=utf-8").send(body);
    });

    /**
     * A GET of the API as the visitor: with their cookie, and from their address, so the rate limit counts it
     * against them as it would count the app asking for itself. Null unless it answers 200.
     */
    const readAs = async (url: string, visitor: FastifyRequest) => {
      const cookie = visitor.headers.cookie;
      const response = await app
        .inject({ method: "GET", url, remoteAddress: visitor.ip, headers: cookie ? { cookie } : {} })
        .catch(() => null);
      const setCookie = response?.headers["set-cookie"] ?? [];
      return {
        answer: response?.statusCode === 200 ? (response.json() as unknown) : null,
        cookies: Array.isArray(setCookie) ? setCookie : [setCookie],
      };
    };

    /**
     * The page's code, its first answers (who is signed in, and the page's first read) and its picture.
     * The session is among them so the page's first paint already knows its visitor: a click on a
     * button that needs a signed-in member must not find the session still loading.
     */
    const firstPaint = async (page: Page, search: URLSearchParams, visitor: FastifyRequest) => {
      const read = firstRead(page, search);
      const reads = [SESSION_READ, ...(read ? [read] : [])];
      // The chain's position before the reads: the answers are at least as new, and the page's live stream
      // compares it with its own (routes/events.ts) to know whether they still are. A database that cannot be
      // reached has just cost its connection wait: the reads, which would wait as long again, are skipped and
      // the page is sent without answers (the app asks for them itself).
      let away = false;
      const position = await chainPosition(deps.db).catch((error) => {
        away = isDatabaseUnavailable(error);
        return null;
      });
      const results = away ? [] : await Promise.all(reads.map((url) => readAs(url, visitor)));
      const answers: Record<string, unknown> = {};
      reads.forEach((url, i) => {
        if (results[i]?.answer) answers[url] = results[i].answer;
      });
      return {
        ...(codeOf.get(page.page) ?? { scripts: [], styles: [] }),
        answers,
        position,
        lead: pageLead(page, read ? answers[read] : null, config.mediaPublicUrl ?? ""),
        cookies: results.flatMap((result) => result.cookies),
      };
    };
  }

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: { code: "not_found", message: `No route for ${request.method} ${request.url.split("?")[0]}` },
    }),
  );

  return app;
}

/**
 * Whether a request skips the flood guard, decided on the route it reached, never on the URL it was sent as:
 * the router decodes the path, so `/%61pi/auth/nonce` runs the nonce route while its raw URL does not start
 * with `/api/`. A route with a limit of its own always counts.
 */
export function exemptFromFloodGuard(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.rateLimit) return false;
  const route = request.routeOptions.url ?? "";
  return !route.startsWith("/api/") || route === "/api/health" || route === "/api/ready";
}

/**
 * The headers a middleware sets (and removes) on every answer, found by running it once: for a middleware
 * whose headers do not depend on the request, as helmet's with fixed options.
 */
export function fixedHeadersOf(
  middleware: (req: never, res: never, next: (error?: unknown) => void) => void,
): { set: [string, string][]; removed: string[] } {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const response = {
    setHeader: (name: string, value: string) => set.push([name, value]),
    removeHeader: (name: string) => removed.push(name),
  };
  let finished = false;
  middleware({} as never, response as never, (error) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error("the headers middleware did not finish at once");
  return { set, removed };
}

/** What WalletConnect and its QR code dialog load, by CSP directive: allowed only with WALLETCONNECT_PROJECT_ID. */
export const WALLETCONNECT_SOURCES = {
  connect: ["com", "org"].flatMap((tld) => [
    `wss://relay.walletconnect.${tld}`,
    `https://relay.walletconnect.${tld}`,
    `https://rpc.walletconnect.${tld}`,
    `https://verify.walletconnect.${tld}`,
    `https://pulse.walletconnect.${tld}`,
    `https://api.web3modal.${tld}`,
  ]),
  img: ["https://api.web3modal.com", "https://api.web3modal.org"],
  frame: ["com", "org"].flatMap((tld) => [
    `https://verify.walletconnect.${tld}`,
    `https://secure.walletconnect.${tld}`,
  ]),
  font: ["https://fonts.reown.com"],
} as const;

/** viem's public RPC of a known chain: what the web app's wagmi transport uses outside the local chain. */
function publicRpcOf(chainId: number): string | null {
  const chain = [mainnet, sepolia].find((c) => c.id === chainId);
  return chain?.rpcUrls.default.http[0] ?? null;
}

/**
 * The app's HTML with the public config in its head, as a JSON data block (`#easel-config`: never run, so
 * the CSP's script rule does not apply). `<` is escaped so no value can close the element.
 */
export function withPublicConfig(html: string, config: PublicConfig): string {
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  const block = `<script type="application/json" id="easel-config">${json}</script>`;
  return html.includes("</head>") ? html.replace("</head>", () => `${block}</head>`) : html;
}
