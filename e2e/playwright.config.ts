import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(CHROMIUM)) {
  throw new Error(
    `Chromium is missing at ${CHROMIUM}. The browser tests drive Debian's Chromium: install it with 'apt-get install -y chromium' (as root), or point CHROMIUM_PATH at another Chromium.`,
  );
}

/**
 * The browser tests run their own embedded Easel on other ports (E2E_PORT, E2E_CHAIN_PORT, E2E_DB_PORT
 * move them), with data in e2e/.data (E2E_DATA_DIR moves it: two runs at once each need their own).
 */
export const E2E = {
  port: Number(process.env.E2E_PORT ?? 3100),
  chainPort: Number(process.env.E2E_CHAIN_PORT ?? 8645),
  dbPort: Number(process.env.E2E_DB_PORT ?? 5533),
  dataDir: process.env.E2E_DATA_DIR ?? fileURLToPath(new URL("./.data", import.meta.url)),
};
const baseURL = `http://127.0.0.1:${E2E.port}`;

export default defineConfig({
  testDir: "./tests",
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"]],
  use: {
    baseURL,
    // A failed test keeps its trace: each step's DOM, network and console. Not the screencast, which would
    // encode a picture of every frame of every test, passing or not.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: true },
    // The browser asks for reduced motion, as some visitors' do: the app's transitions and looping animations
    // then stop (styles.css), and so do the frames Chromium would draw for them in software. No test here checks
    // motion; the web's component tests check both settings where the app tells them apart.
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "node --import tsx ../packages/server/src/bin/easel.ts --reset --yes --no-demo",
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    // SIGTERM lets the launcher stop anvil and PostgreSQL itself.
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    env: {
      EASEL_DATA_DIR: E2E.dataDir,
      PORT: String(E2E.port),
      EASEL_CHAIN_PORT: String(E2E.chainPort),
      EASEL_DB_PORT: String(E2E.dbPort),
    },
  },
});
