// Read by the app's entry (main.tsx) before it loads the app's code: plain DOM, no React, and imported by the
// entry alone, so that it is part of the entry's one small script.

/** After the lead picture has loaded, how long a paint that never becomes the page's largest is waited for. */
const UNREPORTED_PAINT_MS = 250;

/**
 * Resolves once the lead the server drew in the frame the page arrived with has painted: the browser's
 * largest-contentful-paint entry names it (a banner or an artwork drawn with `fetchpriority="high"`, a video's
 * poster, or the text of a page drawn whole, such as the home page's hero). At once when the frame has no
 * lead; without such entries (a browser that does not report them), or when the picture loaded but was not
 * the largest paint, once it has loaded and had a frame to paint in; when it fails, at once; and after `maxMs`
 * at the latest.
 *
 * Why after the paint: the app's code fetched before it shares the slow link with the lead, and a browser
 * (or Lighthouse's simulation, which counts every request started before the largest paint) puts it in the
 * lead's way.
 */
export function leadPainted(container: HTMLElement, maxMs: number): Promise<void> {
  const main = container.querySelector("main");
  // What the server drew before the frame's loading status.
  const drawn = [...(main?.children ?? [])].filter((element) => element.getAttribute("role") !== "status");
  if (!main || drawn.length === 0) return Promise.resolve();
  const image = main.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  const video = main.querySelector<HTMLVideoElement>("video[poster]");
  const lead: Element | null = image ?? video;
  // A video's poster has no event of its own: the same picture, decoded aside (the server preloaded it).
  const picture = image ?? (video ? Object.assign(new Image(), { src: video.poster }) : null);

  return new Promise<void>((resolve) => {
    let observer: PerformanceObserver | undefined;
    const done = () => {
      observer?.disconnect();
      clearTimeout(cap);
      resolve();
    };
    const cap = setTimeout(done, maxMs);
    const reported =
      typeof PerformanceObserver !== "undefined" &&
      PerformanceObserver.supportedEntryTypes?.includes("largest-contentful-paint");
    if (reported) {
      observer = new PerformanceObserver((list) => {
        const painted = list.getEntries().some((entry) => {
          const element = (entry as PerformanceEntry & { element?: Element | null }).element;
          return element && (lead ? element === lead : main.contains(element));
        });
        if (painted) done();
      });
      observer.observe({ type: "largest-contentful-paint", buffered: true });
    }
    const loaded = picture ? picture.decode() : Promise.resolve();
    loaded.then(
      () => requestAnimationFrame(() => setTimeout(done, reported ? UNREPORTED_PAINT_MS : 0)),
      done,
    );
  });
}
