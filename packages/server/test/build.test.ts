/**
 * The compiled server (`npm run build` → dist/bin/*.js), run as production runs it: plain `node`, no
 * TypeScript loader, from the bundles' own folder.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../src/embedded/process.ts";
import { EASEL_VERSION } from "../src/version.ts";
import { validEnv } from "./helpers.ts";
import { exited, until } from "./launcher-helpers.ts";

const serverDir = fileURLToPath(new URL("..", import.meta.url));
const binDir = join(serverDir, "dist", "bin");

beforeAll(() => {
  execFileSync(process.execPath, [join(serverDir, "scripts", "build.ts")], { stdio: "pipe" });
}, 120_000);

/** `node dist/bin/<file>` with `env` and nothing else: no loader, no inherited variables. */
function run(file: string, env: Record<string, string | undefined>): ChildProcess {
  return spawn(process.execPath, [join(binDir, file)], {
    env: { ...env, PATH: process.env.PATH },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

describe("the compiled server", () => {
  it("has one bundle per src/bin entry, with the workspace packages inside and no TypeScript left", () => {
    const entries = readdirSync(join(serverDir, "src", "bin")).filter((name) => name.endsWith(".ts"));
    expect(entries.length).toBeGreaterThanOrEqual(5);
    for (const entry of entries) {
      const code = readFileSync(join(binDir, entry.replace(/\.ts$/, ".js")), "utf8");
      expect(code, entry).not.toMatch(/from\s*"@easel\//);
      expect(code, entry).not.toMatch(/from\s*"[^"]+\.ts"/);
    }
  });

  for (const role of ["api", "indexer", "worker", "resync"]) {
    it(`${role} runs with plain node and names a missing variable`, () => {
      const result = spawnSync(
        process.execPath,
        [join(binDir, `${role}.js`)],
        // Nothing from the test runner's environment: no loader can come from NODE_OPTIONS.
        { env: { ...validEnv({ DATABASE_URL: undefined }), PATH: process.env.PATH }, encoding: "utf8" },
      );
      expect(result.status, result.stderr).toBe(1);
      expect(result.stderr.trim()).toBe("Invalid configuration: DATABASE_URL is missing");
    });
  }

  it("api migrates, listens and answers /api/health: the database and chain reached, the repository's version", async () => {
    const port = await freePort();
    const api = run(
      "api.js",
      validEnv({
        HOST: "127.0.0.1",
        PORT: String(port),
        NODE_ENV: "production",
        ALLOW_LOCAL_CHAIN_IN_PRODUCTION: "1",
      }),
    );
    let output = "";
    api.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      let health: Response | null = null;
      await until(async () => {
        if (api.exitCode !== null) throw new Error(`the api exited:\n${output}`);
        health = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null);
        return health !== null;
      }, "the compiled api to answer");
      // 503 only says the indexer state other test files left behind is behind the chain.
      const body = (await (health as unknown as Response).json()) as {
        version: string;
        database: { ok: boolean };
        chain: { ok: boolean };
      };
      expect(body).toMatchObject({ version: EASEL_VERSION, database: { ok: true }, chain: { ok: true } });
    } finally {
      api.kill("SIGTERM");
      expect(await exited(api)).toBe(0);
    }
  });

  it("indexer and worker start and stop on SIGTERM", async () => {
    for (const role of ["indexer", "worker"]) {
      const child = run(`${role}.js`, validEnv());
      let output = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      await until(() => {
        if (child.exitCode !== null) throw new Error(`the ${role} exited:\n${output}`);
        // Production roles log JSON lines (src/log.ts).
        return output.includes(`"msg":"${role} started`);
      }, `the compiled ${role} to start`);
      child.kill("SIGTERM");
      expect(await exited(child)).toBe(0);
    }
  });
});
