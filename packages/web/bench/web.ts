/**
 * `npm run bench:web`: builds the web app, starts `npm start`'s stack with the demo marketplace on its own
 * ports, and measures five pages as a first-time visitor meets them (empty cache): the JavaScript each
 * loads (gzip bytes of every script it fetched), and Lighthouse's performance, accessibility and
 * best-practices scores on desktop and on mobile (Lighthouse's defaults: simulated slow 4G and a mid-range
 * phone), with Debian's Chromium. Writes bench/web-report.json. Targets: ≤ 200 KB gzip of JavaScript on the
 * home page's first load, performance ≥ 90 and accessibility ≥ 95 on every page measured.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
// The benchmarks share the launcher stack with the demo (packages/server/bench).
import { startDemoStack } from "../../server/bench/demoStack.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const TARGET = { homeJsGzipKb: 200, performance: 90, accessibility: 95 };
const webDir = fileURLToPath(new URL("..", import.meta.url));
const dist = join(webDir, "dist");
const say = (line: string) => console.log(`[bench] ${line}`);

say("building the web app…");
const build = spawnSync("npm", ["run", "build"], {
  cwd: webDir,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});
if (build.status !== 0) throw new Error("the web app did not build");

say("starting the local stack and filling the demo marketplace…");
const stack = await startDemoStack();
const base = stack.base;

let chrome: chromeLauncher.LaunchedChrome | null = null;
try {
  const pages = await pagesToMeasure();
  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const results: Record<string, unknown> = {};
  const misses: string[] = [];
  for (const [name, path] of Object.entries(pages)) {
    const entry: Record<string, unknown> = { path };
    for (const device of ["desktop", "mobile"] as const) {
      // A run Lighthouse itself could not finish (e.g. NO_FCP when headless Chromium stalls) is run again once.
      let lhr: Lhr & { runtimeError?: { code: string } } = {} as never;
      for (let attempt = 1; attempt <= 2; attempt++) {
        const runner = await lighthouse(
          `${base}${path}`,
          {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: ["performance", "accessibility", "best-practices"],
          },
          device === "desktop" ? desktopConfig : undefined,
        );
        if (!runner) throw new Error(`Lighthouse gave no result for ${path}`);
        lhr = runner.lhr as never;
        if (!lhr.runtimeError) break;
        say(
          `${name} ${device}: Lighthouse could not finish (${lhr.runtimeError.code}); attempt ${attempt} of 2`,
        );
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const scripts = scriptUrls(lhr);
      const result = {
        performance: score("performance"),
        accessibility: score("accessibility"),
        bestPractices: score("best-practices"),
        largestContentfulPaintMs: Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? 0),
        totalBlockingTimeMs: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? 0),
        cumulativeLayoutShift: Number((lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3)),
        javascriptGzipKb: round(scripts.reduce((sum, url) => sum + gzipBytes(url), 0) / 1024),
        scripts: scripts.length,
        failedAudits: failedAudits(lhr),
        ...(lhr.runtimeError ? { lighthouseError: lhr.runtimeError.code } : {}),
      };
      entry[device] = result;
      if (result.performance < TARGET.performance)
        misses.push(`${name} ${device}: performance ${result.performance}`);
      if (result.accessibility < TARGET.accessibility)
        misses.push(`${name} ${device}: accessibility ${result.accessibility}`);
      say(
        `${name.padEnd(11)} ${device.padEnd(7)} performance ${String(result.performance).padStart(3)}  accessibility ${String(result.accessibility).padStart(3)}  best practices ${String(result.bestPractices).padStart(3)}  LCP ${result.largestContentfulPaintMs} ms  JS ${result.javascriptGzipKb} KB gzip (${result.scripts} files)`,
      );
    }
    results[name] = entry;
  }
  const home = (results.home as { desktop: { javascriptGzipKb: number } }).desktop.javascriptGzipKb;
  if (home > TARGET.homeJsGzipKb) misses.push(`home: ${home} KB gzip of JavaScript`);
  const report = {
    generatedAt: new Date().toISOString(),
    conditions: {
      machine: `${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
      browser: `Lighthouse ${lighthouseVersion()} with ${chromiumVersion()}, headless, empty cache per run`,
      desktop: "Lighthouse's desktop preset (simulated 10 Mbit/s, 40 ms RTT, no CPU slowdown)",
      mobile: "Lighthouse's default mobile preset (simulated slow 4G, 4x CPU slowdown, Moto G Power screen)",
      stack:
        "npm start's stack with the demo marketplace, the production build served precompressed by the API",
      javascript: "gzip bytes of every script the page fetched on its first visit (the .gz the server holds)",
      target: TARGET,
    },
    pages: results,
    missed: misses,
    passed: misses.length === 0,
  };
  const reportPath = new URL("./web-report.json", import.meta.url);
  writeFileSync(reportPath, `${JSON.stringify(report, null, 2)}\n`);
  say(misses.length ? `missed: ${misses.join("; ")}` : "every page within the targets");
  say(`report written to ${reportPath.pathname}`);
} finally {
  await chrome?.kill();
  await stack.stop();
}

/** Home, marketplace, a collection, an item and a profile of the demo. */
async function pagesToMeasure(): Promise<Record<string, string>> {
  const response = await fetch(`${base}/api/explore?status=buyNow&limit=1`);
  const { data } = (await response.json()) as {
    data: { nfts: { tokenId: string; collection: { name: string }; creatorData: { username: string } }[] };
  };
  const nft = data.nfts[0];
  if (!nft) throw new Error("the demo has no item for sale");
  const creator = encodeURIComponent(nft.creatorData.username);
  const collection = encodeURIComponent(nft.collection.name);
  return {
    home: "/",
    marketplace: "/ExploreNFTs",
    collection: `/collection/${collection}`,
    item: `/${creator}/${collection}/${nft.tokenId}`,
    profile: `/profile/${creator}`,
  };
}

type Lhr = {
  audits: Record<
    string,
    {
      score: number | null;
      scoreDisplayMode?: string;
      title: string;
      numericValue?: number;
      details?: unknown;
    }
  >;
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  lighthouseVersion: string;
};

function scriptUrls(lhr: Lhr): string[] {
  const items = (
    lhr.audits["network-requests"]?.details as { items?: { url: string; resourceType?: string }[] }
  )?.items;
  return [...new Set((items ?? []).filter((item) => item.resourceType === "Script").map((item) => item.url))];
}

/** The gzip size of a script of this build: the precompressed .gz beside it, or gzip at level 9. */
function gzipBytes(url: string): number {
  const file = join(dist, new URL(url).pathname);
  if (existsSync(`${file}.gz`)) return readFileSync(`${file}.gz`).length;
  if (existsSync(file)) return gzipSync(readFileSync(file), { level: 9 }).length;
  return 0;
}

/** The audits that cost points in the accessibility and best-practices categories, by title. */
function failedAudits(lhr: Lhr): string[] {
  const ids = ["accessibility", "best-practices"].flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? []).filter((ref) => ref.weight > 0).map((ref) => ref.id),
  );
  return ids
    .filter((id) => {
      const audit = lhr.audits[id];
      return audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== "notApplicable";
    })
    .map((id) => lhr.audits[id]?.title ?? id);
}

function lighthouseVersion(): string {
  const pkg = JSON.parse(
    readFileSync(join(webDir, "../../node_modules/lighthouse/package.json"), "utf8"),
  ) as { version: string };
  return pkg.version;
}

function chromiumVersion(): string {
  return spawnSync(CHROMIUM, ["--version"], { encoding: "utf8" }).stdout.trim() || "Chromium";
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
