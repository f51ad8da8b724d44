import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["./test/global-setup.ts"],
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The suites share one PostgreSQL and one anvil; running files one at a time keeps them independent.
    fileParallelism: false,
    // One process runs the files in turn with its modules loaded once, not once per file. Each file builds its
    // own app, roles and data and none mocks a module; module-level state is shared, so a test that needs it
    // fresh imports the module fresh.
    isolate: false,
  },
});
