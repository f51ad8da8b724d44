/**
 * The doc path check fails on what a reader could not follow and passes what they could
 * (`node --test scripts/check-doc-paths.test.mjs`, run by `npm run lint`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { check } from "./check-doc-paths.mjs";

const root = join(import.meta.dirname, "..");
const readme = join(root, "README.md");
const inServer = join(root, "packages/server/README.md");

test("paths named from the wrong folder fail, as the README once named them", () => {
  // Lines of the README before issue 48: server paths written from the repository root.
  const old = [
    "- **Pipelined browse reads, one write a turn.** The browse reads go over a few pipelined connections",
    "  (`src/db/pipelined.ts`), so PostgreSQL runs the statements queued on a connection back to back",
    "  failed; while it was away every request was answered 503 within 0.35 s (5 runs of `test/resilience.test.ts`:",
  ].join("\n");
  const problems = check(readme, old);
  assert.equal(problems.length, 2);
  assert.match(problems[0], /README\.md:2: `src\/db\/pipelined\.ts` does not exist/);
  assert.match(problems[1], /README\.md:3: `test\/resilience\.test\.ts` does not exist/);
});

test("a path resolves from the document's folder or the repository root", () => {
  assert.deepEqual(
    check(readme, "See `packages/server/src/db/pipelined.ts` and `docs/architecture.md`."),
    [],
  );
  assert.deepEqual(
    check(inServer, "See `src/db/pipelined.ts` and `packages/server/src/db/pipelined.ts`."),
    [],
  );
  assert.equal(check(inServer, "See `./packages/server/src/db/pipelined.ts`.").length, 1);
  assert.equal(check(readme, "See `scripts/no-such-script.mjs`.").length, 1);
});

test("links resolve from the document's folder, and their anchors name a heading", () => {
  const docs = join(root, "docs/operating.md");
  assert.deepEqual(
    check(docs, "[up](../README.md#quick-start), [here](#troubleshooting), [web](https://x.y/z)"),
    [],
  );
  assert.equal(check(docs, "[gone](architecture.md#no-such-heading)").length, 1);
  assert.equal(check(docs, "[gone](docs/architecture.md)").length, 1);
  assert.equal(check(readme, "![shot](docs/images/none.webp)").length, 1);
});

test("commands, URLs, globs, placeholders, built folders and fenced blocks are not paths", () => {
  const text = [
    "`npm run bench:api`, `/api/health`, `/etc/easel/env`, `viem/siwe`, `@easel/contracts/abis`,",
    "`packages/web/src/features/<feature>/api/<resource>.ts`, `packages/server/test/abuse*.test.ts`,",
    "`packages/server/dist/bin/api.js`, `BENCH_REPORT=/some/file.json`",
    "```sh",
    "node src/no/such/file.ts",
    "`src/no/such/file.ts`",
    "```",
  ].join("\n");
  assert.deepEqual(check(readme, text), []);
});
