// Branch (and line) coverage of our contracts, derived from the output of `hardhat test --coverage`.
//
// Hardhat 3 (EDR) instruments statements only: its lcov.info has line hits and no BRDA records. This script
// rebuilds the statement metadata with the same EDR function Hardhat calls (the tags are deterministic:
// source name + position), reads the hit counts Hardhat saved in coverage/data/*/*.json, parses our sources
// with solc (parse only) and evaluates every branch point of the AST. The method is documented in README.md
// ("Coverage"). Exits 1 below 95% lines or 90% branches.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { addStatementCoverageInstrumentation, latestSupportedSolidityVersion } from "@nomicfoundation/edr";

const MIN_LINES = 95;
const MIN_BRANCHES = 90;

const root = path.resolve(import.meta.dirname, "..");
const require = createRequire(import.meta.url);

/** Our contracts: everything under contracts/ except mocks and test helpers (interfaces have no statements). */
function ourSources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir))) {
      const rel = `${dir}/${entry}`;
      if (statSync(path.join(root, rel)).isDirectory()) {
        if (rel !== "contracts/mocks" && rel !== "contracts/test") walk(rel);
      } else if (rel.endsWith(".sol")) {
        out.push(rel);
      }
    }
  };
  walk("contracts");
  return out.sort();
}

/** Sum of the hit counts of every coverage run Hardhat saved (Solidity tests and node tests). */
function loadHits(): Map<string, number> {
  const hits = new Map<string, number>();
  const dataDir = path.join(root, "coverage", "data");
  for (const kind of readdirSync(dataDir)) {
    for (const file of readdirSync(path.join(dataDir, kind))) {
      const entries = JSON.parse(readFileSync(path.join(dataDir, kind, file), "utf8")) as Record<
        string,
        number
      >;
      for (const [tag, count] of Object.entries(entries)) hits.set(tag, (hits.get(tag) ?? 0) + count);
    }
  }
  return hits;
}

/** Line hits from lcov.info, per file. */
function loadLcov(): Map<string, Map<number, number>> {
  const files = new Map<string, Map<number, number>>();
  let current: Map<number, number> | undefined;
  for (const line of readFileSync(path.join(root, "coverage", "lcov.info"), "utf8").split("\n")) {
    if (line.startsWith("SF:")) {
      current = new Map();
      files.set(line.slice(3), current);
    } else if (line.startsWith("DA:") && current) {
      const [n, count] = line.slice(3).split(",").map(Number);
      current.set(n ?? 0, count ?? 0);
    }
  }
  return files;
}

type AstNode = { nodeType: string; src: string; [key: string]: unknown };

