import type { Plugin } from "vite";

/**
 * Puts the app's stylesheet in index.html as a `<style>` element. It is small (about 10 KB compressed, less
 * than a connection's first round trip carries), and as a separate file it blocked the first paint for a
 * round trip of its own: inline, the page's frame paints as soon as the HTML has arrived.
 */
export function inlineStyles(): Plugin {
  return {
    name: "easel-inline-styles",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, context) {
        const links = [...html.matchAll(/<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g)];
        if (links.length !== 1)
          throw new Error(`easel-inline-styles: expected one stylesheet, found ${links.length}`);
        const [link, file] = links[0] as unknown as [string, string];
        const asset = context.bundle?.[file];
        if (asset?.type !== "asset") throw new Error(`easel-inline-styles: ${file} is not in the build`);
        const css = String(asset.source);
        if (/<\/style/i.test(css))
          throw new Error("easel-inline-styles: the stylesheet would close its element");
        return html.replace(link, () => `<style>${css}</style>`);
      },
    },
  };
}
