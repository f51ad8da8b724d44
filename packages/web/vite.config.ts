import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { appChunks } from "./build/appChunk.ts";
import { fontDisplayOptional } from "./build/fontDisplay.ts";
import { inlineStyles } from "./build/inlineStyles.ts";
import { precompress } from "./build/precompress.ts";

/** The API server the dev server proxies to (the embedded stack started by `npm start`). */
const API_ORIGIN = process.env.EASEL_API_ORIGIN ?? "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react(), tailwindcss(), fontDisplayOptional(), inlineStyles(), precompress()],
  resolve: {
    alias: {
      // Only a Node.js path of a dependency imports it (see the stand-in): nothing for the browser to load.
      "node:worker_threads": fileURLToPath(new URL("./build/no-worker-threads.ts", import.meta.url)),
    },
  },
  server: {
    host: "127.0.0.1",
    proxy: {
      "/api": { target: API_ORIGIN, changeOrigin: false },
      "/ipfs": { target: API_ORIGIN, changeOrigin: false },
    },
  },
  preview: {
    host: "127.0.0.1",
    proxy: {
      "/api": { target: API_ORIGIN, changeOrigin: false },
      "/ipfs": { target: API_ORIGIN, changeOrigin: false },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 700,
    // The server reads it to send a landing page's code with its HTML (server: src/web/firstPaint.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: appChunks(), debugName: "app frame", includeDependenciesRecursively: false }],
        },
      },
    },
  },
  test: {
    environment: "jsdom",
    // One jsdom per worker, each test file in its own VM context: files stay isolated, and the suite spends its
    // time in tests rather than in building a window for every file.
    pool: "vmThreads",
    setupFiles: ["./src/test/setup.ts"],
    // A test that renders a screen and walks through it may take several seconds on a busy two-core machine
    // (CI runs the contracts' lane beside this one). Its assertions are about what the screen says, not how fast:
    // speed is measured by `npm run bench:web`, so a slow machine must not fail a correct screen at 5 s.
    testTimeout: 20_000,
    include: ["src/**/*.test.{ts,tsx}", "bench/**/*.test.ts"],
    css: false,
  },
});
