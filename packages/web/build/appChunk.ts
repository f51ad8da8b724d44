import { fileURLToPath } from "node:url";

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };

const START = fileURLToPath(new URL("../src/app/start.tsx", import.meta.url));
const APP_MODULES = fileURLToPath(new URL("../src/app/appModules.ts", import.meta.url));
const ENTRY = fileURLToPath(new URL("../src/main.tsx", import.meta.url));
const SOURCES = fileURLToPath(new URL("../src/", import.meta.url));
/** React and its DOM renderer, which the start evaluates first (src/app/start.tsx). */
const REACT = /node_modules[\\/](react|react-dom|scheduler)[\\/]/;
/** The router and the query cache, evaluated in a task of their own (src/app/framework.ts). */
const FRAMEWORK = /node_modules[\\/](react-router|@tanstack[\\/][^\\/]+)[\\/]/;

/**
 * The chunks of the app's frame (src/app/start.tsx, which main.tsx loads after the page's lead picture), one
 * for each task the start evaluates them in: React, then the router and the query cache (src/app/framework.ts),
 * then the app's own modules (src/app/appModules.ts). Left to the bundler, the modules the
 * start shares with each page were cut into some forty small chunks, each a request of its own on a slow link.
 * Not what the entry itself imports: the entry must stay small. Libraries the app takes a few helpers from
 * (viem, zod, the shared schemas) stay with the bundler, which keeps only what is used.
 */
export function appChunks() {
  let app: Set<string> | null = null;
  return (id: string, graph: ModuleGraph): string | null => {
    if (!app) {
      const closure = (root: string) => {
        const seen = new Set<string>();
        const visit = (module: string) => {
          if (seen.has(module)) return;
          seen.add(module);
          for (const next of graph.getModuleInfo(module)?.importedIds ?? []) visit(next);
        };
        visit(root);
        return seen;
      };
      const before = new Set([...closure(ENTRY), ...closure(START)]);
      app = new Set([...closure(APP_MODULES)].filter((module) => !before.has(module)));
    }
    if (REACT.test(id)) return "react";
    if (FRAMEWORK.test(id)) return "framework";
    return app.has(id) && id.startsWith(SOURCES) ? "app" : null;
  };
}
