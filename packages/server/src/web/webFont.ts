/**
 * Inter, the app's typeface, is a 49 KB file. On a first visit over a slow link it was fetched before the
 * first paint of every page that leads with text (the home page's hero, the marketplace's heading and first
 * card), and held that paint back: Lighthouse's simulated phone counted it against those pages' LCP. Inter's
 * `font-display` is `optional`, so on such a link the visit read in the fallback anyway.
 *
 * So a browser that has not fetched Inter yet gets its pages with `<html class="inter-later">`: the whole
 * visit reads in "Inter Fallback", Arial scaled to Inter's metrics (packages/web/src/styles.css), and nothing
 * asks for Inter before the paint. Once the page has loaded and the browser is idle, the app fetches Inter
 * into the cache and says so with a cookie (packages/web/src/app/interLater.ts); the next page uses it.
 * The visit's text never changes typeface under the reader.
 */
import { INTER_COOKIE } from "@easel/common";
import type { FastifyRequest } from "fastify";

/** Whether the visitor's browser has fetched Inter before (it said so with the cookie). */
export const interCached = (request: FastifyRequest) => request.cookies[INTER_COOKIE] === "1";

/** The page with `inter-later` on its root element: it reads in the fallback until a later visit. */
export function withInterLater(html: string): string {
  return html.replace(/<html(\s[^>]*)?>/i, (_tag, attributes: string | undefined) => {
    const rest = attributes ?? "";
    return /\sclass="/i.test(rest)
      ? `<html${rest.replace(/\sclass="/i, ' class="inter-later ')}>`
      : `<html${rest} class="inter-later">`;
  });
}
