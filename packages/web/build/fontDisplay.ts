import type { Plugin } from "vite";

/**
 * Inter with `font-display: optional` (its package declares `swap`). Inter is not preloaded (a preloaded font
 * holds back the first paint), so on a first visit over a slow network the text paints in the metric-matched
 * fallback (styles.css) and stays in it for that visit; swapped in later, Inter's slightly different widths
 * rewrap headings and move the page below them. Once cached, Inter shows from the first paint.
 */
export function fontDisplayOptional(): Plugin {
  return {
    name: "easel-font-display-optional",
    apply: "build",
    enforce: "pre",
    generateBundle: {
      order: "pre",
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type !== "asset" || !output.fileName.endsWith(".css")) continue;
          output.source = String(output.source).replace(/font-display:\s*swap/g, "font-display:optional");
        }
      },
    },
  };
}
