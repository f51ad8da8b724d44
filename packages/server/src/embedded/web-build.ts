import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** Newest modification time of any file under the given paths. */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== "node_modules") visit(join(path, entry));
    } else if (stat.mtimeMs > newest) newest = stat.mtimeMs;
  };
  for (const path of paths) visit(path);
  return newest;
}

/**
 * Builds the web app when its build is missing or older than its sources (including the shared
 * code it imports), so `npm start` always serves what the repository holds.
 */
export async function ensureWebBuild(
  repoRoot: string,
  log: (message: string) => void,
  signal?: AbortSignal,
): Promise<string> {
  const webDir = join(repoRoot, "packages", "web");
  const dist = join(webDir, "dist");
  const index = join(dist, "index.html");
  const sources = ["src", "public", "index.html", "vite.config.ts", "package.json"].map((p) =>
    join(webDir, p),
  );
  sources.push(join(repoRoot, "packages", "common", "src"), join(repoRoot, "packages", "contracts", "src"));
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (builtAt > newestMtime(sources)) return dist;

  log(builtAt === 0 ? "building the web app (first start)…" : "web sources changed; rebuilding the web app…");
  // vite's package exports do not include its CLI, so find it beside its package.json.
  const vitePackage = createRequire(join(webDir, "package.json")).resolve("vite/package.json");
  const vite = join(dirname(vitePackage), "bin", "vite.js");
  // Not spawnSync: a stop (Ctrl-C, SIGTERM) during the build must be handled at once, and end vite too.
  const child = spawn(process.execPath, [vite, "build", "--logLevel", "warn"], {
    cwd: webDir,
    stdio: "inherit",
    // Always the production build: a start from a test runner (NODE_ENV=test) would otherwise ship
    // React's development build, twice the size and slower.
    env: { ...process.env, NODE_ENV: "production" },
    signal,
  });
  const code = await new Promise<number | null>((resolve) => {
    child.once("error", () => resolve(null));
    child.once("exit", resolve);
  });
  signal?.throwIfAborted();
  if (code !== 0 || !existsSync(index)) throw new Error("The web app failed to build (see above).");
  return dist;
}
