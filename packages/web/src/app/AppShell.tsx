import { PageLoader } from "../ui/PageLoader.tsx";

let sentFrame = "";

/** Keeps the frame the page arrived with (index.html's), before the app takes over its container. */
export function keepSentFrame(container: HTMLElement) {
  sentFrame = container.innerHTML.trim();
}

/**
 * Resolves once the lead picture of the frame the page arrived with (a banner or an artwork the server drew
 * with `fetchpriority="high"`, or a video's poster) has loaded and had a frame to paint in, or failed, or after `maxMs`; at once
 * when there is none. The app's first render is a long task: started before, it kept an artwork that had
 * already arrived off the screen until the whole page was drawn.
 */
export function leadPicturePainted(container: HTMLElement, maxMs: number): Promise<void> {
  const image = container.querySelector<HTMLImageElement>('main img[fetchpriority="high"]');
  // A video's poster has no event of its own: the same picture, decoded aside (the server preloaded it).
  const poster = container.querySelector<HTMLVideoElement>("main video[poster]")?.poster;
  const picture = image ?? (poster ? Object.assign(new Image(), { src: poster }) : null);
  if (!picture) return Promise.resolve();
  const painted = picture
    .decode()
    .catch(() => {})
    .then(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
  return Promise.race([painted, new Promise<void>((resolve) => setTimeout(resolve, maxMs))]);
}

/**
 * What shows while the first page's code and data load: the frame the page arrived with, as it was. That is
 * index.html's header bar and spinner, with the page's lead picture where the server put it (a banner, an
 * artwork: packages/server/src/web/firstPaint.ts), so nothing blinks or moves until the page replaces it.
 */
export function AppShell() {
  if (!sentFrame) return <PageLoader />;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the markup the browser already parsed from this page
  return <div className="contents" dangerouslySetInnerHTML={{ __html: sentFrame }} />;
}
