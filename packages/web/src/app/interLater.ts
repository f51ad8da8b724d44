/**
 * A page the server sent with `<html class="inter-later">` reads in Inter's fallback: the browser has not
 * fetched Inter yet (packages/server/src/web/webFont.ts). Once the page has loaded and the browser is idle,
 * Inter is fetched into the cache, not applied (the visit's text keeps its typeface), and a cookie tells
 * the server that the next page may use it.
 */
import { INTER_COOKIE } from "@easel/common";
import { whenIdle } from "../lib/idle.ts";

const YEAR_S = 365 * 24 * 60 * 60;

export function fetchInterForLater(doc: Document = document, win: Window = window): void {
  if (!doc.documentElement.classList.contains("inter-later")) return;
  const fetchIt = () =>
    whenIdle(() => {
      doc.fonts
        // Only the faces whose range holds the text load: Latin, what the pages are written in.
        .load('1em "Inter Variable"', "Easel")
        .then((faces) => {
          if (faces.length > 0) doc.cookie = `${INTER_COOKIE}=1; path=/; max-age=${YEAR_S}; samesite=lax`;
        })
        // Not fetched (offline, a blocked font): the next page reads in the fallback again.
        .catch(() => {});
    }, 5_000);
  if (doc.readyState === "complete") fetchIt();
  else win.addEventListener("load", fetchIt, { once: true });
}
