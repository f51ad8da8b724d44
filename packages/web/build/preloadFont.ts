import type { Plugin } from "vite";

/** The face nearly every page's text uses: Inter's Latin subset (the other subsets load only when needed). */
const LATIN_FACE = /inter-latin-wght-normal-[\w-]+\.woff2$/;

/**
 * Preloads the Latin face of Inter with the page. Found only through the stylesheet, it arrives after the
 * app's first render on a slow connection, and swapping it in moves the text below (a layout shift).
 */
export function preloadFont(): Plugin {
  return {
    name: "easel-preload-font",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, context) {
        const font = Object.keys(context.bundle ?? {}).find((file) => LATIN_FACE.test(file));
        if (!font) throw new Error("easel-preload-font: the build has no Latin face of Inter to preload");
        return [
          {
            tag: "link",
            // Fonts are fetched in CORS mode: the preload must be too, or the browser fetches twice.
            attrs: { rel: "preload", href: `/${font}`, as: "font", type: "font/woff2", crossorigin: "" },
            injectTo: "head",
          },
        ];
      },
    },
  };
}
