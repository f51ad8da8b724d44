import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { createDatabase, migrateDatabase } from "../src/db/client.ts";
import { startAnvil } from "../src/embedded/anvil.ts";
import { startPostgres } from "../src/embedded/postgres.ts";
import { freePort } from "../src/embedded/process.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    rpcUrl: string;
  }
}

/** One real PostgreSQL and one real anvil for the whole run, in a temporary folder. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "easel-test-"));
  // PostgreSQL runs as the postgres user when we are root: it must be able to reach its folder.
  chmodSync(dir, 0o755);
  const [pgResult, anvilResult] = await Promise.allSettled([
    freePort().then((port) =>
      startPostgres({ dataDir: join(dir, "postgres"), port, database: "easel_test" }),
    ),
    freePort().then((port) => startAnvil({ port })),
  ]);
  if (pgResult.status === "rejected" || anvilResult.status === "rejected") {
    if (pgResult.status === "fulfilled") await pgResult.value.stop();
    if (anvilResult.status === "fulfilled") await anvilResult.value.stop();
    rmSync(dir, { recursive: true, force: true });
    throw pgResult.status === "rejected" ? pgResult.reason : (anvilResult as PromiseRejectedResult).reason;
  }
  const postgres = pgResult.value;
  const anvil = anvilResult.value;
  const db = createDatabase(postgres.url);
  await migrateDatabase(db);
  await db.$client.end();
  project.provide("databaseUrl", postgres.url);
  project.provide("rpcUrl", anvil.url);
  return async () => {
    await Promise.all([postgres.stop(), anvil.stop()]);
    rmSync(dir, { recursive: true, force: true });
  };
}
