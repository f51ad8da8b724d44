import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./paths.ts";

const rootPackage = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  version: string;
};

/** Easel's version, from the root package.json. */
export const EASEL_VERSION = rootPackage.version;
