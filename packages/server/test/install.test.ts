/**
 * The first command a newcomer runs: `npm install` on a machine whose Node is older than 24 prints one line
 * saying that Node 24 comes with the install, not npm's five-line engine warning for every dependency.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "easel-install-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("npm install on an older Node says one honest line and no engine warnings", () => {
  // The install's inputs only: the manifests, the lockfile, .npmrc and the note script.
  for (const file of [".npmrc", "package.json", "package-lock.json", "scripts/node-note.mjs"])
    cpSync(join(repoRoot, file), join(dir, file));
  for (const workspace of [
    "packages/common",
    "packages/contracts",
    "packages/server",
    "packages/web",
    "e2e",
  ]) {
    mkdirSync(join(dir, workspace), { recursive: true });
    cpSync(join(repoRoot, workspace, "package.json"), join(dir, workspace, "package.json"));
  }
  // npm checks engines against --node-version; a dry run resolves the whole tree from the lockfile offline.
  const output = execFileSync(
    "npm",
    ["ci", "--dry-run", "--offline", "--no-audit", "--no-fund", "--node-version=20.20.2"],
    { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  );
  const lines = output.split("\n").filter((line) => line.trim() !== "" && !/^add /.test(line));
  expect(lines.filter((line) => /EBADENGINE|npm warn/.test(line))).toEqual([]);
  expect(lines.filter((line) => line.includes("Easel runs on Node 24"))).toEqual([
    "Easel runs on Node 24, which this install brings into node_modules/.bin for every npm script; Node v20.20.2 here only runs npm.",
  ]);
});
