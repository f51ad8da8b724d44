import { itemPagePicture, type ItemMedia as Media, mediaUrl } from "@easel/common";
import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { Button } from "../../../ui/Button.tsx";

/**
 * The artwork: the page preview (a video plays with controls, a PDF shows its placeholder), and a full-screen
 * viewer with the original: images zoom (click or the buttons), videos play, PDFs are read in the browser.
 */
export function ItemMedia({
  media,
  name,
  pixelated = false,
}: {
  media: Media | null;
  name: string;
  /** Pixel art: its pixels drawn square and sharp at any size, never smoothed. */
  pixelated?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const pixels = pixelated ? ({ imageRendering: "pixelated" } as const) : undefined;
  if (!media) {
    return (
      <div
        role="img"
        aria-label={`${name}: no image`}
        className="flex aspect-square w-full items-center justify-center rounded-2xl bg-neutral-100 text-neutral-500 dark:bg-neutral-900"
      >
        No image
      </div>
    );
  }
  const original = mediaUrl(media.cid) as string;
  // The server preloads this same picture with the page.
  const picture = itemPagePicture(media);
  const video = media.mime.startsWith("video/");
  const pdf = media.mime === "application/pdf";
  return (
    <figure className="flex flex-col gap-2">
      <div className="overflow-hidden rounded-2xl bg-neutral-100 dark:bg-neutral-900">
        {video ? (
          // A video's size is known only once it loads: a box of fixed shape keeps the page from moving then.
          // biome-ignore lint/a11y/useMediaCaption: artworks carry no captions
          <video
            src={original}
            poster={picture}
            controls
            playsInline
            className="aspect-square max-h-[70vh] w-full bg-black object-contain"
          />
        ) : (
          <button type="button" className="block w-full cursor-zoom-in" onClick={() => setOpen(true)}>
            <img
              src={picture}
              alt={name}
              // The picture's own size reserves its place before it loads (no layout shift).
              width={pdf ? undefined : (media.width ?? undefined)}
              height={pdf ? undefined : (media.height ?? undefined)}
              fetchPriority="high"
              style={pixels}
              className="max-h-[70vh] w-full object-contain"
            />
          </button>
        )}
      </div>
      <div className="flex justify-end">
        <Button variant="ghost" className="text-sm" onClick={() => setOpen(true)}>
          {pdf ? "Read the PDF" : "View full screen"}
        </Button>
      </div>
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-40 bg-neutral-950/90" />
          <Dialog.Content className="fixed inset-0 z-50 flex flex-col">
            <Dialog.Title className="sr-only">{name}</Dialog.Title>
            <Dialog.Description className="sr-only">The artwork in full screen</Dialog.Description>
            <div className="flex justify-end gap-2 p-3">
              {pdf ? (
                <a
                  href={original}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="rounded-lg px-3 py-2 text-sm font-semibold text-white hover:bg-white/10"
                >
                  Open in a new tab
                </a>
              ) : null}
              <Dialog.Close className="rounded-lg px-3 py-2 text-sm font-semibold text-white hover:bg-white/10">
                Close
              </Dialog.Close>
            </div>
            <div className="min-h-0 flex-1 overflow-auto">
              {video ? (
                // biome-ignore lint/a11y/useMediaCaption: artworks carry no captions
                <video
                  src={original}
                  controls
                  autoPlay
                  playsInline
                  className="mx-auto max-h-full max-w-full"
                />
              ) : pdf ? (
                <iframe src={original} title={name} className="h-full w-full bg-white" />
              ) : (
                <ZoomableImage src={original} alt={name} pixelated={pixelated} />
              )}
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </figure>
  );
}

const ZOOMS = [1, 1.5, 2, 3, 4];

function ZoomableImage({ src, alt, pixelated }: { src: string; alt: string; pixelated: boolean }) {
  const [zoom, setZoom] = useState(0);
  const scale = ZOOMS[zoom] ?? 1;
  return (
    <div className="flex min-h-full flex-col items-center">
      <fieldset className="sticky top-0 z-10 flex gap-2 p-2">
        <legend className="sr-only">Zoom</legend>
        <Button variant="secondary" disabled={zoom === 0} onClick={() => setZoom((z) => Math.max(0, z - 1))}>
          Zoom out
        </Button>
        <span className="self-center text-sm text-white tabular-nums" aria-live="polite">
          {Math.round(scale * 100)}%
        </span>
        <Button
          variant="secondary"
          disabled={zoom === ZOOMS.length - 1}
          onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
        >
          Zoom in
        </Button>
      </fieldset>
      <button
        type="button"
        className={scale > 1 ? "cursor-zoom-out" : "cursor-zoom-in"}
        onClick={() => setZoom((z) => (z === ZOOMS.length - 1 ? 0 : z + 1))}
      >
        <img
          src={src}
          alt={alt}
          style={{
            width: `${scale * 100}%`,
            maxWidth: scale === 1 ? "100%" : "none",
            ...(pixelated ? { imageRendering: "pixelated" } : {}),
          }}
          className={scale === 1 ? "max-h-[85vh] object-contain" : ""}
        />
      </button>
    </div>
  );
}
