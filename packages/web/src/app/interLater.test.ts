import { afterEach, describe, expect, it, vi } from "vitest";
import { fetchInterForLater } from "./interLater.ts";

/** A document as the server sends it, with or without `inter-later`, whose font loads as `load` says. */
function page(interLater: boolean, load: () => Promise<unknown[]>, readyState = "complete") {
  const doc = document.implementation.createHTMLDocument("Easel");
  if (interLater) doc.documentElement.classList.add("inter-later");
  const asked: string[] = [];
  Object.defineProperty(doc, "fonts", {
    value: {
      load: (font: string) => {
        asked.push(font);
        return load();
      },
    },
  });
  Object.defineProperty(doc, "readyState", { value: readyState });
  let cookie = "";
  Object.defineProperty(doc, "cookie", {
    get: () => cookie,
    set: (value: string) => {
      cookie = value;
    },
  });
  return { doc, asked, cookie: () => cookie };
}

describe("Inter on a first visit", () => {
  afterEach(() => vi.useRealTimers());

  it("is fetched once the page has loaded and the browser is idle, and remembered with a cookie", async () => {
    vi.useFakeTimers();
    const visit = page(true, async () => [{}]);
    fetchInterForLater(visit.doc, window);
    // Not while the page is still being drawn.
    expect(visit.asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(visit.asked).toEqual(['1em "Inter Variable"']);
    expect(visit.cookie()).toMatch(/^easel_inter=1; path=\/; max-age=31536000; samesite=lax$/);
  });

  it("waits for the page's load event when the page is still loading", async () => {
    vi.useFakeTimers();
    const visit = page(true, async () => [{}], "loading");
    const win = new EventTarget() as unknown as Window;
    fetchInterForLater(visit.doc, win);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(visit.asked).toEqual([]);
    win.dispatchEvent(new Event("load"));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(visit.asked).toHaveLength(1);
  });

  it("is not remembered when it did not load, so the next page reads in the fallback again", async () => {
    vi.useFakeTimers();
    const failed = page(true, () => Promise.reject(new Error("offline")));
    fetchInterForLater(failed.doc, window);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(failed.asked).toHaveLength(1);
    expect(failed.cookie()).toBe("");
    // A font set that matched no face loaded nothing either.
    const none = page(true, async () => []);
    fetchInterForLater(none.doc, window);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(none.cookie()).toBe("");
  });

  it("is left alone on a page that already reads in Inter", async () => {
    vi.useFakeTimers();
    const visit = page(false, async () => [{}]);
    fetchInterForLater(visit.doc, window);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(visit.asked).toEqual([]);
    expect(visit.cookie()).toBe("");
  });
});
