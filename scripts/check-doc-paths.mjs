/**
 * Fails (exit 1) when a README or a doc names a path that does not exist. Run by `npm run lint`.
 *
 * Documents: every Markdown file git knows or would add (`git ls-files --cached --others --exclude-standard`),
 * so README.md, docs/, packages/<name>/README.md and any new page, and nothing under an ignored folder.
 *
 * What is checked, outside fenced code blocks (``` … ```), which hold commands and configuration:
 *  1. Markdown links and images, `[text](target)` and `![alt](target)`, whose target has no scheme (`https:`,
 *     `mailto:` …): the target without its `#fragment` resolves from the document's folder, as GitHub
 *     resolves it. A `#fragment` into a Markdown file (or `#fragment` alone, into the same document) must
 *     name one of its headings, slugged as GitHub does (lowercase, punctuation dropped, spaces to hyphens,
 *     `-1`, `-2` … for repeats).
 *  2. Inline code spans that look like a path of this repository: no whitespace, none of `* < > { } $ = … :`,
 *     not starting with `/` (an URL path or a system file) or `@` (a package), and either starting with one
 *     of the repository's top folders (`packages/`, `docs/`, `e2e/`, `scripts/`, `.ci/`, `./`, `../`) or
 *     holding a `/` and ending in a known extension (.ts .tsx .mjs .js .json .md .sol .sql .yml .yaml .css
 *     .html .png .webp .svg .toml). Such a path resolves from the document's folder or, unless it starts with
 *     `./` or `../`, from the repository root (how a reader types it in a terminal). So `src/db/pipelined.ts`
 *     in packages/server/README.md is fine, and in the root README.md it is an error.
 *     A path through a folder that a build or a run creates (`dist`, `node_modules`, `.data`,
 *     `test-results`, `playwright-report`, `artifacts`) is not checked: a clean clone has none of them.
 *
 * Usage: node scripts/check-doc-paths.mjs                 every document, as above
 *        node scripts/check-doc-paths.mjs FILE.md …         those files, each resolved from its own folder
 *        git show HEAD~1:README.md | node scripts/check-doc-paths.mjs --stdin-as README.md
 *                                                         a text read as if it were that file of the repository
 * Its test, scripts/check-doc-paths.test.mjs, runs it on made-up pages and on the README of an older commit.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TOP_FOLDERS = ["packages/", "docs/", "e2e/", "scripts/", ".ci/", "./", "../"];
const EXTENSIONS = /\.(ts|tsx|mjs|js|json|md|sol|sql|yml|yaml|css|html|png|webp|svg|toml)$/;
const BUILT = new Set(["dist", "node_modules", ".data", "test-results", "playwright-report", "artifacts"]);
const NOT_A_PATH = /[\s*<>{}$=…:]/;

/** The documents: Markdown files tracked or about to be, relative to the root. */
function documents() {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], {
    cwd: root,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter(Boolean)
    .filter((file) => existsSync(join(root, file)));
}

/** The document's lines outside fenced code blocks, with their numbers. */
function proseLines(text) {
  const lines = [];
  let fence = null;
  text.split("\n").forEach((line, index) => {
    const marker = /^\s*(```+|~~~+)/.exec(line);
    if (marker) {
      if (!fence) fence = marker[1];
      else if (marker[1].startsWith(fence[0]) && marker[1].length >= fence.length) fence = null;
      return;
    }
    if (!fence) lines.push({ line, number: index + 1 });
  });
  return lines;
}

/** GitHub's anchors for a document's headings. */
function anchors(text) {
  const seen = new Map();
  const slugs = new Set();
  for (const { line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const plain = heading[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "")
      .replace(/[`*_~]/g, (c) => (c === "_" ? "_" : ""));
    const base = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count ? `${base}-${count}` : base);
  }
  return slugs;
}

const anchorCache = new Map();
function anchorsOf(file) {
  if (!anchorCache.has(file)) anchorCache.set(file, anchors(readFileSync(file, "utf8")));
  return anchorCache.get(file);
}

const isBuilt = (path) => path.split("/").some((segment) => BUILT.has(segment));

/** The problems of one document, as `file:line: message`. */
export function check(file, text = readFileSync(file, "utf8")) {
  const folder = dirname(file);
  const name = relative(root, file) || file;
  const problems = [];
  for (const { line, number } of proseLines(text)) {
    // 1. Links and images (the code spans removed first, so a link written as code is not one).
    const withoutCode = line.replace(/`[^`]*`/g, "");
    for (const match of withoutCode.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [pathPart, fragment] = target.split("#");
      const path = decodeURIComponent(pathPart.split("?")[0]);
      const resolved = path ? resolve(folder, path) : file;
      if (path && !existsSync(resolved)) {
        problems.push(
          `${name}:${number}: link to ${target}: ${path} does not exist from ${relative(root, folder) || "."}/`,
        );
        continue;
      }
      if (fragment && resolved.endsWith(".md") && statSync(resolved).isFile()) {
        if (!anchorsOf(resolved).has(fragment.toLowerCase()))
          problems.push(
            `${name}:${number}: link to ${target}: no heading #${fragment} in ${relative(root, resolved)}`,
          );
      }
    }
    // 2. Code spans that look like paths of the repository.
    for (const match of line.matchAll(/(?<!`)`([^`\n]+)`(?!`)/g)) {
      const span = match[1].replace(/[.,;]$/, "");
      if (NOT_A_PATH.test(span) || span.startsWith("/") || span.startsWith("@")) continue;
      const topFolder = TOP_FOLDERS.some((prefix) => span.startsWith(prefix));
      if (!topFolder && !(span.includes("/") && EXTENSIONS.test(span))) continue;
      if (isBuilt(span)) continue;
      const relativeOnly = span.startsWith("./") || span.startsWith("../");
      if (existsSync(resolve(folder, span))) continue;
      if (!relativeOnly && existsSync(resolve(root, span))) continue;
      problems.push(
        `${name}:${number}: \`${span}\` does not exist from ${relative(root, folder) || "."}/${relativeOnly ? "" : " or the repository root"}`,
      );
    }
  }
  return problems;
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const given = process.argv.slice(2);
  let files;
  let problems;
  if (given[0] === "--stdin-as") {
    files = [join(root, given[1])];
    problems = check(files[0], readFileSync(0, "utf8"));
  } else {
    files = given.length ? given.map((file) => resolve(file)) : documents().map((file) => join(root, file));
    problems = files.flatMap((file) => check(file));
  }
  for (const problem of problems) console.error(problem);
  if (problems.length) {
    console.error(
      `\n${problems.length} path(s) in the docs do not resolve (rules: scripts/check-doc-paths.mjs).`,
    );
    process.exit(1);
  }
  console.log(`docs: every path in ${files.length} Markdown file(s) resolves`);
}
