import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The server package's folder (packages/server): the nearest folder above this module with a package.json.
 * Found rather than written as a relative path because this module runs from src/ under tsx and bundled
 * into dist/bin/*.js in production, at another depth.
 */
function findServerRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dir === dirname(dir)) throw new Error("the server's package.json was not found");
  }
}

export const serverRoot = findServerRoot();
/** The repository's root folder (the npm workspace). */
export const repoRoot = resolve(serverRoot, "..", "..");