function parseAsts(sources: string[]): Map<string, AstNode> {
  const solc = require("solc") as { compile(input: string): string };
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(
      sources.map((s) => [s, { content: readFileSync(path.join(root, s), "utf8") }]),
    ),
    settings: { stopAfter: "parsing", outputSelection: { "*": { "": ["ast"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    sources: Record<string, { ast: AstNode }>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join("\n"));
  return new Map(sources.map((s) => [s, (output.sources[s] as { ast: AstNode }).ast]));
}

function walk(node: unknown, visit: (n: AstNode) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
  } else if (node !== null && typeof node === "object") {
    const n = node as AstNode;
    if (typeof n.nodeType === "string") visit(n);
    for (const value of Object.values(n)) if (typeof value === "object") walk(value, visit);
  }
}

/** Whether a statement always leaves its block (so the code after it runs only when it did not run). */
function terminates(n: AstNode | undefined): boolean {
  if (!n) return false;
  switch (n.nodeType) {
    case "RevertStatement":
    case "Return":
    case "Break":
    case "Continue":
      return true;
    case "ExpressionStatement": {
      const e = n.expression as AstNode;
      const callee = e.nodeType === "FunctionCall" ? (e.expression as AstNode) : undefined;
      return callee?.nodeType === "Identifier" && callee.name === "revert";
    }
    case "Block":
    case "UncheckedBlock": {
      const list = n.statements as AstNode[];
      return list.length > 0 && terminates(list[list.length - 1]);
    }
    case "IfStatement":
      return terminates(n.trueBody as AstNode) && terminates(n.falseBody as AstNode | undefined);
    default:
      return false;
  }
}

type Outcome = { label: string; covered: boolean | undefined };
type BranchPoint = { line: number; kind: string; outcomes: Outcome[] };

function analyse(file: string, ast: AstNode, hits: Map<string, number>) {
  const content = readFileSync(path.join(root, file), "utf8");
  const bytes = Buffer.from(content, "utf8");
  // solc positions are UTF-8 byte offsets; EDR's are UTF-16 offsets.
  const toUtf16 = (byteOffset: number) => bytes.subarray(0, byteOffset).toString("utf8").length;
  const lineOf = (byteOffset: number) => bytes.subarray(0, byteOffset).toString("utf8").split("\n").length;
  const range = (n: AstNode) => {
    const [start = 0, length = 0] = n.src.split(":").map(Number);
    return { start: toUtf16(start), end: toUtf16(start + length), line: lineOf(start) };
  };

  const { metadata } = addStatementCoverageInstrumentation(
    content,
    `project/${file}`,
    latestSupportedSolidityVersion(),
  );
  // EDR's ranges include the surrounding whitespace: trim them to the statement's own text.
  const statements = metadata.map((m) => {
    const text = content.slice(m.startUtf16, m.endUtf16);
    return {
      start: m.startUtf16 + (text.length - text.trimStart().length),
      end: m.endUtf16 - (text.length - text.trimEnd().length),
      count: hits.get(Buffer.from(m.tag).toString("hex")) ?? 0,
    };
  });
  // The hit count of the first statement executed in a region (the earliest one starting in it), or undefined
  // when the region holds no statement.
  const firstCount = (n: AstNode | undefined): number | undefined => {
    if (!n) return undefined;
    const r = range(n);
    let best: { start: number; end: number; count: number } | undefined;
    for (const s of statements) {
      const inside = s.start >= r.start && s.start < r.end;
      if (inside && (!best || s.start < best.start || (s.start === best.start && s.end > best.end))) {
        best = s;
      }
    }
    return best?.count;
  };
  const countAt = (n: AstNode) => {
    const r = range(n);
    return statements.find((s) => s.start === r.start)?.count;
  };

  // The statement after each statement of a block (an if's "continuation").
  const nextSibling = new Map<unknown, AstNode>();
  walk(ast, (n) => {
    if (n.nodeType === "Block" || n.nodeType === "UncheckedBlock") {
      const list = n.statements as AstNode[];
      for (let i = 0; i + 1 < list.length; i++) nextSibling.set(list[i]?.id, list[i + 1] as AstNode);
    }
  });

  const points: BranchPoint[] = [];
  const unmeasured: { line: number; kind: string }[] = [];
  walk(ast, (n) => {
    if (n.nodeType === "IfStatement") {
      const trueBody = n.trueBody as AstNode;
      const falseBody = n.falseBody as AstNode | undefined;
      const ifCount = countAt(n);
      const trueCount = firstCount(trueBody);
      let falseCovered: boolean | undefined;
      if (falseBody) {
        const c = firstCount(falseBody);
        falseCovered = c === undefined ? undefined : c > 0;
      } else {
        const next = nextSibling.get(n.id);
        const nextCount = next && terminates(trueBody) ? countAt(next) : undefined;
        if (nextCount !== undefined && nextCount > 0) {
          // The body always leaves (revert, return, break, continue): reaching the next statement means false.
          falseCovered = true;
        } else if (ifCount !== undefined && trueCount !== undefined) {
          // The if was reached in more test runs than its body ran: the condition was false at least once.
          falseCovered = ifCount > trueCount;
        }
      }
      points.push({
        line: range(n).line,
        kind: falseBody ? "if/else" : "if",
        outcomes: [
          { label: "true", covered: trueCount === undefined ? undefined : trueCount > 0 },
          { label: "false", covered: falseCovered },
        ],
      });
      // Short-circuit operands of the condition are not statements: nothing tells which operand decided.
      walk(n.condition, (c) => {
        if (c.nodeType === "BinaryOperation" && (c.operator === "&&" || c.operator === "||")) {
          unmeasured.push({ line: range(c).line, kind: `${c.operator} operand` });
        }
      });
    } else if (n.nodeType === "TryStatement") {
      const clauses = n.clauses as AstNode[];
      points.push({
        line: range(n).line,
        kind: "try/catch",
        outcomes: clauses.map((clause, i) => {
          const c = firstCount(clause.block as AstNode);
          return {
            label: i === 0 ? "success" : `catch ${clause.errorName || ""}`.trim(),
            covered: c === undefined ? undefined : c > 0,
          };
        }),
      });
    } else if (n.nodeType === "Conditional") {
      unmeasured.push({ line: range(n).line, kind: "ternary" });
    }
  });
  return { points, unmeasured };
}

const sources = ourSources();
const asts = parseAsts(sources);
const hits = loadHits();
const lcov = loadLcov();

const rows: string[][] = [];
let totalLines = 0;
let totalLinesHit = 0;
let totalBranches = 0;
let totalBranchesHit = 0;
let totalUnmeasured = 0;
const missed: string[] = [];
const notMeasured: string[] = [];
const pct = (hit: number, all: number) => (all === 0 ? "-" : ((100 * hit) / all).toFixed(2));

for (const file of sources) {
  const lines = lcov.get(file) ?? new Map<number, number>();
  const linesHit = [...lines.values()].filter((c) => c > 0).length;
  const { points, unmeasured } = analyse(file, asts.get(file) as AstNode, hits);
  let branches = 0;
  let branchesHit = 0;
  for (const p of points) {
    for (const o of p.outcomes) {
      if (o.covered === undefined) {
        unmeasured.push({ line: p.line, kind: `${p.kind} ${o.label} (no statement)` });
        continue;
      }
      branches++;
      if (o.covered) branchesHit++;
      else missed.push(`${file}:${p.line} ${p.kind} ${o.label}`);
    }
  }
  if (lines.size === 0 && branches === 0) continue;
  totalLines += lines.size;
  totalLinesHit += linesHit;
  totalBranches += branches;
  totalBranchesHit += branchesHit;
  totalUnmeasured += unmeasured.length;
  for (const u of unmeasured) notMeasured.push(`${path.basename(file)}:${u.line} ${u.kind}`);
  rows.push([
    file,
    pct(linesHit, lines.size),
    `${linesHit}/${lines.size}`,
    pct(branchesHit, branches),
    `${branchesHit}/${branches}`,
    String(unmeasured.length),
  ]);
}

const linePct = (100 * totalLinesHit) / totalLines;
const branchPct = totalBranches === 0 ? 100 : (100 * totalBranchesHit) / totalBranches;
rows.push([
  "Total",
  linePct.toFixed(2),
  `${totalLinesHit}/${totalLines}`,
  branchPct.toFixed(2),
  `${totalBranchesHit}/${totalBranches}`,
  String(totalUnmeasured),
]);

const header = [
  "Contract (mocks and test helpers excluded)",
  "Line %",
  "Lines",
  "Branch %",
  "Branches",
  "Not measurable",
];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
const fmt = (r: string[]) =>
  r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ");
console.log(
  "\nBranch coverage (derived from Hardhat's statement hits and the solc AST; see README, Coverage)",
);
console.log(fmt(header));
console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
for (const [i, r] of rows.entries()) {
  if (i === rows.length - 1) console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  console.log(fmt(r));
}
if (missed.length > 0) console.log(`\nUncovered branch outcomes:\n  ${missed.join("\n  ")}`);
console.log(
  `\n"Not measurable" (not counted): ternaries and &&/|| operands are expressions, not statements, so no hit tells their outcomes apart:\n  ${notMeasured.join(", ")}`,
);

const failures: string[] = [];
if (linePct < MIN_LINES) failures.push(`line coverage ${linePct.toFixed(2)}% < ${MIN_LINES}%`);
if (branchPct < MIN_BRANCHES) failures.push(`branch coverage ${branchPct.toFixed(2)}% < ${MIN_BRANCHES}%`);
if (failures.length > 0) {
  console.error(`\nCoverage below the thresholds: ${failures.join(", ")}`);
  process.exit(1);
}
console.log(
  `\nCoverage OK: lines ${linePct.toFixed(2)}% >= ${MIN_LINES}%, branches ${branchPct.toFixed(2)}% >= ${MIN_BRANCHES}%`,
);
