// Every custom error and every event in our contracts' ABIs must be asserted by a test: a new error or event
// without a test fails here. An error counts when a Solidity test passes it to vm.expectRevert (with its values,
// `abi.encodeWithSelector(X.Name.selector, ...)`, when it has parameters) or a TS test uses viem's
// `revertWithCustomErrorWithArgs` (`revertWithCustomError` for errors without parameters). An event counts when a
// Solidity test emits it right after `vm.expectEmit()` (data checked) or a TS test uses `emitWithArgs`.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
  easelCollectionArtifact,
  easelFactoryArtifact,
  easelMarketArtifact,
  easelRoyaltySplitterArtifact,
} from "../../src/generated/artifacts.ts";

const testDir = path.resolve(import.meta.dirname, "..");

/**
 * Errors that no call can produce, inherited from libraries; each with the reason. Everything else, our own
 * errors and the reachable library ones, must be tested.
 */
const UNREACHABLE: Record<string, string> = {
  AccountBalanceOverflow: "Solady ERC721: needs 2^32 tokens owned by one account",
  TokenAlreadyExists:
    "Solady ERC721: a token id is refused earlier with RecordAlreadyRegistered (ids are never reused)",
  FailedDeployment:
    "OpenZeppelin Clones: a collection clone is created with CREATE at a fresh address, which cannot be taken",
  InsufficientBalance: "OpenZeppelin Clones: clones are always deployed with zero value",
  SplitterDeploymentFailed:
    "EaselSplitterClone: CREATE2 fails only when the address is taken, and createRoyaltySplitter returns the existing splitter instead of deploying again",
};

/** Events that our contracts never emit, inherited from libraries; each with the reason. */
const NEVER_EMITTED: Record<string, string> = {
  RoleAdminChanged:
    "OpenZeppelin AccessControl: role admins are never changed; the admin role administers every role",
};

type AbiItem = { type: string; name?: string; inputs?: readonly unknown[] };

function abiNames(kind: "error" | "event") {
  const out = new Map<string, { contracts: string[]; params: number }>();
  for (const artifact of [
    easelMarketArtifact,
    easelFactoryArtifact,
    easelCollectionArtifact,
    easelRoyaltySplitterArtifact,
  ]) {
    for (const item of artifact.abi as readonly AbiItem[]) {
      if (item.type !== kind || !item.name) continue;
      const entry = out.get(item.name) ?? { contracts: [], params: item.inputs?.length ?? 0 };
      entry.contracts.push(artifact.contractName);
      out.set(item.name, entry);
    }
  }
  return out;
}

function testSources(ext: string) {
  const files: string[] = [];
  for (const dir of ["solidity", "ts"]) {
    for (const f of readdirSync(path.join(testDir, dir))) {
      if (f.endsWith(ext) && f !== "abi-coverage.test.ts")
        files.push(readFileSync(path.join(testDir, dir, f), "utf8"));
    }
  }
  return files;
}

/** The text of the call starting at `open` (the index of its opening parenthesis). */
function callArgs(text: string, open: number) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return text.slice(open + 1, i);
  }
  return "";
}

function assertedErrors() {
  const withValues = new Set<string>();
  const selectorOnly = new Set<string>();
  for (const text of testSources(".sol")) {
    for (const m of text.matchAll(/vm\.expectRevert\(/g)) {
      let args = callArgs(text, m.index + m[0].length - 1);
      // `bytes memory err = abi.encodeWithSelector(...); vm.expectRevert(err);`
      const variable = /^\s*(\w+)\s*$/.exec(args)?.[1];
      if (variable) {
        const assignment = new RegExp(`\\b${variable}\\s*=\\s*(abi\\.encode\\w*\\()`).exec(text);
        if (assignment)
          args = `${assignment[1]}${callArgs(text, assignment.index + assignment[0].length - 1)})`;
      }
      for (const e of args.matchAll(/abi\.encodeWithSelector\(\s*(?:\w+\.)*(\w+)\.selector\s*,/g))
        withValues.add(e[1] ?? "");
      for (const e of args.matchAll(/abi\.encodeWithSignature\(\s*"(\w+)\(/g)) withValues.add(e[1] ?? "");
      for (const e of args.matchAll(/(?:\w+\.)*(\w+)\.selector/g)) selectorOnly.add(e[1] ?? "");
    }
  }
  for (const text of testSources(".sol")) {
    // Expected revert data built for a helper that calls vm.expectRevert with it.
    for (const e of text.matchAll(/abi\.encodeWithSelector\(\s*(?:\w+\.)*(\w+)\.selector\s*,/g))
      withValues.add(e[1] ?? "");
  }
  for (const text of testSources(".ts")) {
    for (const e of text.matchAll(/revertWithCustomErrorWithArgs\([^"]*?"(\w+)"/g))
      withValues.add(e[1] ?? "");
    for (const e of text.matchAll(/revertWithCustomError\([^"]*?"(\w+)"/g)) selectorOnly.add(e[1] ?? "");
  }
  return { withValues, selectorOnly };
}

function assertedEvents() {
  const names = new Set<string>();
  for (const text of testSources(".sol")) {
    // vm.expectEmit() or vm.expectEmit(topic1, topic2, topic3, true) (the data checked; a topic that cannot be
    // known in advance, like a new clone's address, may be skipped), then `emit [Contract.]Name(...)`.
    const flags = String.raw`(?:\s*(?:true|false)\s*,\s*(?:true|false)\s*,\s*(?:true|false)\s*,\s*true\s*)?`;
    const re = new RegExp(String.raw`vm\.expectEmit\(${flags}\);\s*emit\s+(?:\w+\.)*(\w+)\(`, "g");
    for (const m of text.matchAll(re)) {
      names.add(m[1] ?? "");
    }
  }
  for (const text of testSources(".ts")) {
    for (const e of text.matchAll(/emitWithArgs\([^"]*?"(\w+)"/g)) names.add(e[1] ?? "");
  }
  return names;
}

describe("every error and event of our ABIs is asserted by a test", () => {
  it("custom errors", () => {
    const { withValues, selectorOnly } = assertedErrors();
    const missing: string[] = [];
    for (const [name, { contracts, params }] of abiNames("error")) {
      if (name in UNREACHABLE) continue;
      const ok = withValues.has(name) || (params === 0 && selectorOnly.has(name));
      if (!ok) missing.push(`${name} (${contracts.join(", ")}${params > 0 ? `, ${params} values` : ""})`);
    }
    assert.deepEqual(missing, [], `errors without a test asserting them:\n${missing.join("\n")}`);
  });

  it("events", () => {
    const asserted = assertedEvents();
    const missing = [...abiNames("event")]
      .filter(([name]) => !asserted.has(name) && !(name in NEVER_EMITTED))
      .map(([name, { contracts }]) => `${name} (${contracts.join(", ")})`);
    assert.deepEqual(missing, [], `events without a test asserting their fields:\n${missing.join("\n")}`);
  });

  it("the unreachable list names only errors that exist", () => {
    const errors = abiNames("error");
    for (const name of Object.keys(UNREACHABLE)) assert.ok(errors.has(name), `${name} is not in any ABI`);
    const events = abiNames("event");
    for (const name of Object.keys(NEVER_EMITTED)) assert.ok(events.has(name), `${name} is not in any ABI`);
  });
});
