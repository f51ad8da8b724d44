import { readFileSync } from "node:fs";

const rootPackage = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** Easel's version, from the root package.json. */
export const EASEL_VERSION = rootPackage.version;
