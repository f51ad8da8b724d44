/**
 * Stands in for `node:worker_threads` in the browser build. viem's `ox` reaches it only from a Node.js-only
 * path (Tempo's virtual-address mining), which the web app never takes; without this stand-in the bundler
 * externalizes the module and warns on every build.
 */
export class Worker {
  constructor() {
    throw new Error("node:worker_threads is not available in the browser.");
  }
}
export const isMainThread = true;
export const parentPort = null;
export const workerData = null;
