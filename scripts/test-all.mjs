/**
 * `npm test`: every workspace's tests, in two lanes at once. The contracts' lane (common, then the contracts'
 * compile, type check and Solidity tests) is the longest: solc in WebAssembly keeps one core busy for most of it.
 * The server's integration tests run one file at a time against one PostgreSQL and one anvil, and the web's
 * tests follow them in the other lane, ending before the contracts do. The contracts' compile is here rather
 * than in `npm run typecheck` so that it overlaps the server's tests. Together the lanes keep most of a two-core
 * machine busy; a third lane of tests would only share it (CI fills the rest with the type check). Each line is
 * prefixed with its lane; the run fails when either lane fails, and says which.
 */
import { spawn } from "node:child_process";
import { stripVTControlCharacters } from "node:util";

const lanes = {
  server: ["@easel/server", "@easel/web"],
  contracts: ["@easel/common", "@easel/contracts"],
};

/** The lines a failing workspace printed that say what failed, reprinted at the very end of the run. */
const failureReports = [];

/**
 * What to reprint of a failed workspace: its failure summary (vitest's "Failed Tests", Hardhat's "N failing",
 * node:test's "failing tests") on to the end, or else its last lines. CI logs are often read from the tail,
 * where the other lane's output would otherwise bury the failure.
 */
function failureExcerpt(lines) {
  const plain = lines.map((line) => stripVTControlCharacters(line));
  const summaries = [/Failed Tests \d+/, /^\s*\d+ failing/, /failing tests:/];
  const start = summaries
    .map((summary) => plain.findIndex((line) => summary.test(line)))
    .find((at) => at >= 0);
  const from = start ?? Math.max(0, plain.length - 60);
  return plain.slice(from, from + 200);
}

/** Runs one workspace's `npm test`, its output prefixed; resolves with its exit code. */
function runWorkspace(lane, workspace) {
  return new Promise((resolve) => {
    const printed = [];
    const child = spawn("npm", ["run", "test", "-w", workspace], { stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [child.stdout, child.stderr]) {
      let rest = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk) => {
        const lines = (rest + chunk).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) {
          printed.push(line);
          process.stdout.write(`[${lane}] ${line}\n`);
        }
      });
      stream.on("end", () => {
        if (!rest) return;
        printed.push(rest);
        process.stdout.write(`[${lane}] ${rest}\n`);
      });
    }
    child.on("close", (code, signal) => {
      const exitCode = code ?? (signal ? 1 : 0);
      if (exitCode !== 0) failureReports.push({ workspace, lines: failureExcerpt(printed) });
      resolve(exitCode);
    });
  });
}

/** A lane runs its workspaces in order and stops at the first failure. */
async function runLane(lane, workspaces) {
  for (const workspace of workspaces) {
    const started = Date.now();
    const code = await runWorkspace(lane, workspace);
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stdout.write(
      `[${lane}] ${workspace}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds} s\n`,
    );
    if (code !== 0) return `${workspace} failed`;
  }
  return null;
}

const failures = (await Promise.all(Object.entries(lanes).map(([lane, ws]) => runLane(lane, ws)))).filter(
  Boolean,
);
if (failures.length > 0) {
  for (const { workspace, lines } of failureReports) {
    process.stdout.write(`\n==> what failed in ${workspace}\n${lines.join("\n")}\n`);
  }
  process.stderr.write(`npm test: ${failures.join("; ")}\n`);
  process.exit(1);
}
