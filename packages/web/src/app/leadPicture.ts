// Read by the app's entry (main.tsx) before it loads the app's code: plain DOM, no React, and imported by the
// entry alone, so that it is part of the entry's one small script.

/**
 * Resolves once the lead picture of the frame the page arrived with (a banner or an artwork the server drew
 * with `fetchpriority="high"`, or a video's poster) has loaded and had a frame to paint in, or failed, or after
 * `maxMs`; at once when there is none.
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
