/**
 * The root preinstall's line (`node --test scripts/node-note.test.mjs`): npm 11 runs it after the install, with
 * node_modules/.bin (Node 24) first in PATH, so the Node that runs npm is read from npm's user agent.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { nodeNote, npmNodeVersion } from "./node-note.mjs";

const script = join(import.meta.dirname, "node-note.mjs");
const AGENT_20 = "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false";
const LINE =
  "Easel runs on Node 24, which this install brings into node_modules/.bin for every npm script; Node v20.20.2 here only runs npm.";

test("npm on Node 20 running the script on the Node 24 it just installed: the line names Node 20", () => {
  // What npm 11 hands the root preinstall: its user agent, and node_modules/.bin's Node 24 as `node`.
  assert.equal(npmNodeVersion({ npm_config_user_agent: AGENT_20 }, "24.21.0"), "20.20.2");
  const output = execFileSync(process.execPath, [script], {
    env: { ...process.env, npm_config_user_agent: AGENT_20, npm_config_node_version: "" },
    encoding: "utf8",
  });
  assert.equal(output.trim(), LINE);
});

test("an explicit --node-version comes first; by hand, the running Node", () => {
  assert.equal(
    npmNodeVersion(
      { npm_config_node_version: "v20.20.2", npm_config_user_agent: "npm/11 node/v24.1.0" },
      "24.1.0",
    ),
    "20.20.2",
  );
  assert.equal(npmNodeVersion({}, "v18.19.0"), "18.19.0");
});

test("nothing on Node 24 or later", () => {
  assert.equal(nodeNote("24.0.0"), null);
  assert.equal(nodeNote("25.1.0"), null);
  assert.equal(nodeNote("20.20.2"), LINE);
  const output = execFileSync(process.execPath, [script], {
    env: {
      ...process.env,
      npm_config_user_agent: "npm/11.19.1 node/v24.21.0 linux x64",
      npm_config_node_version: "",
    },
    encoding: "utf8",
  });
  assert.equal(output, "");
});
