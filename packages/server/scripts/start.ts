/**
 * `npm start`: runs the launcher (src/bin/easel.ts) compiled, building it first when a source is newer
 * than the build (a fraction of a second), so a start never waits for TypeScript to compile as it loads.
 */
import { buildServer, serverBuildIsCurrent } from "./build.ts";

if (!serverBuildIsCurrent()) {
  console.log("[easel] building the server…");
  await buildServer();
}
// A path TypeScript does not follow: the build has no types, and need not exist when it type-checks.
await import(new URL("../dist/bin/easel.js", import.meta.url).href);
